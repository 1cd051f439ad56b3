/* SPDX-License-Identifier: GPL-2.0 */
/* Register polling with a timeout on simulated time. */
#ifndef _LINUX_IOPOLL_H
#define _LINUX_IOPOLL_H
#include <linux/io.h>
#include <linux/delay.h>
#include <linux/time.h>
#define read_poll_timeout_atomic(op, val, cond, delay_us, timeout_us, delay_before_read, args...) ({ \
	u64 __end = simhost_time_ns() + (u64)(timeout_us) * 1000; \
	for (;;) { \
		(val) = op(args); \
		if (cond) break; \
		if ((timeout_us) && simhost_time_ns() > __end) { (val) = op(args); break; } \
		if (delay_us) udelay(delay_us); else simhost_delay_ns(10); \
	} \
	(cond) ? 0 : -ETIMEDOUT; })
#define readl_poll_timeout_atomic(addr, val, cond, delay_us, timeout_us) \
	read_poll_timeout_atomic(readl, val, cond, delay_us, timeout_us, false, addr)
#define read_poll_timeout(op, val, cond, sleep_us, timeout_us, sleep_before_read, args...) \
	read_poll_timeout_atomic(op, val, cond, sleep_us, timeout_us, sleep_before_read, args)
#define readl_poll_timeout(addr, val, cond, sleep_us, timeout_us) \
	read_poll_timeout(readl, val, cond, sleep_us, timeout_us, false, addr)
#endif
