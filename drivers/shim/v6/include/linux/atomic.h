/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Atomics. Kernel code runs on one simulated core at a time and never
 * yields inside these (no simhost call), so plain loads and stores are
 * atomic here; they are instrumented (costed) like any other access.
 */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H
#include <linux/types.h>
#define atomic_read(v) READ_ONCE((v)->counter)
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))
#define atomic_add_return(i, v) ((v)->counter += (i))
#define atomic_sub_return(i, v) ((v)->counter -= (i))
#define atomic_inc_return(v) atomic_add_return(1, v)
#define atomic_dec_return(v) atomic_sub_return(1, v)
#define atomic_inc(v) ((void)atomic_inc_return(v))
#define atomic_dec(v) ((void)atomic_dec_return(v))
#define atomic_add(i, v) ((void)atomic_add_return(i, v))
#define atomic_dec_and_test(v) (atomic_dec_return(v) == 0)
#define xchg(p, v) ({ __typeof__(*(p)) __old = *(p); *(p) = (v); __old; })
#define cmpxchg(p, o, n) ({ __typeof__(*(p)) __old = *(p); if (__old == (o)) *(p) = (n); __old; })
#define smp_mb__before_atomic() barrier()
#define smp_mb__after_atomic() barrier()
#endif
