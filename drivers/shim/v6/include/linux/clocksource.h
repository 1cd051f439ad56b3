/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CLOCKSOURCE_H
#define _LINUX_CLOCKSOURCE_H
#include <linux/types.h>
#define CLOCKSOURCE_MASK(bits) ((u64)((bits) < 64 ? ((1ULL << (bits)) - 1) : -1))
#endif
