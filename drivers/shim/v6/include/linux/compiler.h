/* SPDX-License-Identifier: GPL-2.0 */
/* Compiler attributes and annotations the kernel's headers define. */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H
#define __iomem
#define __force
#define __user
#define __rcu
#define __percpu
#define __bitwise
#define __must_check __attribute__((warn_unused_result))
#define __maybe_unused __attribute__((unused))
#define __always_unused __attribute__((unused))
#define __used __attribute__((used))
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define __cold __attribute__((cold))
#define __noreturn __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __weak __attribute__((weak))
#define __init
#define __exit
#define __initdata
#define __initconst
#define __read_mostly
#define __cacheline_aligned __attribute__((aligned(32)))
#define ____cacheline_aligned __attribute__((aligned(32)))
#define ____cacheline_aligned_in_smp __attribute__((aligned(32)))
#define __counted_by(m)
#define __nonstring
#define __randomize_layout
#define fallthrough __attribute__((__fallthrough__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) do { *(volatile __typeof__(x) *)&(x) = (v); } while (0)
#define __same_type(a, b) __builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define BUILD_BUG_ON(c) ((void)sizeof(char[1 - 2 * !!(c)]))
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int:(-!!(e)); })))
#define static_assert(e, ...) _Static_assert(e, #e)
#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define __UNIQUE_ID(p) __PASTE(__PASTE(__UNIQUE_ID_, p), __COUNTER__)
#define IS_ENABLED(option) __is_defined(option)
#define __is_defined(x) ___is_defined(x)
#define ___is_defined(val) ____is_defined(__ARG_PLACEHOLDER_##val)
#define __ARG_PLACEHOLDER_1 0,
#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)
#define __take_second_arg(__ignored, val, ...) val
#define IS_BUILTIN(option) __is_defined(option)
#define IS_REACHABLE(option) __is_defined(option)
#endif
