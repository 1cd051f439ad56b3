/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks. The modelled driver contexts on one core never run concurrently
 * (hardirq, softirq and process context are serialised by the CPU model), so
 * a lock only costs its instructions (ldrex/strex, cpsid/cpsie).
 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H
#include <linux/types.h>
#include "../../simhost.h"
typedef struct { int locked; } spinlock_t;
#define SHIM_LOCK_CYCLES 12
#define spin_lock_init(l) ((l)->locked = 0)
#define spin_lock(l) simhost_charge(SHIM_LOCK_CYCLES, SIMHOST_CAT_DRIVER)
#define spin_unlock(l) simhost_charge(SHIM_LOCK_CYCLES / 2, SIMHOST_CAT_DRIVER)
#define spin_lock_bh(l) spin_lock(l)
#define spin_unlock_bh(l) spin_unlock(l)
#define spin_lock_irqsave(l, f) do { (f) = 0; spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, f) do { (void)(f); spin_unlock(l); } while (0)
#endif
