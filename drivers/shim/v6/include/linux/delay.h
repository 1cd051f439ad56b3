/* SPDX-License-Identifier: GPL-2.0 */
/* udelay busy-waits the core; msleep/usleep_range let the task sleep. */
#ifndef _LINUX_DELAY_H
#define _LINUX_DELAY_H
#include <linux/types.h>
void simhost_delay_ns(u64 ns);
void simhost_sleep_ns(u64 ns);
#define udelay(us) simhost_delay_ns((u64)(us) * 1000)
#define ndelay(ns) simhost_delay_ns((u64)(ns))
#define mdelay(ms) simhost_delay_ns((u64)(ms) * 1000000)
#define msleep(ms) simhost_sleep_ns((u64)(ms) * 1000000)
#define usleep_range(lo, hi) simhost_sleep_ns((u64)(lo) * 1000)
#define fsleep(us) simhost_sleep_ns((u64)(us) * 1000)
#endif
