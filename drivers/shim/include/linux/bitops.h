/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BITOPS_H
#define _LINUX_BITOPS_H
#include <linux/kernel.h>
#define BITS_PER_LONG (8 * (int)sizeof(long))
static inline void set_bit(int nr, unsigned long *a) { a[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG); }
static inline void clear_bit(int nr, unsigned long *a) { a[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG)); }
static inline int test_bit(int nr, const unsigned long *a) { return (a[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1; }
static inline int test_and_set_bit(int nr, unsigned long *a) { int o = test_bit(nr, a); set_bit(nr, a); return o; }
static inline int test_and_clear_bit(int nr, unsigned long *a) { int o = test_bit(nr, a); clear_bit(nr, a); return o; }
#define __set_bit set_bit
#define __clear_bit clear_bit
static inline int ffs(int x) { return __builtin_ffs(x); }
static inline unsigned long __ffs(unsigned long x) { return __builtin_ctzl(x); }
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int ilog2(unsigned long x) { return (int)(8 * sizeof(long) - 1 - __builtin_clzl(x)); }
static inline int is_power_of_2(unsigned long x) { return x && !(x & (x - 1)); }
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) < (size); (bit)++) if (test_bit((bit), (addr)))
#endif
