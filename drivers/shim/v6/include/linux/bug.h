/* SPDX-License-Identifier: GPL-2.0 */
/* BUG() stops the run; WARN_ON() logs the condition and the line. */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H
#include <linux/compiler.h>
#include <linux/printk.h>
void simhost_stop(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
#define BUG() simhost_stop("BUG at %s:%d", __FILE__, __LINE__)
#define BUG_ON(c) do { if (unlikely(c)) BUG(); } while (0)
#define WARN_ON(c) ({ int __w = !!(c); if (unlikely(__w)) simhost_log(4, "WARNING at %s:%d: %s", __FILE__, __LINE__, #c); unlikely(__w); })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define WARN(c, fmt, ...) ({ int __w = !!(c); if (unlikely(__w)) simhost_log(4, "WARNING at %s:%d: " fmt, __FILE__, __LINE__, ##__VA_ARGS__); unlikely(__w); })
#define WARN_ONCE WARN
#endif
