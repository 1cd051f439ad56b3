/* SPDX-License-Identifier: GPL-2.0 */
/* Little-endian, as the i.MX6Q's Cortex-A9 runs. */
#ifndef _ASM_BYTEORDER_H
#define _ASM_BYTEORDER_H
#include <linux/types.h>
#define __LITTLE_ENDIAN 1234
#define __LITTLE_ENDIAN_BITFIELD
#define swab16(x) ((u16)__builtin_bswap16((u16)(x)))
#define swab32(x) ((u32)__builtin_bswap32((u32)(x)))
#define swab64(x) ((u64)__builtin_bswap64((u64)(x)))
static inline void swab32s(u32 *p) { *p = swab32(*p); }
static inline u32 swab32p(const u32 *p) { return swab32(*p); }
#define cpu_to_le16(x) ((__le16)(u16)(x))
#define cpu_to_le32(x) ((__le32)(u32)(x))
#define cpu_to_le64(x) ((__le64)(u64)(x))
#define le16_to_cpu(x) ((u16)(x))
#define le32_to_cpu(x) ((u32)(x))
#define le64_to_cpu(x) ((u64)(x))
#define cpu_to_be16(x) ((__be16)swab16(x))
#define cpu_to_be32(x) ((__be32)swab32(x))
#define cpu_to_be64(x) ((__be64)swab64(x))
#define be16_to_cpu(x) swab16(x)
#define be32_to_cpu(x) swab32(x)
#define be64_to_cpu(x) swab64(x)
#define htons(x) cpu_to_be16(x)
#define ntohs(x) be16_to_cpu(x)
#define htonl(x) cpu_to_be32(x)
#define ntohl(x) be32_to_cpu(x)
#endif
