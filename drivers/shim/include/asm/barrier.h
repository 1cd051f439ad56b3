/* SPDX-License-Identifier: GPL-2.0 */
/* ARMv7 + PL310 barriers (CONFIG_ARM_DMA_MEM_BUFFERABLE, SMP): docs/sources.md §4.5. */
#ifndef _ASM_BARRIER_H
#define _ASM_BARRIER_H
#include "../../simhost.h"
#define mb() simhost_barrier(SIMHOST_DSB_OUTER_SYNC)
#define wmb() simhost_barrier(SIMHOST_DSB_OUTER_SYNC)
#define rmb() simhost_barrier(SIMHOST_DSB)
#define dma_wmb() simhost_barrier(SIMHOST_DMB)
#define dma_rmb() simhost_barrier(SIMHOST_DMB)
#define smp_mb() simhost_barrier(SIMHOST_DMB)
#define smp_wmb() simhost_barrier(SIMHOST_DMB)
#define smp_rmb() simhost_barrier(SIMHOST_DMB)
#endif
