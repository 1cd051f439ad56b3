/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MMIO on ARMv7 (docs/sources.md §4.5): writel() = wmb() + relaxed store, readl() =
 * relaxed load + rmb(). An __iomem pointer is a token: the shim maps device
 * physical ranges into a reserved host range that is never dereferenced.
 */
#ifndef _LINUX_IO_H
#define _LINUX_IO_H
#include <linux/types.h>
#include <asm/barrier.h>
#include "../../simhost.h"

u64 shim_iomem_pa(const volatile void __iomem *addr);	/* stops the run if not mapped */
void __iomem *ioremap(phys_addr_t pa, size_t size);
void iounmap(void __iomem *addr);

static inline u32 readl_relaxed(const volatile void __iomem *a) { return simhost_mmio_read32(shim_iomem_pa(a)); }
static inline void writel_relaxed(u32 v, volatile void __iomem *a) { simhost_mmio_write32(shim_iomem_pa(a), v); }
static inline u32 readl(const volatile void __iomem *a) { u32 v = readl_relaxed(a); rmb(); return v; }
static inline void writel(u32 v, volatile void __iomem *a) { wmb(); writel_relaxed(v, a); }
#endif
