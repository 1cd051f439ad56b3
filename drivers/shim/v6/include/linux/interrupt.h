/* SPDX-License-Identifier: GPL-2.0 */
/* Interrupt handlers of the simulated interrupt controller. */
#ifndef _LINUX_INTERRUPT_H
#define _LINUX_INTERRUPT_H
#include <linux/types.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>
typedef int irqreturn_t;
#define IRQ_NONE 0
#define IRQ_HANDLED 1
#define IRQ_WAKE_THREAD 2
#define IRQF_SHARED 0x80
#define IRQF_TRIGGER_NONE 0
typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);
int devm_request_irq(struct device *dev, unsigned int irq, irq_handler_t handler, unsigned long flags,
		     const char *name, void *dev_id);
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags, const char *name, void *dev_id);
const void *free_irq(unsigned int irq, void *dev_id);
void enable_irq(unsigned int irq);
void disable_irq(unsigned int irq);
void disable_irq_nosync(unsigned int irq);
int enable_irq_wake(unsigned int irq);
int disable_irq_wake(unsigned int irq);
int irq_set_affinity_hint(unsigned int irq, const void *m);
#endif
