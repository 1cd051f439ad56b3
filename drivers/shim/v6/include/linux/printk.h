/* SPDX-License-Identifier: GPL-2.0 */
/* printk and friends go to the run's log (simhost_log) with their level. */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H
#include <linux/types.h>
void simhost_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int printk(const char *fmt, ...) __printf(1, 2);
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...) simhost_log(3, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) simhost_log(4, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) simhost_log(5, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) simhost_log(6, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) simhost_log(6, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) do { if (0) simhost_log(7, pr_fmt(fmt), ##__VA_ARGS__); } while (0)
#define pr_err_once pr_err
#define pr_warn_once pr_warn
#define printk_ratelimit() 1
#define net_ratelimit() 1
#define no_printk(fmt, ...) ({ if (0) simhost_log(7, fmt, ##__VA_ARGS__); 0; })
#endif
