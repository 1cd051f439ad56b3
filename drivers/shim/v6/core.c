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
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/io.h>
#include <linux/of_device.h>
#include <linux/phy.h>
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
static struct resource g_res[3];	/* regs, int0, pps */

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

/* The board's ENET node: the one compatible with b->of_compatible, else
 * the first node any entry of the driver's match table names (an i.MX8MM
 * node lists "fsl,imx8mm-fec", "fsl,imx8mq-fec", "fsl,imx6sx-fec"; a Vybrid
 * one "fsl,mvf600-fec"); its compatible made to match as the kernel would
 * (shim_of_prefer_compatible). Board set-up: uncosted. */
static FECSIM_UNCOSTED struct device_node *board_node(const char *compat)
{
	struct device_node *np = shim_of_find_compatible(compat);
	for (const struct of_device_id *m = g_pdrv->driver.of_match_table; !np && m && m->compatible[0]; m++)
		np = shim_of_find_compatible(m->compatible);
	if (np)
		shim_of_prefer_compatible(np, g_pdrv->driver.of_match_table);
	return np;
}

/* The board's device from its device-tree node: the register block
 * (reg), the interrupts (GIC SPIs, named by interrupt-names) as resources;
 * the first interrupt is the line the model wires to the core. Two at most:
 * of a multi-queue node's four (int0..int2, pps) the driver then takes the
 * first as int0 and the second as pps; every event of the model comes on
 * the first line anyway. */
static int pdev_from_tree(const struct fecsim_v6_board *b)
{
	struct device_node *np = board_node(b->of_compatible);
	u32 reg[2], irqs[3 * 2];
	int len, n;
	const char *names;
	if (!np)
		return -ENODEV;
	if (of_property_read_u32_array(np, "reg", reg, 2))
		return -EINVAL;
	g_res[0] = (struct resource){ .start = reg[0], .end = reg[0] + reg[1] - 1, .name = "regs",
				      .flags = IORESOURCE_MEM };
	g_pdev.num_resources = 1;
	if (!of_get_property(np, "interrupts", &len))
		return -EINVAL;
	n = len / 12 < 2 ? len / 12 : 2;
	if (of_property_read_u32_array(np, "interrupts", irqs, 3 * n))
		return -EINVAL;
	names = of_get_property(np, "interrupt-names", &len);
	for (int i = 0; i < n; i++) {
		const char *name = names && len > 0 ? names : NULL;
		if (names) {
			int l = strlen(names) + 1;
			names += l;
			len -= l;
		}
		g_res[1 + i] = (struct resource){ .start = irqs[3 * i + 1] + 32, .end = irqs[3 * i + 1] + 32,
						  .name = name, .flags = IORESOURCE_IRQ };
		g_pdev.num_resources++;
	}
	shim_irq_wire(g_res[1].start);
	g_pdev.dev.of_node = of_node_get(np);
	return 0;
}

int fecsim_v6_boot(const struct fecsim_v6_board *b)
{
	int ret;
	shim_time_init();
	if (shim_of_init(b->dtb, b->dtb_size))
		return -EINVAL;
	if (!g_initcall)
		return -ENOENT;
	ret = g_initcall();
	if (ret)
		return ret;
	if (!g_pdrv)
		return -ENODEV;
	ret = pdev_from_tree(b);
	if (ret)
		return ret;
	if ((unsigned long long)g_res[0].start != b->mmio_base || g_res[1].start != b->irq)
		simhost_stop("the device tree puts %s at 0x%x, irq %u; the model has it at 0x%llx, irq %u",
			     b->of_compatible, g_res[0].start, g_res[1].start, b->mmio_base, b->irq);
	g_pdev.name = b->dev_name;
	g_pdev.id = -1;
	g_pdev.dev.init_name = b->dev_name;
	g_pdev.resource = g_res;
	g_pdev.dev.driver = &g_pdrv->driver;
	g_pdev.dev.power.disable_depth = 1;	/* runtime PM starts disabled */
	/* The platform bus matches the tree's compatible first, then the id table by name. */
	if (!of_match_device(g_pdrv->driver.of_match_table, &g_pdev.dev)) {
		if (g_pdrv->id_table)
			for (const struct platform_device_id *id = g_pdrv->id_table; id->name[0]; id++)
				if (!strcmp(id->name, b->name))
					g_pdev.id_entry = id;
		if (!g_pdev.id_entry)
			return -ENODEV;
	}
	return g_pdrv->probe(&g_pdev);
}

int fecsim_v6_open(void)
{
	struct net_device *dev = shim_netdev_v6();
	return dev ? shim_dev_open_v6(dev) : -ENODEV;
}

int platform_irq_count(struct platform_device *pdev)
{
	int n = 0;
	for (u32 i = 0; i < pdev->num_resources; i++)
		n += !!(pdev->resource[i].flags & IORESOURCE_IRQ);
	return n;
}

int platform_get_irq_optional(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_IRQ, num);
	return r ? (int)r->start : -ENXIO;
}

/* ioremap: the cookie is the physical address (readl/writel, linux/io.h). */
void __iomem *devm_ioremap(struct device *dev, resource_size_t pa, resource_size_t size)
{
	(void)dev;
	(void)size;
	return (void __iomem *)(unsigned long)pa;
}

void __iomem *devm_ioremap_resource(struct device *dev, const struct resource *r)
{
	if (!r || !(r->flags & IORESOURCE_MEM))
		return ERR_PTR(-EINVAL);
	return devm_ioremap(dev, r->start, resource_size(r));
}

void __iomem *devm_platform_get_and_ioremap_resource(struct platform_device *pdev, unsigned int index,
						     struct resource **res)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_MEM, index);
	if (res)
		*res = r;
	return devm_ioremap_resource(&pdev->dev, r);
}

void __iomem *devm_platform_ioremap_resource(struct platform_device *pdev, unsigned int index)
{
	return devm_platform_get_and_ioremap_resource(pdev, index, NULL);
}

u16 shim_readw(const volatile void __iomem *a)
{
	u32 w = readl((const volatile void __iomem *)((unsigned long)a & ~3ul));
	return (u16)(w >> (8 * ((unsigned long)a & 2)));
}

/* Device references: the board's devices live for the run. */
struct device *get_device(struct device *dev) { return dev; }
void put_device(struct device *dev) { (void)dev; }

/* devres_alloc'ed data: the header's action is the release function. */
struct devres_data {
	dr_release_t release;
	struct device *dev;
	unsigned long long data[];
};

static void devres_data_release(void *p)
{
	struct devres_data *d = p;
	d->release(d->dev, d->data);
	kfree(d);
}

void *devres_alloc(dr_release_t release, size_t size, gfp_t gfp)
{
	struct devres_data *d = kmalloc(sizeof(*d) + size, gfp | __GFP_ZERO);
	if (!d)
		return NULL;
	d->release = release;
	return d->data;
}

void devres_add(struct device *dev, void *res)
{
	struct devres_data *d = container_of(res, struct devres_data, data);
	d->dev = dev;
	devm_add_action(dev, devres_data_release, d);
}

void devres_free(void *res)
{
	if (res)
		kfree(container_of(res, struct devres_data, data));
}

/* ------------------------------------------------------------ printing */

int vsnprintf(char *buf, size_t size, const char *fmt, __builtin_va_list ap);	/* the host C library's */

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	__builtin_va_list ap;
	int n;
	__builtin_va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	__builtin_va_end(ap);
	return n;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	__builtin_va_list ap;
	int n;
	if (!size)
		return 0;
	__builtin_va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	__builtin_va_end(ap);
	return n < (int)size ? n : (int)size - 1;
}

int sprintf(char *buf, const char *fmt, ...)
{
	__builtin_va_list ap;
	int n;
	__builtin_va_start(ap, fmt);
	n = vsnprintf(buf, 1 << 20, fmt, ap);
	__builtin_va_end(ap);
	return n;
}

int printk(const char *fmt, ...)
{
	char buf[256];
	__builtin_va_list ap;
	int level = 6;
	__builtin_va_start(ap, fmt);
	if (fmt[0] == '\001' && fmt[1] >= '0' && fmt[1] <= '7') {
		level = fmt[1] - '0';
		fmt += 2;
	}
	vsnprintf(buf, sizeof(buf), fmt, ap);
	__builtin_va_end(ap);
	simhost_log(level, "%s", buf);
	return 0;
}

/* ------------------------------------------------------------ the end-of-run report */

static int put(char *buf, int len, int at, const char *fmt, ...)
{
	__builtin_va_list ap;
	int n;
	if (at >= len)
		return at;
	__builtin_va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	__builtin_va_end(ap);
	return at + n < len ? at + n : len - 1;
}

int fecsim_v6_report(char *buf, int len)
{
	struct net_device *dev = shim_netdev_v6();
	const struct ethtool_ops *ops = dev ? dev->ethtool_ops : NULL;
	struct phy_device *phy = dev ? dev->phydev : NULL;
	int at = 0, n;
	buf[0] = 0;
	if (!dev)
		return put(buf, len, 0, "no interface registered\n");
	at = put(buf, len, at, "interface     %s (%s), %s, carrier %s\n", dev->name, g_pdev.name,
		 dev->up ? "up" : "down", netif_carrier_ok(dev) ? "on" : "off");
	if (phy && phy->link)
		at = put(buf, len, at, "link          up, %d Mbit/s %s duplex, flow control %s (PHY %s, id 0x%08x)\n",
			 phy->speed, phy->duplex == DUPLEX_FULL ? "full" : "half", phy->pause ? "rx/tx" : "off",
			 phydev_name(phy), phy->phy_id);
	else
		at = put(buf, len, at, "link          down%s\n", phy ? "" : " (no PHY attached)");
	at = put(buf, len, at, "rx            %llu frames to the stack, %llu NAPI polls\n",
		 fecsim_v6_net.rx_frames, fecsim_v6_net.napi_polls);
	if (ops && ops->get_drvinfo) {
		struct ethtool_drvinfo info;
		memset(&info, 0, sizeof(info));
		ops->get_drvinfo(dev, &info);
		at = put(buf, len, at, "ethtool -i    driver %.32s, bus-info %.32s\n", info.driver, info.bus_info);
	}
	if (ops) {
		struct ethtool_coalesce ec;
		struct kernel_ethtool_coalesce kec;
		int rc = ops->get_coalesce ? 0 : -EOPNOTSUPP;
		memset(&ec, 0, sizeof(ec));
		memset(&kec, 0, sizeof(kec));
		if (!rc)
			rc = ops->get_coalesce(dev, &ec, &kec, NULL);
		if (rc)
			at = put(buf, len, at, "ethtool -c    not supported by the driver (%d)\n", rc);
		else
			at = put(buf, len, at, "ethtool -c    rx-usecs %u rx-frames %u tx-usecs %u tx-frames %u\n",
				 ec.rx_coalesce_usecs, ec.rx_max_coalesced_frames, ec.tx_coalesce_usecs,
				 ec.tx_max_coalesced_frames);
		at = put(buf, len, at, "ethtool -g    %s\n",
			 ops->get_ringparam ? "(not printed)" : "not supported by the driver (no get_ringparam)");
	}
	n = ops && ops->get_sset_count ? ops->get_sset_count(dev, ETH_SS_STATS) : 0;
	if (n > 0 && ops->get_strings) {
		u8 *names = kzalloc((size_t)n * ETH_GSTRING_LEN, GFP_KERNEL);
		if (names) {
			ops->get_strings(dev, ETH_SS_STATS, names);
			at = put(buf, len, at, "ethtool -S    %d statistics:", n);
			for (int i = 0; i < n; i++)
				at = put(buf, len, at, "%s%.32s", i ? ", " : " ", (const char *)names + i * ETH_GSTRING_LEN);
			at = put(buf, len, at, "\n");
			kfree(names);
		}
	}
	return at;
}
