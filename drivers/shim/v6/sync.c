// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/sync.c: locking at the shim's 6.x level. A spinlock (and a
 * bh- or irq-disabled section) is a critical section of the simulated core
 * (simhost_atomic_enter: it does not yield to other agents on its own
 * account; a register access inside still lets the other cores catch up).
 * A spinlock records the core holding it: taking it again on that core is
 * a deadlock and stops the run; another core spins until it is released,
 * polling at simhost_spin_poll's cost, as the kernel's arch_spin_lock waits
 * for its ticket. A mutex and
 * the RTNL are held by one flow of control at a time — the boot, a task or
 * the kernel worker — and taking one that is held stops the run (on this
 * single-threaded kernel it could never be released).
 */
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/spinlock.h>

/* The lock is held: by this core (a deadlock: the run stops), or by another
 * that will release it. Out of line, so that an uncontended lock runs the
 * same code and memory accesses as it always did. */
static __attribute__((__noinline__)) void spin_contended(spinlock_t *l)
{
	const int me = simhost_cpu() + 1;

	if (l->locked == me)
		simhost_stop("spinlock %p taken twice on core %d (recursive locking or a missing unlock)", (void *)l,
			     me - 1);
	while (l->locked)
		simhost_spin_poll();
}

void shim_spin_lock(spinlock_t *l)
{
	simhost_atomic_enter();
	if (l->locked)
		spin_contended(l);
	l->locked = simhost_cpu() + 1;
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
