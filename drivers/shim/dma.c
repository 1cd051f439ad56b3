// SPDX-License-Identifier: GPL-2.0
/*
 * DMA mapping API. The simulator performs (or, on a coherent profile, only
 * counts) the cache maintenance and checks the ownership rules; the call
 * site (the driver's return address) names the culprit in reports.
 */
#include <linux/kernel.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>

/* Memory that is not simulated kernel memory is reported by simhost_dma_pa
 * and maps to the error address; ~0 never comes back. */
static dma_addr_t shim_dma_addr(const void *p, size_t size, const void *site)
{
	uint64_t pa = simhost_dma_pa(p, size, site);

	if (pa == ~0ULL)
		simhost_stop("%p is not DMA-able memory", p);
	return (dma_addr_t)pa;
}

dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir)
{
	dma_addr_t a = shim_dma_addr(ptr, size, __builtin_return_address(0));

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
	simhost_dma(SIMHOST_DMA_MAPPING_ERROR, addr, 0, 0, __builtin_return_address(0));
	return addr == DMA_MAPPING_ERROR;
}

/* site: the caller of dma_alloc_coherent or dmam_alloc_coherent (which has
 * this inlined, as it always had). */
static inline __attribute__((__always_inline__)) void *coherent_alloc(size_t size, dma_addr_t *handle,
								  const void *site)
{
	void *p = simhost_kalloc(ALIGN(size, PAGE_SIZE), PAGE_SIZE, SIMHOST_MEM_COHERENT, site);

	if (!p)
		return NULL;
	*handle = shim_dma_addr(p, size, site);
	simhost_dma_coherent_alloc(*handle, p, size, site);
	return p;
}

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp)
{
	(void)dev;
	(void)gfp;
	return coherent_alloc(size, handle, __builtin_return_address(0));
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr, dma_addr_t handle)
{
	(void)dev;
	simhost_dma_coherent_free(handle, cpu_addr, size, __builtin_return_address(0));
}

__attribute__((__no_icf__)) void *dmam_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp)
{
	(void)dev;
	(void)gfp;
	return coherent_alloc(size, handle, __builtin_return_address(0));
}

int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	dev->dma_mask = mask;
	return 0;
}
