// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/sync.c: locking at the shim's 6.x level. A spinlock (and a
 * bh- or irq-disabled section) is a critical section of the simulated core
 * (simhost_atomic_enter: it does not yield to other agents); a mutex and
 * the RTNL are held by one flow of control at a time — the boot, a task or
 * the kernel worker — and taking one that is held stops the run (on this
 * single-threaded kernel it could never be released).
 */
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/spinlock.h>

void shim_spin_lock(spinlock_t *l)
{
	simhost_atomic_enter();
	if (l->locked)
		simhost_stop("spinlock %p taken twice (recursive locking or a missing unlock)", (void *)l);
	l->locked = 1;
}

void shim_spin_unlock(spinlock_t *l)
{
	if (!l->locked)
		simhost_stop("spinlock %p released while not held", (void *)l);
	l->locked = 0;
	simhost_atomic_leave();
}

void local_bh_disable(void) { simhost_atomic_enter(); }
void local_bh_enable(void) { simhost_atomic_leave(); }

void __mutex_init(struct mutex *m, const char *name)
{
	m->locked = 0;
	m->name = name;
}

void mutex_lock(struct mutex *m)
{
	if (m->locked)
		simhost_stop("mutex %s taken while held: it would never be released", m->name ? m->name : "?");
	m->locked = 1;
}

int mutex_trylock(struct mutex *m)
{
	if (m->locked)
		return 0;
	m->locked = 1;
	return 1;
}

void mutex_unlock(struct mutex *m)
{
	if (!m->locked)
		simhost_stop("mutex %s released while not held", m->name ? m->name : "?");
	m->locked = 0;
}

static struct mutex g_rtnl = { 0, "rtnl_mutex" };

void rtnl_lock(void) { mutex_lock(&g_rtnl); }
void rtnl_unlock(void) { mutex_unlock(&g_rtnl); }
int rtnl_is_locked(void) { return g_rtnl.locked; }
