/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel integer types at the shim's 6.x API level. The driver is built
 * with -nostdinc: nothing comes from the host's headers. Sizes are those
 * of 32-bit ARM where they change behaviour (dma_addr_t, phys_addr_t).
 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H
#include <linux/compiler.h>
#include <linux/stddef.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s8 __s8;
typedef s16 __s16;
typedef s32 __s32;
typedef s64 __s64;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;
typedef u16 __sum16;
typedef u32 __wsum;
typedef u32 dma_addr_t;
typedef u32 phys_addr_t;
typedef u32 resource_size_t;
typedef unsigned int gfp_t;
typedef unsigned int fmode_t;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef long ssize_t;
typedef long long loff_t;
typedef unsigned long uintptr_t;
typedef long intptr_t;
typedef u64 ktime_t;
typedef _Bool bool;
typedef int pid_t;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char u_char;
typedef unsigned long ulong;
typedef u8 uint8_t;
typedef u16 uint16_t;
typedef u32 uint32_t;
typedef u64 uint64_t;
typedef s8 int8_t;
typedef s16 int16_t;
typedef s32 int32_t;
typedef s64 int64_t;

enum { false = 0, true = 1 };

typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
typedef struct { long counter; } atomic_long_t;

struct list_head {
	struct list_head *next, *prev;
};
struct hlist_head {
	struct hlist_node *first;
};
struct hlist_node {
	struct hlist_node *next, **pprev;
};
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

#define DECLARE_BITMAP(name, bits) unsigned long name[((bits) + 8 * sizeof(long) - 1) / (8 * sizeof(long))]
#endif
