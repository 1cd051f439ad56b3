/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BITOPS_H
#define _LINUX_BITOPS_H
#include <linux/types.h>
#include <linux/bits.h>
#include <linux/atomic.h>
#include <asm/barrier.h>
static inline void set_bit(long nr, volatile unsigned long *a) { a[BIT_WORD(nr)] |= BIT_MASK(nr); }
static inline void clear_bit(long nr, volatile unsigned long *a) { a[BIT_WORD(nr)] &= ~BIT_MASK(nr); }
static inline int test_bit(long nr, const volatile unsigned long *a) { return (a[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1; }
static inline int test_and_set_bit(long nr, volatile unsigned long *a)
{
	int old = test_bit(nr, a);
	set_bit(nr, a);
	return old;
}
static inline int test_and_clear_bit(long nr, volatile unsigned long *a)
{
	int old = test_bit(nr, a);
	clear_bit(nr, a);
	return old;
}
#define __set_bit set_bit
#define __clear_bit clear_bit
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline unsigned long __fls(unsigned long x) { return BITS_PER_LONG - 1 - __builtin_clzl(x); }
static inline unsigned long __ffs(unsigned long x) { return __builtin_ctzl(x); }
static inline int ffs(int x) { return __builtin_ffs(x); }
static inline unsigned int hweight32(unsigned int w) { return __builtin_popcount(w); }
static inline unsigned long hweight_long(unsigned long w) { return __builtin_popcountl(w); }
static inline int ilog2(unsigned long v) { return (int)__fls(v); }
#define order_base_2(n) ((n) > 1 ? ilog2((n) - 1) + 1 : 0)
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) < (size); (bit)++) if (test_bit((bit), (addr)))
static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		dst[i] = 0;
}
#endif
