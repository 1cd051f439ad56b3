/* SPDX-License-Identifier: GPL-2.0 */
/* The streaming and coherent DMA API, on the ARM maintenance model (drivers/khost/arm_dma). */
#ifndef _LINUX_DMA_MAPPING_H
#define _LINUX_DMA_MAPPING_H
#include <linux/types.h>
#include <linux/device.h>
#include <linux/mm.h>
enum dma_data_direction { DMA_BIDIRECTIONAL = 0, DMA_TO_DEVICE = 1, DMA_FROM_DEVICE = 2, DMA_NONE = 3 };
#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))
#define DMA_MAPPING_ERROR ((dma_addr_t)~0U)
dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size, enum dma_data_direction dir);
void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir);
int dma_mapping_error(struct device *dev, dma_addr_t addr);
void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp);
void *dmam_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp);
void dma_free_coherent(struct device *dev, size_t size, void *cpu, dma_addr_t handle);
void *dma_alloc_noncoherent(struct device *dev, size_t size, dma_addr_t *handle, enum dma_data_direction dir,
			    gfp_t gfp);
void dma_free_noncoherent(struct device *dev, size_t size, void *cpu, dma_addr_t handle,
			  enum dma_data_direction dir);
int dma_set_mask_and_coherent(struct device *dev, u64 mask);
#define dma_unmap_page(d, a, s, dir) dma_unmap_single(d, a, s, dir)
/* Attributes: only DMA_ATTR_SKIP_CPU_SYNC changes anything (no cache maintenance). */
#define DMA_ATTR_WEAK_ORDERING (1UL << 1)
#define DMA_ATTR_SKIP_CPU_SYNC (1UL << 5)
dma_addr_t dma_map_page_attrs(struct device *dev, struct page *page, size_t offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs);
void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir,
			  unsigned long attrs);
void dma_sync_single_range_for_cpu(struct device *dev, dma_addr_t addr, unsigned long offset, size_t size,
				   enum dma_data_direction dir);
void dma_sync_single_range_for_device(struct device *dev, dma_addr_t addr, unsigned long offset, size_t size,
				      enum dma_data_direction dir);
#endif
