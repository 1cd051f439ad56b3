/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_GFP_H
#define _LINUX_GFP_H
#include <linux/types.h>
#define __GFP_ZERO 0x100u
#define __GFP_NOWARN 0x200u
#define __GFP_DMA 0x01u
#define GFP_ATOMIC 0x20u
#define GFP_KERNEL 0xcc0u
#define GFP_NOWAIT 0x800u
#define GFP_DMA __GFP_DMA
#endif
