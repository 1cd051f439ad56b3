/* SPDX-License-Identifier: GPL-2.0 */
/* High-resolution timers on simulated time (ns). */
#ifndef _LINUX_HRTIMER_H
#define _LINUX_HRTIMER_H
#include <linux/types.h>
#include <linux/time.h>
enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode { HRTIMER_MODE_ABS = 0, HRTIMER_MODE_REL = 1 };
#define HRTIMER_MODE_REL_SOFT HRTIMER_MODE_REL
#define HRTIMER_MODE_ABS_SOFT HRTIMER_MODE_ABS
typedef int clockid_t;
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
struct hrtimer {
	struct hrtimer *next;
	u64 expires_ns;
	enum hrtimer_restart (*function)(struct hrtimer *);
	int pending;
};
void hrtimer_init(struct hrtimer *t, clockid_t clock, enum hrtimer_mode mode);
void hrtimer_start(struct hrtimer *t, ktime_t tim, enum hrtimer_mode mode);
int hrtimer_cancel(struct hrtimer *t);
static inline u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval) { t->expires_ns = simhost_time_ns() + interval; return 1; }
#endif
