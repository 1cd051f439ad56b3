// SPDX-License-Identifier: GPL-2.0
/*
 * Module and platform-device glue: initcalls, module parameters, the ENET
 * platform device built from the board description, and the operations a
 * user does on the interface (ip link set up, ethtool).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/io.h>
#include <stdlib.h>
#include "shim.h"

#define SHIM_MAX 16

static int (*initcalls[SHIM_MAX])(void);
static int n_initcalls;
static struct platform_driver *pdrivers[SHIM_MAX];
static int n_pdrivers;
static struct {
	const char *name, *type;
	void *ptr;
} params[SHIM_MAX * 2];
static int n_params;
static struct net_device *netdevs[SHIM_MAX];
static int n_netdevs;

void shim_register_initcall(int (*fn)(void), void (*exit_fn)(void))
{
	(void)exit_fn;
	if (n_initcalls < SHIM_MAX)
		initcalls[n_initcalls++] = fn;
}

void shim_register_platform_driver(struct platform_driver *drv)
{
	if (n_pdrivers < SHIM_MAX)
		pdrivers[n_pdrivers++] = drv;
}

void shim_register_param(const char *name, const char *type, void *ptr)
{
	if (n_params < (int)ARRAY_SIZE(params)) {
		params[n_params].name = name;
		params[n_params].type = type;
		params[n_params].ptr = ptr;
		n_params++;
	}
}

int shim_param_count(void) { return n_params; }
const char *shim_param_name(int i) { return i >= 0 && i < n_params ? params[i].name : NULL; }

int shim_set_param(const char *name, const char *value)
{
	for (int i = 0; i < n_params; i++) {
		char *end;
		long v;

		if (strcmp(params[i].name, name))
			continue;
		if (!strcmp(params[i].type, "bool")) {
			*(bool *)params[i].ptr = !strcmp(value, "1") || !strcmp(value, "y") ||
						 !strcmp(value, "true");
			return 0;
		}
		v = strtol(value, &end, 0);
		if (*end || end == value)
			return -EINVAL;
		if (!strcmp(params[i].type, "int"))
			*(int *)params[i].ptr = (int)v;
		else if (!strcmp(params[i].type, "uint"))
			*(unsigned int *)params[i].ptr = (unsigned int)v;
		else if (!strcmp(params[i].type, "ushort"))
			*(unsigned short *)params[i].ptr = (unsigned short)v;
		else
			return -EINVAL;
		return 0;
	}
	return -ENOENT;
}

int shim_run_initcalls(void)
{
	for (int i = 0; i < n_initcalls; i++) {
		int ret = initcalls[i]();

		if (ret)
			return ret;
	}
	return 0;
}

static struct resource board_res[2];
static struct platform_device board_pdev;


struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type, unsigned int num)
{
	for (unsigned int i = 0; i < pdev->num_resources; i++)
		if ((pdev->resource[i].flags & type) && num-- == 0)
			return &pdev->resource[i];
	return NULL;
}

int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_IRQ, num);

	return r ? (int)r->start : -ENXIO;
}

void __iomem *devm_ioremap_resource(struct device *dev, struct resource *res)
{
	void __iomem *p;

	(void)dev;
	if (!res || !(res->flags & IORESOURCE_MEM))
		return ERR_PTR(-EINVAL);
	p = ioremap(res->start, resource_size(res));
	return p ? p : ERR_PTR(-ENOMEM);
}

int shim_probe(const struct shim_board *b)
{
	board_res[0].start = (resource_size_t)b->mmio_base;
	board_res[0].end = (resource_size_t)(b->mmio_base + b->mmio_size - 1);
	board_res[0].flags = IORESOURCE_MEM;
	board_res[0].name = "regs";
	board_res[1].start = board_res[1].end = b->irq;
	board_res[1].flags = IORESOURCE_IRQ;
	board_pdev.name = b->name;
	board_pdev.id = 0;
	board_pdev.dev.init_name = "2188000.ethernet";
	board_pdev.num_resources = 2;
	board_pdev.resource = board_res;
	for (int i = 0; i < n_pdrivers; i++)
		if (pdrivers[i]->driver.name && !strcmp(pdrivers[i]->driver.name, b->name))
			return pdrivers[i]->probe(&board_pdev);
	return -ENODEV;
}

int register_netdev(struct net_device *dev)
{
	if (n_netdevs >= SHIM_MAX)
		return -ENOSPC;
	netdevs[n_netdevs++] = dev;
	return 0;
}

void unregister_netdev(struct net_device *dev)
{
	for (int i = 0; i < n_netdevs; i++)
		if (netdevs[i] == dev)
			netdevs[i] = netdevs[--n_netdevs];
}

void *shim_netdev(void) { return n_netdevs ? netdevs[0] : NULL; }

int shim_dev_open(void *p)
{
	struct net_device *dev = p;
	int ret;

	if (!dev->netdev_ops || !dev->netdev_ops->ndo_open)
		return -EOPNOTSUPP;
	ret = dev->netdev_ops->ndo_open(dev);
	if (ret)
		return ret;
	dev->up = 1;
	/* __dev_open: program the address filters of the open device */
	if (dev->netdev_ops->ndo_set_rx_mode)
		dev->netdev_ops->ndo_set_rx_mode(dev);
	return 0;
}

int shim_set_mac_address(void *p, const uint8_t *mac)
{
	struct net_device *dev = p;
	struct sockaddr sa = { .sa_family = 1 /* ARPHRD_ETHER */ };

	if (!dev->netdev_ops || !dev->netdev_ops->ndo_set_mac_address)
		return -EOPNOTSUPP;
	memcpy(sa.sa_data, mac, ETH_ALEN);
	return dev->netdev_ops->ndo_set_mac_address(dev, &sa);
}

int shim_set_promisc(void *p, int on)
{
	struct net_device *dev = p;

	if (on)
		dev->flags |= IFF_PROMISC;
	else
		dev->flags &= ~IFF_PROMISC;
	/* __dev_set_rx_mode: the open device programs its filters again */
	if (dev->up && dev->netdev_ops && dev->netdev_ops->ndo_set_rx_mode)
		dev->netdev_ops->ndo_set_rx_mode(dev);
	return 0;
}

static int copybreak_tunable(struct net_device *dev, uint32_t *v, int set)
{
	struct ethtool_tunable t = { .id = ETHTOOL_RX_COPYBREAK, .type_id = ETHTOOL_TUNABLE_U32,
				     .len = sizeof(u32) };

	if (!dev->ethtool_ops)
		return -EOPNOTSUPP;
	if (set)
		return dev->ethtool_ops->set_tunable ? dev->ethtool_ops->set_tunable(dev, &t, v) : -EOPNOTSUPP;
	return dev->ethtool_ops->get_tunable ? dev->ethtool_ops->get_tunable(dev, &t, v) : -EOPNOTSUPP;
}

int shim_set_rx_copybreak(void *dev, uint32_t bytes) { return copybreak_tunable(dev, &bytes, 1); }
int shim_get_rx_copybreak(void *dev, uint32_t *bytes) { return copybreak_tunable(dev, bytes, 0); }

int shim_ethtool_stats(void *p, char (*names)[32], uint64_t *values, int max)
{
	struct net_device *dev = p;
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct ethtool_stats st = { 0 };
	int n;

	if (!ops || !ops->get_sset_count || !ops->get_strings || !ops->get_ethtool_stats)
		return 0;
	n = ops->get_sset_count(dev, ETH_SS_STATS);
	if (n <= 0)
		return 0;
	{
		char (*nm)[ETH_GSTRING_LEN] = calloc(n, ETH_GSTRING_LEN);
		u64 *v = calloc(n, sizeof(u64));

		if (!nm || !v) {
			free(nm);
			free(v);
			return 0;
		}
		st.n_stats = n;
		ops->get_strings(dev, ETH_SS_STATS, (u8 *)nm);
		ops->get_ethtool_stats(dev, &st, v);
		for (int i = 0; i < n && i < max; i++) {
			for (int k = 0; k < 32; k++)
				names[i][k] = k < ETH_GSTRING_LEN ? nm[i][k] : 0;
			names[i][31] = 0;
			values[i] = v[i];
		}
		free(nm);
		free(v);
	}
	return n < max ? n : max;
}

void shim_netdev_counters(void *p, uint64_t *rx_packets, uint64_t *rx_dropped, uint64_t *rx_errors,
			  uint64_t *rx_fifo_errors)
{
	struct net_device *dev = p;

	*rx_packets = dev->stats.rx_packets;
	*rx_dropped = dev->stats.rx_dropped;
	*rx_errors = dev->stats.rx_errors;
	*rx_fifo_errors = dev->stats.rx_fifo_errors;
}
