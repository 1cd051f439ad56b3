// SPDX-License-Identifier: GPL-2.0
/*
 * Slab allocation on simulated memory. The simulator's allocator hands out
 * cached memory with size-class free lists (most recently freed first, as
 * slab does); these wrappers add the allocator's CPU cost and kzalloc's
 * zeroing through the caches.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/device.h>

#define SHIM_KMALLOC_CYCLES 60	/* kmalloc/kfree fast path (assumption) */

void *kmalloc(size_t size, gfp_t gfp)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_ALLOC);
	void *p;

	simhost_charge(SHIM_KMALLOC_CYCLES, SIMHOST_CAT_ALLOC);
	p = simhost_alloc(size ? size : 1, size >= 64 ? 64 : 8, 0);
	if (p && (gfp & __GFP_ZERO))
		memset(p, 0, size);
	simhost_cat_leave(prev);
	return p;
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, gfp | __GFP_ZERO);
}

void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, gfp);
}

void kfree(const void *p)
{
	if (!p)
		return;
	simhost_charge(SHIM_KMALLOC_CYCLES / 2, SIMHOST_CAT_ALLOC);
	simhost_free((void *)p);
}

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	(void)dev;
	return kzalloc(size, gfp);
}
