// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/core.c: the driver core at the shim's 6.x API level, built
 * into a kernel tree driver's shared object with it (same headers, same
 * flags): the module's initcall, the platform bus with the board's one
 * device, managed allocations, kmalloc, strings and printk.
 *
 * Entry point for the kernel host (drivers/khost/boot.cc, by dlsym):
 * fecsim_v6_boot() runs the initcall (which registers the platform driver)
 * and probes the board's device with it.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "fecsim_v6.h"

void *simhost_kalloc(size_t size, size_t align, int kind, const void *site);
void simhost_kfree(const void *p, int kind, const void *site);
#define SIMHOST_MEM_KMALLOC 1

/* ------------------------------------------------------------ allocation */

void *kmalloc(size_t size, gfp_t flags)
{
	void *p = simhost_kalloc(size ? size : 1, 8, SIMHOST_MEM_KMALLOC, __builtin_return_address(0));
	if (p && (flags & __GFP_ZERO))
		memset(p, 0, size);
	return p;
}

void kfree(const void *p)
{
	if (p)
		simhost_kfree(p, SIMHOST_MEM_KMALLOC, __builtin_return_address(0));
}

/* A managed resource: freed (or its action run) when the device is released. */
struct devres {
	struct list_head node;
	void (*action)(void *);
	void *data;
	/* devm_kmalloc's memory follows */
	unsigned long long mem[];
};

static void devres_link(struct device *dev, struct devres *r)
{
	if (!dev->devres.next) {
		dev->devres.next = &dev->devres;
		dev->devres.prev = &dev->devres;
	}
	r->node.next = dev->devres.next;
	r->node.prev = &dev->devres;
	dev->devres.next->prev = &r->node;
	dev->devres.next = &r->node;
}

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp)
{
	struct devres *r = kmalloc(sizeof(*r) + size, gfp);
	if (!r)
		return NULL;
	r->action = NULL;
	r->data = r->mem;
	devres_link(dev, r);
	return r->mem;
}

void devm_kfree(struct device *dev, const void *p)
{
	for (struct list_head *n = dev->devres.next; n && n != &dev->devres; n = n->next) {
		struct devres *r = container_of(n, struct devres, node);
		if (!r->action && r->data == p) {
			n->prev->next = n->next;
			n->next->prev = n->prev;
			kfree(r);
			return;
		}
	}
}

int devm_add_action(struct device *dev, void (*action)(void *), void *data)
{
	struct devres *r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->action = action;
	r->data = data;
	devres_link(dev, r);
	return 0;
}

int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data)
{
	int ret = devm_add_action(dev, action, data);
	if (ret)
		action(data);
	return ret;
}

/* ------------------------------------------------------------ strings */

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] - y[i];
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

ssize_t strscpy(char *d, const char *s, size_t n)
{
	size_t i;
	if (!n)
		return -E2BIG;
	for (i = 0; i + 1 < n && s[i]; i++)
		d[i] = s[i];
	d[i] = 0;
	return s[i] ? -E2BIG : (ssize_t)i;
}

size_t strlcpy(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);
	if (n) {
		size_t c = len < n - 1 ? len : n - 1;
		memcpy(d, s, c);
		d[c] = 0;
	}
	return len;
}

char *strncpy(char *d, const char *s, size_t n)
{
	size_t i = 0;
	for (; i < n && s[i]; i++)
		d[i] = s[i];
	for (; i < n; i++)
		d[i] = 0;
	return d;
}

/* ------------------------------------------------------------ modules and the platform bus */

static int (*g_initcall)(void);
static struct platform_driver *g_pdrv;
static struct platform_device g_pdev;
static struct resource g_res[3];

void shim_register_initcall(int (*fn)(void), void (*exit_fn)(void))
{
	(void)exit_fn;
	if (g_initcall)
		simhost_stop("the driver registers two module_init functions");
	g_initcall = fn;
}

int __platform_driver_register(struct platform_driver *drv, struct module *owner)
{
	(void)owner;
	if (g_pdrv)
		return -EBUSY;
	g_pdrv = drv;
	return 0;
}

void platform_driver_unregister(struct platform_driver *drv)
{
	if (g_pdrv == drv)
		g_pdrv = NULL;
}

const char *dev_name(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "(no name)";
}

struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type, unsigned int num)
{
	for (u32 i = 0; i < pdev->num_resources; i++)
		if ((pdev->resource[i].flags & type) && num-- == 0)
			return &pdev->resource[i];
	return NULL;
}

int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_IRQ, num);
	return r ? (int)r->start : -ENXIO;
}

int platform_get_irq_byname_optional(struct platform_device *pdev, const char *name)
{
	for (u32 i = 0; i < pdev->num_resources; i++)
		if ((pdev->resource[i].flags & IORESOURCE_IRQ) && pdev->resource[i].name &&
		    !strcmp(pdev->resource[i].name, name))
			return (int)pdev->resource[i].start;
	return -ENXIO;
}

int platform_get_irq_byname(struct platform_device *pdev, const char *name)
{
	int irq = platform_get_irq_byname_optional(pdev, name);
	if (irq < 0)
		dev_err(&pdev->dev, "IRQ %s not found", name);
	return irq;
}

int fecsim_v6_boot(const struct fecsim_v6_board *b)
{
	int ret;
	if (!g_initcall)
		return -ENOENT;
	ret = g_initcall();
	if (ret)
		return ret;
	if (!g_pdrv)
		return -ENODEV;
	g_res[0] = (struct resource){ .start = (resource_size_t)b->mmio_base,
				      .end = (resource_size_t)(b->mmio_base + b->mmio_size - 1),
				      .name = "regs", .flags = IORESOURCE_MEM };
	g_res[1] = (struct resource){ .start = b->irq, .end = b->irq, .name = "int0", .flags = IORESOURCE_IRQ };
	g_pdev.name = b->name;
	g_pdev.id = -1;
	g_pdev.dev.init_name = b->dev_name;
	g_pdev.num_resources = 2;
	g_pdev.resource = g_res;
	g_pdev.dev.driver = &g_pdrv->driver;
	if (g_pdrv->id_table)
		for (const struct platform_device_id *id = g_pdrv->id_table; id->name[0]; id++)
			if (!strcmp(id->name, b->name))
				g_pdev.id_entry = id;
	return g_pdrv->probe(&g_pdev);
}
