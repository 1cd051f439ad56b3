/* SPDX-License-Identifier: GPL-2.0 */
/* Simulated time: jiffies, ktime and timespec64 run on the simulation's clock. */
#ifndef _LINUX_TIME_H
#define _LINUX_TIME_H
#include <linux/types.h>
#include <linux/kernel.h>
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_MSEC 1000L
#define MSEC_PER_SEC 1000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L
#define HZ CONFIG_HZ
struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};
u64 simhost_time_ns(void);
unsigned long simhost_jiffies(void);
#define jiffies simhost_jiffies()
static inline u64 ktime_get_ns(void) { return simhost_time_ns(); }
static inline ktime_t ktime_get(void) { return simhost_time_ns(); }
static inline ktime_t ktime_get_real(void) { return simhost_time_ns(); }
static inline u64 ktime_get_real_ns(void) { return simhost_time_ns(); }
static inline s64 ktime_to_ns(ktime_t t) { return (s64)t; }
static inline ktime_t ns_to_ktime(u64 ns) { return ns; }
static inline ktime_t ktime_set(s64 s, unsigned long ns) { return (ktime_t)(s * NSEC_PER_SEC + ns); }
static inline ktime_t ktime_add_ns(ktime_t t, u64 ns) { return t + ns; }
static inline ktime_t ktime_sub(ktime_t a, ktime_t b) { return a - b; }
static inline struct timespec64 ns_to_timespec64(s64 ns)
{
	struct timespec64 t = { ns / NSEC_PER_SEC, (long)(ns % NSEC_PER_SEC) };
	if (t.tv_nsec < 0) {
		t.tv_sec--;
		t.tv_nsec += NSEC_PER_SEC;
	}
	return t;
}
static inline s64 timespec64_to_ns(const struct timespec64 *t) { return t->tv_sec * NSEC_PER_SEC + t->tv_nsec; }
static inline void ktime_get_real_ts64(struct timespec64 *t) { *t = ns_to_timespec64(simhost_time_ns()); }
static inline unsigned long msecs_to_jiffies(unsigned int ms) { return (ms * HZ + 999) / 1000; }
static inline unsigned long usecs_to_jiffies(unsigned int us) { return ((unsigned long)us * HZ + 999999) / 1000000; }
static inline unsigned int jiffies_to_msecs(unsigned long j) { return j * (1000 / HZ); }
static inline unsigned long round_jiffies_relative(unsigned long j) { return j; }
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_is_before_jiffies(a) time_after(jiffies, a)
#endif
