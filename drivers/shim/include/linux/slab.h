/* SPDX-License-Identifier: GPL-2.0 */
/* kmalloc and friends: cached simulated memory, accesses cost what they cost. */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H
#include <linux/types.h>
#define GFP_KERNEL 0x1u
#define GFP_ATOMIC 0x2u
#define GFP_DMA 0x4u
#define __GFP_NOWARN 0x8u
#define __GFP_ZERO 0x10u
void *kmalloc(size_t size, gfp_t gfp);
void *kzalloc(size_t size, gfp_t gfp);
void *kcalloc(size_t n, size_t size, gfp_t gfp);
void *kmalloc_array(size_t n, size_t size, gfp_t gfp);
void kfree(const void *p);
#endif
