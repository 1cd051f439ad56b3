/* SPDX-License-Identifier: GPL-2.0 */
/* Nothing the driver uses from here on 32-bit ARM without PCI. */
#ifndef _LINUX_CPU_H
#define _LINUX_CPU_H
#include <linux/types.h>
#endif
