// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/dma.c: the DMA API and interrupts at the shim's 6.x
 * level, on the same simulator calls as the 5.4 level (drivers/shim/dma.c):
 * the maintenance is performed and checked; the call site (the driver's
 * return address) names the culprit in reports.
 */
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include "../simhost.h"
#include "fecsim_v6.h"

static dma_addr_t dma_addr_of(const void *p, size_t size, const void *site)
{
	u64 pa = simhost_dma_pa(p, size, site);
	if (pa == ~0ULL)
		simhost_stop("%p is not DMA-able memory", p);
	return (dma_addr_t)pa;
}

dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir)
{
	dma_addr_t a = dma_addr_of(ptr, size, __builtin_return_address(0));
	(void)dev;
	simhost_dma(SIMHOST_DMA_MAP, a, size, dir, __builtin_return_address(0));
	return a;
}

void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_UNMAP, addr, size, dir, __builtin_return_address(0));
}

void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_SYNC_CPU, addr, size, dir, __builtin_return_address(0));
}

void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_SYNC_DEVICE, addr, size, dir, __builtin_return_address(0));
}

/* The page at its CPU view: a page pool's long-lived mapping. */
dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page, size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	const void *site = __builtin_return_address(0);
	dma_addr_t a = dma_addr_of((char *)page->virt + offset, size, site);
	(void)dev;
	simhost_dma(SIMHOST_DMA_MAP | (attrs & DMA_ATTR_SKIP_CPU_SYNC ? SIMHOST_DMA_ATTR_SKIP_CPU_SYNC : 0), a, size,
		    dir, site);
	return a;
}

void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir,
			  unsigned long attrs)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_UNMAP | (attrs & DMA_ATTR_SKIP_CPU_SYNC ? SIMHOST_DMA_ATTR_SKIP_CPU_SYNC : 0), addr,
		    size, dir, __builtin_return_address(0));
}

void dma_sync_single_range_for_cpu(struct device *dev, dma_addr_t addr, unsigned long offset, size_t size,
				   enum dma_data_direction dir)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_SYNC_CPU, addr + offset, size, dir, __builtin_return_address(0));
}

void dma_sync_single_range_for_device(struct device *dev, dma_addr_t addr, unsigned long offset, size_t size,
				      enum dma_data_direction dir)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_SYNC_DEVICE, addr + offset, size, dir, __builtin_return_address(0));
}

int dma_mapping_error(struct device *dev, dma_addr_t addr)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_MAPPING_ERROR, addr, 0, 0, __builtin_return_address(0));
	return addr == DMA_MAPPING_ERROR;
}

static inline __attribute__((__always_inline__)) void *coherent_alloc(size_t size, dma_addr_t *handle,
								  const void *site)
{
	void *p = simhost_kalloc(ALIGN(size, PAGE_SIZE), PAGE_SIZE, SIMHOST_MEM_COHERENT, site);
	if (!p)
		return NULL;
	*handle = dma_addr_of(p, size, site);
	simhost_dma_coherent_alloc(*handle, p, size, site);
	return p;
}

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp)
{
	(void)dev;
	(void)gfp;
	return coherent_alloc(size, handle, __builtin_return_address(0));
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu, dma_addr_t handle)
{
	(void)dev;
	simhost_dma_coherent_free(handle, cpu, size, __builtin_return_address(0));
}

__attribute__((__noinline__)) void *dmam_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle,
							 gfp_t gfp)
{
	(void)dev;
	(void)gfp;
	return coherent_alloc(size, handle, __builtin_return_address(0));
}

/* On ARMv7 dma_alloc_noncoherent is cached memory maintained by the
 * dma_sync_* calls the driver makes: a streaming mapping held for the
 * buffer's life. */
void *dma_alloc_noncoherent(struct device *dev, size_t size, dma_addr_t *handle, enum dma_data_direction dir,
			    gfp_t gfp)
{
	void *p = simhost_kalloc(ALIGN(size, L1_CACHE_BYTES), L1_CACHE_BYTES, SIMHOST_MEM_KMALLOC,
				 __builtin_return_address(0));
	(void)dev;
	(void)gfp;
	if (!p)
		return NULL;
	*handle = dma_addr_of(p, size, __builtin_return_address(0));
	simhost_dma(SIMHOST_DMA_MAP, *handle, size, dir, __builtin_return_address(0));
	return p;
}

void dma_free_noncoherent(struct device *dev, size_t size, void *cpu, dma_addr_t handle,
			  enum dma_data_direction dir)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_UNMAP, handle, size, dir, __builtin_return_address(0));
	simhost_kfree(cpu, SIMHOST_MEM_KMALLOC, __builtin_return_address(0));
}

int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	dev->coherent_dma_mask = mask;
	return 0;
}

/* ------------------------------------------------------------ interrupts */

/* The board model wires one line to the core: the ENET's (int0). A handler
 * for another line (the PPS output) is kept and never runs. */
static unsigned int g_wired_irq;
static unsigned int g_disabled;

void shim_irq_wire(unsigned int irq) { g_wired_irq = irq; }

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name, void *dev_id)
{
	(void)flags;
	(void)name;
	if (irq != g_wired_irq)
		return 0;
	return simhost_request_irq(irq, handler, dev_id);
}

int devm_request_irq(struct device *dev, unsigned int irq, irq_handler_t handler, unsigned long flags,
		     const char *name, void *dev_id)
{
	(void)dev;
	return request_irq(irq, handler, flags, name, dev_id);
}

const void *free_irq(unsigned int irq, void *dev_id)
{
	if (irq == g_wired_irq)
		simhost_free_irq(irq, dev_id);
	return NULL;
}

/* disable_irq/enable_irq nest as in the kernel; the line stays wired (the
 * driver masks the MAC's interrupts itself around these calls). */
void disable_irq(unsigned int irq) { (void)irq; g_disabled++; }
void disable_irq_nosync(unsigned int irq) { (void)irq; g_disabled++; }
void enable_irq(unsigned int irq)
{
	(void)irq;
	if (!g_disabled)
		simhost_stop("enable_irq(%u) without a disable_irq", irq);
	g_disabled--;
}
