/* SPDX-License-Identifier: GPL-2.0 */
/* Platform devices: the shim creates the ENET device (MMIO range, IRQ) from the SoC profile. */
#ifndef _LINUX_PLATFORM_DEVICE_H
#define _LINUX_PLATFORM_DEVICE_H
#include <linux/types.h>
#include <linux/device.h>

#define IORESOURCE_MEM 0x200
#define IORESOURCE_IRQ 0x400

struct resource {
	resource_size_t start, end;
	const char *name;
	unsigned long flags;
};

static inline resource_size_t resource_size(const struct resource *r) { return r->end - r->start + 1; }

struct platform_device {
	const char *name;
	int id;
	struct device dev;
	unsigned int num_resources;
	struct resource *resource;
};

struct platform_driver {
	int (*probe)(struct platform_device *pdev);
	int (*remove)(struct platform_device *pdev);
	struct {
		const char *name;
	} driver;
};

struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type, unsigned int num);
int platform_get_irq(struct platform_device *pdev, unsigned int num);
void __iomem *devm_ioremap_resource(struct device *dev, struct resource *res);
static inline void platform_set_drvdata(struct platform_device *pdev, void *data) { pdev->dev.driver_data = data; }
static inline void *platform_get_drvdata(const struct platform_device *pdev) { return pdev->dev.driver_data; }

void shim_register_platform_driver(struct platform_driver *drv);
#define module_platform_driver(drv) \
	static void __attribute__((constructor)) __shim_pdrv_##drv(void) { shim_register_platform_driver(&drv); }
#endif
