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

/*
 * site: the caller of the kmalloc-family function, for the memory checks.
 * kmalloc has the body inlined; the other entry points call kmalloc_at, so
 * each path runs the functions and blocks it always ran (their cost is
 * charged per function and per block).
 */
static inline __attribute__((__always_inline__)) void *kmalloc_body(size_t size, gfp_t gfp, const void *site)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_ALLOC);
	void *p;

	simhost_charge(SHIM_KMALLOC_CYCLES, SIMHOST_CAT_ALLOC);
	p = simhost_kalloc(size ? size : 1, size >= 64 ? 64 : 8, SIMHOST_MEM_KMALLOC, site);
	if (p && (gfp & __GFP_ZERO))
		memset(p, 0, size);
	simhost_cat_leave(prev);
	return p;
}

static __attribute__((__noinline__, __noclone__)) void *kmalloc_at(size_t size, gfp_t gfp, const void *site)
{
	return kmalloc_body(size, gfp, site);
}

void *kmalloc(size_t size, gfp_t gfp)
{
	return kmalloc_body(size, gfp, __builtin_return_address(0));
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc_at(size, gfp | __GFP_ZERO, __builtin_return_address(0));
}

void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc_at(n * size, gfp | __GFP_ZERO, __builtin_return_address(0));
}

void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc_at(n * size, gfp, __builtin_return_address(0));
}

void kfree(const void *p)
{
	if (!p)
		return;
	simhost_charge(SHIM_KMALLOC_CYCLES / 2, SIMHOST_CAT_ALLOC);
	simhost_kfree(p, SIMHOST_MEM_KMALLOC, __builtin_return_address(0));
}

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	(void)dev;
	return kmalloc_at(size, gfp | __GFP_ZERO, __builtin_return_address(0));
}
