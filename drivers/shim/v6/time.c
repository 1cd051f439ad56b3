// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/time.c: timers, high-resolution timers, work and delayed
 * work on simulated time. Everything pending runs in the kernel worker
 * (simhost_kworker: process context on the RX interrupt core): due timers
 * in expiry order (ties: the order they were armed), then the work queue in
 * queueing order (work queued by a work item runs in the same pass). Timer callbacks therefore run in process rather than
 * softirq context; their order and times are the kernel's.
 */
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include "fecsim_v6.h"

void simhost_kworker(void (*fn)(void));
void simhost_kworker_at(u64 at_ns);

static struct timer_list *g_timers;	/* pending, by expiry then arming order */
static struct hrtimer *g_hrtimers;
static struct work_struct *g_work_head, **g_work_tail = &g_work_head;

static u64 jiffies_to_ns(unsigned long j) { return (u64)j * (NSEC_PER_SEC / HZ); }

static void kick(u64 at_ns)
{
	simhost_kworker_at(at_ns);
}

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *), unsigned int flags)
{
	t->next = NULL;
	t->function = fn;
	t->flags = flags;
	t->pending = 0;
	t->expires = 0;
}

static void timer_unlink(struct timer_list *t)
{
	for (struct timer_list **p = &g_timers; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	t->next = NULL;
	t->pending = 0;
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	int was = t->pending;
	struct timer_list **p;
	if (was)
		timer_unlink(t);
	t->expires = expires;
	for (p = &g_timers; *p && !time_after((*p)->expires, expires); p = &(*p)->next)
		;
	t->next = *p;
	*p = t;
	t->pending = 1;
	kick(jiffies_to_ns(expires));
	return was;
}

void add_timer(struct timer_list *t) { mod_timer(t, t->expires); }

int del_timer(struct timer_list *t)
{
	int was = t->pending;
	if (was)
		timer_unlink(t);
	return was;
}

int del_timer_sync(struct timer_list *t) { return del_timer(t); }

void hrtimer_init(struct hrtimer *t, clockid_t clock, enum hrtimer_mode mode)
{
	(void)clock;
	(void)mode;
	t->next = NULL;
	t->pending = 0;
	t->function = NULL;
}

static void hrtimer_unlink(struct hrtimer *t)
{
	for (struct hrtimer **p = &g_hrtimers; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	t->pending = 0;
}

void hrtimer_start(struct hrtimer *t, ktime_t tim, enum hrtimer_mode mode)
{
	struct hrtimer **p;
	if (t->pending)
		hrtimer_unlink(t);
	t->expires_ns = (mode & HRTIMER_MODE_REL) ? simhost_time_ns() + tim : tim;
	for (p = &g_hrtimers; *p && (*p)->expires_ns <= t->expires_ns; p = &(*p)->next)
		;
	t->next = *p;
	*p = t;
	t->pending = 1;
	kick(t->expires_ns);
}

int hrtimer_cancel(struct hrtimer *t)
{
	int was = t->pending;
	if (was)
		hrtimer_unlink(t);
	return was;
}

static bool queue_work_item(struct work_struct *w)
{
	if (w->pending)
		return false;
	w->pending = 1;
	w->next = NULL;
	*g_work_tail = w;
	g_work_tail = &w->next;
	kick(simhost_time_ns());
	return true;
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	(void)wq;
	return queue_work_item(w);
}

bool schedule_work(struct work_struct *w) { return queue_work_item(w); }

void shim_delayed_work_timer(struct timer_list *t)
{
	struct delayed_work *d = container_of(t, struct delayed_work, timer);
	queue_work_item(&d->work);
}

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *d, unsigned long delay)
{
	(void)wq;
	if (d->work.pending || d->timer.pending)
		return false;
	if (!delay)
		return queue_work_item(&d->work);
	mod_timer(&d->timer, jiffies + delay);
	return true;
}

bool schedule_delayed_work(struct delayed_work *d, unsigned long delay)
{
	return queue_delayed_work(NULL, d, delay);
}

static bool work_unqueue(struct work_struct *w)
{
	if (!w->pending)
		return false;
	for (struct work_struct **p = &g_work_head; *p; p = &(*p)->next)
		if (*p == w) {
			*p = w->next;
			if (g_work_tail == &w->next)
				g_work_tail = p;
			break;
		}
	w->pending = 0;
	return true;
}

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *d, unsigned long delay)
{
	bool was = del_timer(&d->timer) | work_unqueue(&d->work);
	queue_delayed_work(wq, d, delay);
	return was;
}

/* Work runs only in the kernel worker, between items: none is running when
 * another flow of control cancels it, so _sync needs no wait. */
bool cancel_work_sync(struct work_struct *w) { return work_unqueue(w); }
bool cancel_delayed_work(struct delayed_work *d) { return del_timer(&d->timer) | work_unqueue(&d->work); }
bool cancel_delayed_work_sync(struct delayed_work *d) { return cancel_delayed_work(d); }

void flush_work(struct work_struct *w)
{
	if (work_unqueue(w))
		w->func(w);
}

/* The kernel worker's pass: due timers, due hrtimers, then the queued work. */
static void kworker_run(void)
{
	u64 now = simhost_time_ns();
	while (g_timers && !time_after(g_timers->expires, jiffies)) {
		struct timer_list *t = g_timers;
		timer_unlink(t);
		t->function(t);
	}
	while (g_hrtimers && g_hrtimers->expires_ns <= now) {
		struct hrtimer *t = g_hrtimers;
		hrtimer_unlink(t);
		if (t->function(t) == HRTIMER_RESTART)
			hrtimer_start(t, t->expires_ns, HRTIMER_MODE_ABS);
	}
	while (g_work_head) {
		struct work_struct *w = g_work_head;
		g_work_head = w->next;
		if (!g_work_head)
			g_work_tail = &g_work_head;
		w->next = NULL;
		w->pending = 0;
		w->func(w);
	}
	if (g_work_head)
		kick(simhost_time_ns());
	if (g_timers)
		kick(jiffies_to_ns(g_timers->expires));
	if (g_hrtimers)
		kick(g_hrtimers->expires_ns);
}

void shim_time_init(void) { simhost_kworker(kworker_run); }
