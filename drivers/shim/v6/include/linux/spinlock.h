/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks, with interrupts and bottom halves: holding one is a critical
 * section of the simulated core (it does not yield to other agents).
 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H
#include <linux/types.h>
#include <linux/compiler.h>
void simhost_atomic_enter(void);
void simhost_atomic_leave(void);
void simhost_spin_poll(void);
int simhost_cpu(void);
/* locked: 0, or the number of the core holding it plus one */
typedef struct { int locked; } spinlock_t;
typedef spinlock_t raw_spinlock_t;
#define __SPIN_LOCK_UNLOCKED(x) { 0 }
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
static inline void spin_lock_init(spinlock_t *l) { l->locked = 0; }
void shim_spin_lock(spinlock_t *l);
void shim_spin_unlock(spinlock_t *l);
#define spin_lock(l) shim_spin_lock(l)
#define spin_unlock(l) shim_spin_unlock(l)
#define spin_lock_bh(l) shim_spin_lock(l)
#define spin_unlock_bh(l) shim_spin_unlock(l)
#define spin_lock_irq(l) shim_spin_lock(l)
#define spin_unlock_irq(l) shim_spin_unlock(l)
#define spin_lock_irqsave(l, flags) do { (flags) = 0; shim_spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) do { (void)(flags); shim_spin_unlock(l); } while (0)
#define local_irq_save(flags) do { (flags) = 0; simhost_atomic_enter(); } while (0)
#define local_irq_restore(flags) do { (void)(flags); simhost_atomic_leave(); } while (0)
void local_bh_disable(void);
void local_bh_enable(void);
#define lockdep_assert_held(l) do { } while (0)
#endif
