/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H
#include "../../simhost.h"
#define KERN_ERR "<3>"
#define KERN_WARNING "<4>"
#define KERN_INFO "<6>"
#define KERN_DEBUG "<7>"
#define pr_err(fmt, ...) simhost_log(3, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) simhost_log(4, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) simhost_log(6, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) do { } while (0)
#define printk(fmt, ...) simhost_log(6, fmt, ##__VA_ARGS__)
#define net_ratelimit() 1
#endif
