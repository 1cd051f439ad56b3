/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work items and delayed work on simulated time: queued work runs in
 * process context on the boot core, in queueing order; delayed work is
 * queued when its timer (jiffies) expires.
 */
#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H
#include <linux/types.h>
#include <linux/timer.h>
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	struct work_struct *next;	/* queue */
	work_func_t func;
	int pending;
};
struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
};
struct workqueue_struct;
#define INIT_WORK(w, f) do { (w)->next = NULL; (w)->func = (f); (w)->pending = 0; } while (0)
void shim_delayed_work_timer(struct timer_list *t);
#define INIT_DELAYED_WORK(d, f) do { INIT_WORK(&(d)->work, (f)); timer_setup(&(d)->timer, shim_delayed_work_timer, 0); } while (0)
static inline struct delayed_work *to_delayed_work(struct work_struct *w) { return container_of(w, struct delayed_work, work); }
bool schedule_work(struct work_struct *w);
bool schedule_delayed_work(struct delayed_work *d, unsigned long delay);
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *d, unsigned long delay);
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *d, unsigned long delay);
bool queue_work(struct workqueue_struct *wq, struct work_struct *w);
bool cancel_work_sync(struct work_struct *w);
bool cancel_delayed_work(struct delayed_work *d);
bool cancel_delayed_work_sync(struct delayed_work *d);
void flush_work(struct work_struct *w);
#define system_wq ((struct workqueue_struct *)0)
#define system_power_efficient_wq ((struct workqueue_struct *)0)
static inline bool work_pending(const struct work_struct *w) { return w->pending; }
#endif
