/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CRC32_H
#define _LINUX_CRC32_H
#include <linux/types.h>
u32 crc32_le(u32 crc, const unsigned char *p, size_t len);
#define ether_crc_le(length, data) crc32_le(~0, data, length)
#endif
