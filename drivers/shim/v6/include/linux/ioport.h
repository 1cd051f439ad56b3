/* SPDX-License-Identifier: GPL-2.0 */
/* Resources of a device: its register block and interrupts. */
#ifndef _LINUX_IOPORT_H
#define _LINUX_IOPORT_H
#include <linux/types.h>
struct resource {
	resource_size_t start, end;
	const char *name;
	unsigned long flags;
};
#define IORESOURCE_MEM 0x00000200
#define IORESOURCE_IRQ 0x00000400
static inline resource_size_t resource_size(const struct resource *r) { return r->end - r->start + 1; }
#endif
