/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Streaming and coherent DMA (v5.4 semantics). On the non-coherent profile
 * map/unmap/sync perform the ARMv7 + PL310 cache maintenance (docs/sources.md §4.4);
 * on a coherent profile they are counted and free. dma_alloc_coherent
 * returns uncached memory.
 */
#ifndef _LINUX_DMA_MAPPING_H
#define _LINUX_DMA_MAPPING_H
#include <linux/types.h>
#include <linux/device.h>

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))
#define DMA_MAPPING_ERROR (~(dma_addr_t)0)

dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir);
void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
int dma_mapping_error(struct device *dev, dma_addr_t addr);
void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp);
void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr, dma_addr_t handle);
void *dmam_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp);
int dma_set_mask_and_coherent(struct device *dev, u64 mask);
#endif
