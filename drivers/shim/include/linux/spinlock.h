/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks. Contexts of one core are serialised by the CPU model; across
 * cores a held lock keeps the holder from yielding to the simulation kernel,
 * so no other core can run inside the section. A lock costs its
 * instructions (ldrex/strex, cpsid/cpsie); contention is not modelled.
 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H
#include <linux/types.h>
#include "../../simhost.h"
typedef struct { int locked; } spinlock_t;
#define SHIM_LOCK_CYCLES 12
#define spin_lock_init(l) ((l)->locked = 0)
#define shim_lock_use(l) ((void)(l))
#define spin_lock(l) do { shim_lock_use(l); simhost_atomic_enter(); simhost_charge(SHIM_LOCK_CYCLES, SIMHOST_CAT_DRIVER); } while (0)
#define spin_unlock(l) do { simhost_charge(SHIM_LOCK_CYCLES / 2, SIMHOST_CAT_DRIVER); simhost_atomic_leave(); } while (0)
#define spin_lock_bh(l) spin_lock(l)
#define spin_unlock_bh(l) spin_unlock(l)
#define spin_lock_irqsave(l, f) do { (f) = 0; spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, f) do { (void)(f); spin_unlock(l); } while (0)
#endif
