/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel integer types (32-bit ARM: dma_addr_t and phys_addr_t are 32-bit). */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u16 __le16;
typedef u32 __le32;
typedef u16 __be16;
typedef u32 __be32;
typedef u16 __sum16;
typedef u32 dma_addr_t;
typedef u32 phys_addr_t;
typedef u32 resource_size_t;
typedef unsigned int gfp_t;
typedef long ssize_t;
typedef int irqreturn_t;

#define __iomem
#define __force
#define __user
#define __must_check
#define __maybe_unused __attribute__((unused))
#define __always_unused __attribute__((unused))
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __init
#define __exit
#define __read_mostly

struct list_head {
	struct list_head *next, *prev;
};
#endif
