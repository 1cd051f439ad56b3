/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's everyday macros: sizes, rounding, min/max, container_of. */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/limits.h>
#include <linux/bits.h>
#include <asm/page.h>
#include <asm/cache.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define container_of_const container_of
#define min(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a < __b ? __a : __b; })
#define max(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); __a > __b ? __a : __b; })
#define min3(a, b, c) min(min(a, b), c)
#define min_t(t, a, b) ({ t __a = (a); t __b = (b); __a < __b ? __a : __b; })
#define max_t(t, a, b) ({ t __a = (a); t __b = (b); __a > __b ? __a : __b; })
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define swap(a, b) do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define DIV_ROUND_CLOSEST(x, d) (((x) + ((d) / 2)) / (d))
#define __ALIGN_MASK(x, m) (((x) + (m)) & ~(m))
#define ALIGN(x, a) __ALIGN_MASK(x, (__typeof__(x))(a) - 1)
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define PTR_ALIGN(p, a) ((__typeof__(p))ALIGN((unsigned long)(p), (a)))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define round_up(x, y) ((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y) ((x) & ~((__typeof__(x))((y) - 1)))
#define roundup(x, y) ((((x) + ((y) - 1)) / (y)) * (y))
#define lower_32_bits(n) ((u32)((n) & 0xffffffff))
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))
#define abs(x) ({ __typeof__(x) __x = (x); __x < 0 ? -__x : __x; })
#define do_div(n, base) ({ u32 __b = (base); u32 __r = (u32)((n) % __b); (n) = (n) / __b; __r; })
#define cpu_relax() barrier()
#define might_sleep() do { } while (0)
#define typecheck(type, x) ({ type __d; __typeof__(x) __d2; (void)(&__d == &__d2); 1; })
#define PTR_IF(cond, ptr) ((cond) ? (ptr) : NULL)
#define u64_to_user_ptr(x) ((void __user *)(uintptr_t)(x))
#define in_interrupt() 0
#define is_power_of_2(n) ((n) != 0 && (((n) & ((n) - 1)) == 0))
#define num_online_cpus() 4U
#define nr_cpu_ids 4U
#define smp_processor_id() simhost_cpu()
int simhost_cpu(void);
static inline u64 div_u64(u64 n, u32 d) { return n / d; }
static inline s64 div_s64(s64 n, s32 d) { return n / d; }
static inline u64 div64_u64(u64 n, u64 d) { return n / d; }
static inline u64 div_u64_rem(u64 n, u32 d, u32 *r) { *r = n % d; return n / d; }
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}
int sprintf(char *buf, const char *fmt, ...) __printf(2, 3);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int kstrtoint(const char *s, unsigned int base, int *res);
#endif
