/* SPDX-License-Identifier: GPL-2.0 */
/* Interrupt handlers run in the CPU model's hardirq context on the IRQ's core. */
#ifndef _LINUX_INTERRUPT_H
#define _LINUX_INTERRUPT_H
#include <linux/types.h>
#include <linux/device.h>
#define IRQ_NONE 0
#define IRQ_HANDLED 1
#define IRQF_SHARED 0x80
typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name, void *dev);
void free_irq(unsigned int irq, void *dev_id);
int devm_request_irq(struct device *dev, unsigned int irq, irq_handler_t handler, unsigned long flags,
		     const char *name, void *dev_id);
#endif
