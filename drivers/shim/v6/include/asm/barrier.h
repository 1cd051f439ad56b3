/* SPDX-License-Identifier: GPL-2.0 */
/* Barriers as on ARMv7 with an outer PL310 (drivers/shim/simhost.h). */
#ifndef _ASM_BARRIER_H
#define _ASM_BARRIER_H
void simhost_barrier(int kind);
#define mb() simhost_barrier(1)
#define wmb() simhost_barrier(1)
#define rmb() simhost_barrier(0)
#define dma_wmb() simhost_barrier(2)
#define dma_rmb() simhost_barrier(2)
#define smp_mb() simhost_barrier(2)
#define smp_wmb() simhost_barrier(2)
#define smp_rmb() simhost_barrier(2)
#endif
