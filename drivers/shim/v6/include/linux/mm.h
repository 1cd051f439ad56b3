/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pages of simulated memory. struct page is the shim's descriptor of a
 * 4-KiB page (its CPU view and physical address); page_address() gives the
 * view, virt_to_page() finds the descriptor of a page-pool page.
 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/gfp.h>
struct page {
	void *virt;		/* CPU view of the page */
	u64 pa;			/* its physical address */
	dma_addr_t dma_addr;	/* page pool: mapping */
	void *pp;		/* page pool owning it */
	unsigned long pp_magic;	/* PP_SIGNATURE while a pool's */
	long pp_ref_count;	/* 6.12: the pool users' references (1 when one owner) */
	atomic_t refcount;	/* page_ref_count */
};
void *page_address(const struct page *page);
struct page *virt_to_page(const void *addr);
#define virt_to_head_page virt_to_page
static inline int dev_to_node(struct device *dev) { (void)dev; return -1; }
#define NUMA_NO_NODE (-1)
struct page *alloc_pages(gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
#define alloc_page(gfp) alloc_pages(gfp, 0)
#define __free_page(p) __free_pages(p, 0)
#endif
