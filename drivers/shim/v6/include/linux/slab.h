/* SPDX-License-Identifier: GPL-2.0 */
/* kmalloc and friends: checked allocations in simulated memory. */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H
#include <linux/types.h>
#include <linux/gfp.h>
void *kmalloc(size_t size, gfp_t flags);
void kfree(const void *p);
static inline void *kzalloc(size_t size, gfp_t flags) { return kmalloc(size, flags | __GFP_ZERO); }
static inline void *kcalloc(size_t n, size_t size, gfp_t flags) { return kzalloc(n * size, flags); }
static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags) { return kmalloc(n * size, flags); }
#endif
