/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page pools: pages of simulated memory, DMA-mapped once by the pool
 * (PP_FLAG_DMA_MAP) and synced for the device when recycled
 * (PP_FLAG_DMA_SYNC_DEV), as net/core/page_pool.c does (drivers/shim/v6/page_pool.c).
 */
#ifndef _NET_PAGE_POOL_HELPERS_H
#define _NET_PAGE_POOL_HELPERS_H
#include <linux/mm.h>
#include <linux/dma-mapping.h>
#define PP_FLAG_DMA_MAP (1U << 0)
#define PP_FLAG_DMA_SYNC_DEV (1U << 1)
struct page_pool_params {
	unsigned int order;
	unsigned int pool_size;
	int nid;
	struct device *dev;
	struct napi_struct *napi;
	enum dma_data_direction dma_dir;
	unsigned int max_len;
	unsigned int offset;
	unsigned int flags;
	struct net_device *netdev;
};
struct page_pool;
struct page_pool_stats;
struct page_pool *page_pool_create(const struct page_pool_params *params);
void page_pool_destroy(struct page_pool *pool);
struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp);
static inline struct page *page_pool_dev_alloc_pages(struct page_pool *pool)
{
	return page_pool_alloc_pages(pool, GFP_ATOMIC | __GFP_NOWARN);
}
static inline dma_addr_t page_pool_get_dma_addr(const struct page *page) { return page->dma_addr; }
void page_pool_put_unrefed_page(struct page_pool *pool, struct page *page, unsigned int dma_sync_size,
				bool allow_direct);
/* The caller's reference (6.12: one of the page's pp_ref_count) goes back;
 * the last one recycles the page: drivers/shim/v6/page_pool.c. */
void page_pool_put_page(struct page_pool *pool, struct page *page, unsigned int dma_sync_size, bool allow_direct);
static inline void page_pool_put_full_page(struct page_pool *pool, struct page *page, bool allow_direct)
{
	page_pool_put_page(pool, page, -1, allow_direct);
}
static inline void page_pool_recycle_direct(struct page_pool *pool, struct page *page)
{
	page_pool_put_full_page(pool, page, true);
}
/* An skb's head page back to its pool (skb_pp_recycle): false if the page
 * is no pool's. */
bool shim_pp_put_page(struct page *page);
/* CONFIG_PAGE_POOL_STATS is off (as in imx_v6_v7_defconfig): no ethtool -S page-pool rows. */
static inline int page_pool_ethtool_stats_get_count(void) { return 0; }
static inline u8 *page_pool_ethtool_stats_get_strings(u8 *data) { return data; }
#endif
