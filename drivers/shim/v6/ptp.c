// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/ptp.c: PTP hardware clocks and the time counter at the
 * shim's 6.x level. ptp_clock_register gives the clock index 0 (there is
 * one); the time counter's arithmetic is the kernel's (kernel/time/
 * timecounter.c): the cycle delta masked to the counter's width, scaled by
 * mult >> shift with the fraction kept.
 */
#include <linux/ptp_clock_kernel.h>
#include <linux/slab.h>
#include <linux/timecounter.h>
#include "fecsim_v6.h"

struct ptp_clock {
	struct ptp_clock_info *info;
	int index;
	unsigned long long events;	/* ptp_clock_event calls (PPS) */
};

static int g_ptp_clocks;

struct ptp_clock *ptp_clock_register(struct ptp_clock_info *info, struct device *parent)
{
	struct ptp_clock *p = kzalloc(sizeof(*p), GFP_KERNEL);
	(void)parent;
	if (!p)
		return ERR_PTR(-ENOMEM);
	p->info = info;
	p->index = g_ptp_clocks++;
	return p;
}

int ptp_clock_unregister(struct ptp_clock *ptp)
{
	kfree(ptp);
	return 0;
}

int ptp_clock_index(struct ptp_clock *ptp) { return ptp->index; }

void ptp_clock_event(struct ptp_clock *ptp, struct ptp_clock_event *event)
{
	(void)event;
	ptp->events++;
}

void timecounter_init(struct timecounter *tc, const struct cyclecounter *cc, u64 start_tstamp)
{
	tc->cc = cc;
	tc->cycle_last = cc->read(cc);
	tc->nsec = start_tstamp;
	tc->mask = (1ULL << cc->shift) - 1;
	tc->frac = 0;
}

u64 timecounter_read(struct timecounter *tc)
{
	const struct cyclecounter *cc = tc->cc;
	u64 now = cc->read(cc);
	u64 delta = (now - tc->cycle_last) & cc->mask;
	tc->cycle_last = now;
	tc->nsec += cyclecounter_cyc2ns(cc, delta, tc->mask, &tc->frac);
	return tc->nsec;
}

u64 timecounter_cyc2time(const struct timecounter *tc, u64 cycle_tstamp)
{
	const struct cyclecounter *cc = tc->cc;
	u64 delta = (cycle_tstamp - tc->cycle_last) & cc->mask;
	u64 frac = tc->frac;
	if (delta > cc->mask / 2) {
		/* A time stamp before the last read: count backwards. */
		delta = (tc->cycle_last - cycle_tstamp) & cc->mask;
		return tc->nsec - ((delta * cc->mult - frac) >> cc->shift);
	}
	return tc->nsec + cyclecounter_cyc2ns(cc, delta, tc->mask, &frac);
}
