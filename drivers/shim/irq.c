// SPDX-License-Identifier: GPL-2.0
/* Interrupt registration: handlers run in the CPU model's hardirq context. */
#include <linux/kernel.h>
#include <linux/interrupt.h>

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name, void *dev)
{
	(void)flags;
	(void)name;
	return simhost_request_irq(irq, (simhost_irq_fn)handler, dev);
}

void free_irq(unsigned int irq, void *dev_id)
{
	simhost_free_irq(irq, dev_id);
}

int devm_request_irq(struct device *dev, unsigned int irq, irq_handler_t handler, unsigned long flags,
		     const char *name, void *dev_id)
{
	(void)dev;
	return request_irq(irq, handler, flags, name, dev_id);
}
