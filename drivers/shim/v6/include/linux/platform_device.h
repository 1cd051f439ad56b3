/* SPDX-License-Identifier: GPL-2.0 */
/* The platform bus: the board's devices and the drivers that bind them. */
#ifndef _LINUX_PLATFORM_DEVICE_H
#define _LINUX_PLATFORM_DEVICE_H
#include <linux/device.h>
#include <linux/mod_devicetable.h>

struct platform_device {
	const char *name;
	int id;
	struct device dev;
	u32 num_resources;
	struct resource *resource;
	const struct platform_device_id *id_entry;
};
#define to_platform_device(x) container_of((x), struct platform_device, dev)

struct platform_driver {
	int (*probe)(struct platform_device *);
	int (*remove)(struct platform_device *);
#if FECSIM_API_LEVEL >= 603
	void (*remove_new)(struct platform_device *);
#endif
	void (*shutdown)(struct platform_device *);
	struct device_driver driver;
	const struct platform_device_id *id_table;
};

int __platform_driver_register(struct platform_driver *drv, struct module *owner);
#define platform_driver_register(drv) __platform_driver_register(drv, THIS_MODULE)
void platform_driver_unregister(struct platform_driver *drv);
#define module_platform_driver(drv) module_driver(drv, platform_driver_register, platform_driver_unregister)

static inline void *platform_get_drvdata(const struct platform_device *pdev) { return dev_get_drvdata(&pdev->dev); }
static inline void platform_set_drvdata(struct platform_device *pdev, void *data) { dev_set_drvdata(&pdev->dev, data); }
static inline const struct platform_device_id *platform_get_device_id(const struct platform_device *pdev)
{
	return pdev->id_entry;
}
struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type, unsigned int num);
int platform_get_irq(struct platform_device *pdev, unsigned int num);
int platform_get_irq_byname(struct platform_device *pdev, const char *name);
int platform_irq_count(struct platform_device *pdev);
int platform_get_irq_optional(struct platform_device *pdev, unsigned int num);
int platform_get_irq_byname_optional(struct platform_device *pdev, const char *name);
void __iomem *devm_platform_ioremap_resource(struct platform_device *pdev, unsigned int index);
void __iomem *devm_platform_get_and_ioremap_resource(struct platform_device *pdev, unsigned int index,
						     struct resource **res);
#endif
