/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device registers: readl/writel of an ioremapped address are 32-bit
 * accesses to the simulated device at its physical address (the cookie
 * ioremap returns is the physical address itself).
 */
#ifndef _LINUX_IO_H
#define _LINUX_IO_H
#include <linux/types.h>
#include <asm/barrier.h>
u32 simhost_mmio_read32(u64 pa);
void simhost_mmio_write32(u64 pa, u32 v);
#define __shim_pa(a) ((u64)(unsigned long)(a))
static inline u32 readl_relaxed(const volatile void __iomem *a) { return simhost_mmio_read32(__shim_pa(a)); }
static inline void writel_relaxed(u32 v, volatile void __iomem *a) { simhost_mmio_write32(__shim_pa(a), v); }
static inline u32 readl(const volatile void __iomem *a) { u32 v = readl_relaxed(a); rmb(); return v; }
static inline void writel(u32 v, volatile void __iomem *a) { wmb(); writel_relaxed(v, a); }
u16 shim_readw(const volatile void __iomem *a);
#define readw shim_readw
void __iomem *devm_ioremap(struct device *dev, resource_size_t pa, resource_size_t size);
void __iomem *devm_ioremap_resource(struct device *dev, const struct resource *r);
#endif
