// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/page_pool.c: pages of simulated memory and page pools at
 * the shim's 6.x level, with the semantics of net/core/page_pool.c of the
 * tree's level (6.1 or 6.12; FECSIM_API_LEVEL), written from its behaviour:
 *
 *  - a pool has an alloc cache (PP_ALLOC_CACHE_SIZE 128 pages, touched only
 *    in the pool's NAPI context) and a ptr_ring of pool_size entries
 *    (1024 if 0, at most 16384: page_pool_init);
 *  - page_pool_alloc_pages takes from the cache; an empty cache is refilled
 *    from the ring, up to PP_ALLOC_CACHE_REFILL (64) pages, without the
 *    ring's lock (page_pool_refill_alloc_cache: __ptr_ring_consume; the
 *    producers lock); an empty ring means the page allocator:
 *    a bulk of 64 order-0 pages, each mapped with DMA_ATTR_SKIP_CPU_SYNC
 *    (PP_FLAG_DMA_MAP) and synced for the device over max_len bytes from
 *    offset (PP_FLAG_DMA_SYNC_DEV) (__page_pool_alloc_pages_slow,
 *    page_pool_dma_map);
 *  - a page given back (__page_pool_put_page) is recyclable when its page
 *    refcount is 1: it is synced for the device over min(dma_sync_size,
 *    max_len) bytes from offset, then goes to the cache when the caller may
 *    recycle directly and the cache has room, else to the ring; a full ring
 *    (or a page with more references) returns the page to the page
 *    allocator, unmapped (page_pool_return_page);
 *  - who may recycle directly: 6.1, a caller that says so (allow_direct)
 *    while in softirq; 6.12, also anyone running in softirq on the CPU of
 *    the pool's NAPI instance (page_pool_napi_local: pool->p.napi's
 *    list_owner, or the pool's cpuid), and the page's pp_ref_count (6.12)
 *    must drop to zero first (page_pool_put_netmem);
 *  - page_pool_destroy empties cache and ring; pages still in flight keep
 *    the pool until the last comes back (the kernel's deferred release).
 * Statistics (struct page_pool_stats, CONFIG_PAGE_POOL_STATS) are kept and
 * shown in stats.json (fecsim_v6_net.pp_*); the driver's ethtool -S has no
 * page-pool rows (the option is off in the i.MX defconfig).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/page_pool/helpers.h>
#include "../simhost.h"
#include "fecsim_v6.h"

#define PP_ALLOC_CACHE_SIZE 128
#define PP_ALLOC_CACHE_REFILL 64
#define PP_SIGNATURE 0x40UL	/* POISON_POINTER_DELTA + 0x40: pp_magic of a pool's page */
#define PP_FLAG_ALL (PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV)

/* ------------------------------------------------------------ pages */

/* Page descriptors by page address: hashed on (pa >> PAGE_SHIFT) % size. */
#define PAGE_TABLE_SIZE 4096
struct page_link {
	struct page page;
	struct page_link *next;
};
static struct page_link *g_page_hash[PAGE_TABLE_SIZE];

static unsigned int page_slot(u64 pa) { return (unsigned int)(pa >> PAGE_SHIFT) % PAGE_TABLE_SIZE; }

/* page_address and virt_to_page are address arithmetic in the kernel
 * (lowmem: __va(PFN_PHYS(page_to_pfn(page))), mem_map[pfn]): they touch no
 * memory. Here they read the shim's descriptors, so they are not
 * instrumented: the simulated core pays nothing for them, as on the board. */
#define SHIM_ARITHMETIC __attribute__((__no_sanitize_thread__, __no_sanitize_coverage__))

SHIM_ARITHMETIC void *page_address(const struct page *page) { return page->virt; }

SHIM_ARITHMETIC struct page *virt_to_page(const void *addr)
{
	u64 pa = simhost_pa(addr) & ~(u64)(PAGE_SIZE - 1);
	for (struct page_link *l = g_page_hash[page_slot(pa)]; l; l = l->next)
		if (l->page.pa == pa)
			return &l->page;
	simhost_stop("virt_to_page(%p): not a page the shim handed out", addr);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page_link *l;
	void *v;
	if (order)
		simhost_stop_on_call("alloc_pages (order > 0: the shim hands out single pages)",
				     __builtin_return_address(0));
	v = simhost_kalloc(PAGE_SIZE, PAGE_SIZE, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
	if (!v)
		return NULL;
	l = kzalloc(sizeof(*l), GFP_ATOMIC);
	if (!l) {
		simhost_kfree(v, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
		return NULL;
	}
	if (gfp & __GFP_ZERO)
		memset(v, 0, PAGE_SIZE);
	l->page.virt = v;
	l->page.pa = simhost_pa(v);
	l->next = g_page_hash[page_slot(l->page.pa)];
	g_page_hash[page_slot(l->page.pa)] = l;
	atomic_set(&l->page.refcount, 1);
	return &l->page;
}

void __free_pages(struct page *page, unsigned int order)
{
	struct page_link **p = &g_page_hash[page_slot(page->pa)];
	(void)order;
	for (; *p; p = &(*p)->next)
		if (&(*p)->page == page) {
			struct page_link *l = *p;
			*p = l->next;
			simhost_kfree(page->virt, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
			kfree(l);
			return;
		}
	simhost_stop("__free_pages of a page the shim did not hand out");
}

/* put_page: the last reference frees the page. */
static void put_page(struct page *page)
{
	if (atomic_dec_and_test(&page->refcount))
		__free_pages(page, 0);
}

/* ------------------------------------------------------------ page pools */

struct page_pool {
	struct page_pool_params p;
	bool dma_map, dma_sync;
	bool destroyed;			/* page_pool_destroy called, pages still in flight */
	int cpuid;			/* page_pool_create_percpu's CPU; -1 */
	struct {
		unsigned int count;
		struct page *cache[PP_ALLOC_CACHE_SIZE];
	} alloc;
	struct {			/* the ptr_ring: size slots, NULL when free */
		struct page **queue;
		unsigned int size;
		unsigned int producer;	/* next slot to fill (under lock) */
		unsigned int consumer;	/* next slot to take (the pool's NAPI context) */
		spinlock_t lock;	/* the producers' lock */
	} ring;
	u32 hold_cnt, release_cnt;	/* pages taken from / given back to the page allocator */
};

static struct fecsim_v6_net_stats *stats(void) { return &fecsim_v6_net; }

struct page_pool *page_pool_create(const struct page_pool_params *params)
{
	struct page_pool *pool;
	unsigned int qsize = 1024;
	if (params->order)
		simhost_stop_on_call("page_pool_create (order > 0: the shim's pages are order 0)",
				     __builtin_return_address(0));
	if (params->flags & ~PP_FLAG_ALL)
		return ERR_PTR(-EINVAL);
	if ((params->flags & PP_FLAG_DMA_MAP) && params->dma_dir != DMA_FROM_DEVICE &&
	    params->dma_dir != DMA_BIDIRECTIONAL)
		return ERR_PTR(-EINVAL);
	if ((params->flags & PP_FLAG_DMA_SYNC_DEV) && (!(params->flags & PP_FLAG_DMA_MAP) || !params->max_len))
		return ERR_PTR(-EINVAL);
	if (params->pool_size)
		qsize = min(params->pool_size, 16384u);
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	pool->ring.queue = kcalloc(qsize, sizeof(*pool->ring.queue), GFP_KERNEL);
	if (!pool->ring.queue) {
		kfree(pool);
		return ERR_PTR(-ENOMEM);
	}
	pool->ring.size = qsize;
	spin_lock_init(&pool->ring.lock);
	pool->p = *params;
	pool->dma_map = params->flags & PP_FLAG_DMA_MAP;
	pool->dma_sync = params->flags & PP_FLAG_DMA_SYNC_DEV;
	pool->cpuid = -1;
	stats()->pp_pools++;
	return pool;
}

/* The device's part of the page, [offset, offset + min(size, max_len)),
 * handed to the device (page_pool_dma_sync_for_device). */
static void pool_sync_for_device(struct page_pool *pool, struct page *page, unsigned int size)
{
	if (!pool->dma_sync)
		return;
	dma_sync_single_range_for_device(pool->p.dev, page->dma_addr, pool->p.offset, min(size, pool->p.max_len),
					 pool->p.dma_dir);
}

static void pool_free(struct page_pool *pool)
{
	kfree(pool->ring.queue);
	kfree(pool);
}

/* The page leaves the pool: unmapped, its pool info cleared, its reference
 * dropped (page_pool_return_page). */
static void pool_return_page(struct page_pool *pool, struct page *page)
{
	if (pool->dma_map)
		dma_unmap_page_attrs(pool->p.dev, page->dma_addr, PAGE_SIZE, pool->p.dma_dir,
				     DMA_ATTR_SKIP_CPU_SYNC);
	page->dma_addr = 0;
	pool->release_cnt++;
	page->pp = NULL;
	page->pp_magic = 0;
	put_page(page);
	stats()->pp_pages_released++;
	if (pool->destroyed && pool->release_cnt == pool->hold_cnt)
		pool_free(pool);
}

/* The ring as the kernel's ptr_ring keeps it: a slot is full while it
 * holds a page, so producer and consumer share no counter. Producers take
 * the lock (page_pool_recycle_in_ring); the pool's NAPI context is the only
 * consumer and takes pages without it (page_pool_refill_alloc_cache:
 * __ptr_ring_consume); page_pool_destroy's emptying locks
 * (ptr_ring_consume_bh). The consumer frees each slot as it takes it (the
 * kernel frees them in batches). */
static bool ring_produce(struct page_pool *pool, struct page *page)
{
	bool ok;
	spin_lock(&pool->ring.lock);
	ok = !pool->ring.queue[pool->ring.producer];
	if (ok) {
		pool->ring.queue[pool->ring.producer] = page;
		if (++pool->ring.producer >= pool->ring.size)
			pool->ring.producer = 0;
	}
	spin_unlock(&pool->ring.lock);
	return ok;
}

static bool ring_empty(const struct page_pool *pool)
{
	return !READ_ONCE(pool->ring.queue[pool->ring.consumer]);
}

static struct page *ring_consume_unlocked(struct page_pool *pool)
{
	struct page *page = pool->ring.queue[pool->ring.consumer];
	if (page) {
		pool->ring.queue[pool->ring.consumer] = NULL;
		if (++pool->ring.consumer >= pool->ring.size)
			pool->ring.consumer = 0;
	}
	return page;
}

static struct page *ring_consume(struct page_pool *pool)
{
	struct page *page;
	spin_lock(&pool->ring.lock);
	page = ring_consume_unlocked(pool);
	spin_unlock(&pool->ring.lock);
	return page;
}

/* Up to PP_ALLOC_CACHE_REFILL pages from the ring into the cache; the last
 * is returned (page_pool_refill_alloc_cache). One NUMA node: none waived. */
static struct page *pool_refill_alloc_cache(struct page_pool *pool)
{
	struct page *page;
	if (ring_empty(pool)) {
		stats()->pp_alloc_empty++;
		return NULL;
	}
	do {
		page = ring_consume_unlocked(pool);
		if (!page)
			break;
		pool->alloc.cache[pool->alloc.count++] = page;
	} while (pool->alloc.count < PP_ALLOC_CACHE_REFILL);
	if (!pool->alloc.count)
		return NULL;
	stats()->pp_alloc_refill++;
	return pool->alloc.cache[--pool->alloc.count];
}

/* Mapped once for its life in the pool, without CPU maintenance; its
 * device part synced for the device (page_pool_dma_map). */
static bool pool_dma_map(struct page_pool *pool, struct page *page)
{
	dma_addr_t dma = dma_map_page_attrs(pool->p.dev, page, 0, PAGE_SIZE, pool->p.dma_dir, DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(pool->p.dev, dma))
		return false;
	page->dma_addr = dma;
	pool_sync_for_device(pool, page, pool->p.max_len);
	return true;
}

/* An empty cache and ring: a bulk of order-0 pages from the page allocator
 * (__page_pool_alloc_pages_slow). */
static struct page *pool_alloc_pages_slow(struct page_pool *pool, gfp_t gfp)
{
	for (int i = 0; i < PP_ALLOC_CACHE_REFILL; i++) {
		struct page *page = alloc_pages(gfp, 0);
		if (!page)
			break;
		if (pool->dma_map && !pool_dma_map(pool, page)) {
			put_page(page);
			continue;
		}
		page->pp = pool;
		page->pp_magic = PP_SIGNATURE;
		page->pp_ref_count = 1;	/* page_pool_fragment_netmem(netmem, 1) (6.12) */
		pool->alloc.cache[pool->alloc.count++] = page;
		pool->hold_cnt++;
	}
	if (!pool->alloc.count) {
		stats()->pp_alloc_failed++;
		return NULL;
	}
	stats()->pp_alloc_slow++;
	return pool->alloc.cache[--pool->alloc.count];
}

struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp)
{
	struct page *page;
	if (pool->alloc.count) {
		stats()->pp_alloc_fast++;
		return pool->alloc.cache[--pool->alloc.count];
	}
	page = pool_refill_alloc_cache(pool);
	return page ? page : pool_alloc_pages_slow(pool, gfp);
}

/* 6.12's page_pool_napi_local: in softirq on the CPU that owns the pool's
 * NAPI instance (or the pool's own CPU). */
static bool pool_napi_local(const struct page_pool *pool)
{
	const struct napi_struct *napi;
	int cpu;
	if (!simhost_in_softirq())
		return false;
	cpu = simhost_cpu();
	if (pool->cpuid == cpu)
		return true;
	napi = pool->p.napi;
	return napi && napi->list_owner == cpu;
}

void page_pool_put_unrefed_page(struct page_pool *pool, struct page *page, unsigned int dma_sync_size,
				bool allow_direct)
{
	if (page->pp != pool)
		simhost_stop("page_pool_put_page of a page that is not this pool's (from %p)",
			     __builtin_return_address(0));
#if FECSIM_API_LEVEL >= 612
	if (!allow_direct)
		allow_direct = pool_napi_local(pool);
#else
	allow_direct = allow_direct && simhost_in_softirq();
#endif
	if (pool->destroyed) {
		/* The kernel puts it in the ring, whence the deferred release
		 * (page_pool_release_retry) returns it: the same end, at once. */
		pool_return_page(pool, page);
		return;
	}
	if (atomic_read(&page->refcount) != 1) {	/* someone else holds the page */
		stats()->pp_recycle_released_refcnt++;
		pool_return_page(pool, page);
		return;
	}
	pool_sync_for_device(pool, page, dma_sync_size);
	if (allow_direct) {
		if (pool->alloc.count < PP_ALLOC_CACHE_SIZE) {
			pool->alloc.cache[pool->alloc.count++] = page;
			stats()->pp_recycle_cached++;
			return;
		}
		stats()->pp_recycle_cache_full++;
	}
	if (ring_produce(pool, page)) {
		stats()->pp_recycle_ring++;
		return;
	}
	stats()->pp_recycle_ring_full++;
	pool_return_page(pool, page);
}

/* page_pool_put_page: at 6.12 the caller's reference is one of the page's
 * pp_ref_count (page_pool_unref_netmem: the last one leaves it at 1 for the
 * next user); at 6.1 without PP_FLAG_PAGE_FRAG every put is the last. */
void page_pool_put_page(struct page_pool *pool, struct page *page, unsigned int dma_sync_size, bool allow_direct)
{
#if FECSIM_API_LEVEL >= 612
	if (page->pp_ref_count != 1 && --page->pp_ref_count)
		return;
	page->pp_ref_count = 1;
#endif
	page_pool_put_unrefed_page(pool, page, dma_sync_size, allow_direct);
}

/* The skb's head page goes back to its pool: 6.12 napi_pp_put_page, 6.1
 * page_pool_return_skb_page (both with allow_direct false). */
bool shim_pp_put_page(struct page *page)
{
	if ((page->pp_magic & ~0x3UL) != PP_SIGNATURE)
		return false;
	page_pool_put_full_page(page->pp, page, false);
	return true;
}

void page_pool_destroy(struct page_pool *pool)
{
	struct page *page;
	if (!pool)
		return;
	while (pool->alloc.count)
		pool_return_page(pool, pool->alloc.cache[--pool->alloc.count]);
	while ((page = ring_consume(pool)))
		pool_return_page(pool, page);
	if (pool->release_cnt == pool->hold_cnt)
		pool_free(pool);
	else
		pool->destroyed = true;	/* freed when the last page in flight comes back */
}
