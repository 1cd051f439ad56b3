/* SPDX-License-Identifier: GPL-2.0 */
/* Timers on simulated time: the callback runs in softirq context on the boot core. */
#ifndef _LINUX_TIMER_H
#define _LINUX_TIMER_H
#include <linux/types.h>
#include <linux/time.h>
struct timer_list {
	struct timer_list *next;	/* pending list, by expiry */
	unsigned long expires;		/* jiffies */
	void (*function)(struct timer_list *);
	u32 flags;
	int pending;
};
void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *), unsigned int flags);
int mod_timer(struct timer_list *t, unsigned long expires);
void add_timer(struct timer_list *t);
int del_timer(struct timer_list *t);
int del_timer_sync(struct timer_list *t);
#define timer_delete_sync del_timer_sync
#define timer_delete del_timer
static inline int timer_pending(const struct timer_list *t) { return t->pending; }
#define from_timer(var, t, field) container_of(t, __typeof__(*var), field)
#endif
