// SPDX-License-Identifier: GPL-2.0
/*
 * DMA mapping API. The simulator performs (or, on a coherent profile, only
 * counts) the cache maintenance and checks the ownership rules; the call
 * site (the driver's return address) names the culprit in reports.
 */
#include <linux/kernel.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

static dma_addr_t shim_dma_addr(const void *p, const char *what)
{
	uint64_t pa = simhost_pa(p);

	if (pa == ~0ULL)
		simhost_stop("%s: %p is not DMA-able memory (not from kmalloc/skb/dma_alloc_coherent)", what, p);
	return (dma_addr_t)pa;
}

dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir)
{
	dma_addr_t a = shim_dma_addr(ptr, "dma_map_single");

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

void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir)
{
	(void)dev;
	simhost_dma(SIMHOST_DMA_SYNC_DEVICE, addr, size, dir, __builtin_return_address(0));
}

int dma_mapping_error(struct device *dev, dma_addr_t addr)
{
	(void)dev;
	return addr == DMA_MAPPING_ERROR;
}

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp)
{
	void *p = simhost_alloc(ALIGN(size, PAGE_SIZE), PAGE_SIZE, 1);

	(void)dev;
	(void)gfp;
	if (!p)
		return NULL;
	*handle = shim_dma_addr(p, "dma_alloc_coherent");
	return p;
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr, dma_addr_t handle)
{
	(void)dev;
	(void)size;
	(void)handle;
	simhost_free(cpu_addr);
}

void *dmam_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp)
{
	return dma_alloc_coherent(dev, size, handle, gfp);
}

int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	dev->dma_mask = mask;
	return 0;
}
