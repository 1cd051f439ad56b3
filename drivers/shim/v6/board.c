// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/board.c: the board as the driver sees it at the shim's
 * 6.x level: the device tree (a flattened tree compiled with dtc from the
 * profile's .dts, read with libfdt) behind the of_* API, and the clocks it
 * names (fixed-rate clocks: rate, prepare and enable counts).
 */
#include <linux/clk.h>
#include <linux/device.h>
#include <linux/of.h>
#include <linux/of_device.h>
#include <linux/of_net.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "fdt_api.h"
#include "fecsim_v6.h"

static const void *g_fdt;
static struct device_node *g_nodes;	/* every node handed out, one per offset */

int shim_of_init(const void *fdt, unsigned long size)
{
	(void)size;
	if (fdt_check_header(fdt) != 0)
		return -EINVAL;
	g_fdt = fdt;
	return 0;
}

/* Kernel OF matching picks the table entry of the node's most specific
 * compatible (the first in its list that the table knows); of_match_node
 * below takes the first table entry that matches at all. They differ for a
 * node such as "fsl,imx6ul-fec", "fsl,imx6q-fec", whose fallback comes
 * earlier in fec's table. For such a node the device tree is copied and the
 * node's compatible property rewritten in place to its most specific known
 * string (the rest zero-filled), so that both agree. Board set-up: uncosted,
 * and nothing changes for a node only one entry matches. */
FECSIM_UNCOSTED void shim_of_prefer_compatible(const struct device_node *np, const struct of_device_id *table)
{
	const struct of_device_id *best = NULL, *m;
	int best_idx = 0, matches = 0, len;
	const char *prop;
	char *copy;
	u32 size;
	for (m = table; m && m->compatible[0]; m++) {
		int idx = fdt_stringlist_search(g_fdt, np->offset, "compatible", m->compatible);
		if (idx < 0)
			continue;
		matches++;
		if (!best || idx < best_idx) {
			best = m;
			best_idx = idx;
		}
	}
	if (matches < 2)
		return;
	size = be32_to_cpu(((const __be32 *)g_fdt)[1]);	/* the header's totalsize */
	copy = kmalloc(size, GFP_KERNEL);
	if (!copy)
		simhost_stop("out of memory for the device tree");
	memcpy(copy, g_fdt, size);
	g_fdt = copy;
	prop = fdt_getprop(g_fdt, np->offset, "compatible", &len);
	memset((char *)prop, 0, len);
	strscpy((char *)prop, best->compatible, len);
}

/* The node at offset (NULL for a negative offset); nodes live for the run. */
static struct device_node *node_at(int offset)
{
	struct device_node *n;
	if (offset < 0 || !g_fdt)
		return NULL;
	for (n = g_nodes; n; n = n->next)
		if (n->offset == offset)
			return n;
	n = kzalloc(sizeof(*n), GFP_KERNEL);
	if (!n)
		simhost_stop("out of memory for a device tree node");
	n->offset = offset;
	n->name = fdt_get_name(g_fdt, offset, NULL);
	n->full_name = n->name;
	n->parent = node_at(fdt_parent_offset(g_fdt, offset));
	n->next = g_nodes;
	g_nodes = n;
	return n;
}

struct device_node *shim_of_find_compatible(const char *compat)
{
	return node_at(fdt_node_offset_by_compatible(g_fdt, -1, compat));
}

/* Reference counts are kept (a put without a get is the driver's bug); the
 * nodes themselves stay for the run, as the kernel's stay with the tree. */
struct device_node *of_node_get(struct device_node *np)
{
	if (np)
		np->refcount++;
	return np;
}

void of_node_put(struct device_node *np)
{
	if (np && --np->refcount < 0)
		simhost_stop("of_node_put of %s without a reference", np->name);
}

const void *of_get_property(const struct device_node *np, const char *name, int *len)
{
	return np && g_fdt ? fdt_getprop(g_fdt, np->offset, name, len) : NULL;
}

bool of_property_read_bool(const struct device_node *np, const char *name)
{
	return of_get_property(np, name, NULL) != NULL;
}

static u32 be32_at(const void *p, int i)
{
	const u8 *b = (const u8 *)p + 4 * i;
	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

int of_property_read_u32_array(const struct device_node *np, const char *name, u32 *out, size_t sz)
{
	int len;
	const void *p = of_get_property(np, name, &len);
	if (!p)
		return -EINVAL;
	if ((size_t)len < 4 * sz)
		return -EOVERFLOW;
	for (size_t i = 0; i < sz; i++)
		out[i] = be32_at(p, (int)i);
	return 0;
}

int of_property_read_string(const struct device_node *np, const char *name, const char **out)
{
	int len;
	const char *p = of_get_property(np, name, &len);
	if (!p)
		return -EINVAL;
	if (len < 1 || p[len - 1])
		return -EILSEQ;
	*out = p;
	return 0;
}

bool of_device_is_available(const struct device_node *np)
{
	const char *s;
	if (!np)
		return false;
	if (of_property_read_string(np, "status", &s))
		return true;
	return !strcmp(s, "okay") || !strcmp(s, "ok");
}

bool of_device_is_compatible(const struct device_node *np, const char *compat)
{
	return np && g_fdt && fdt_node_check_compatible(g_fdt, np->offset, compat) == 0;
}

bool of_machine_is_compatible(const char *compat)
{
	return g_fdt && fdt_node_check_compatible(g_fdt, 0, compat) == 0;
}

struct device_node *of_get_child_by_name(const struct device_node *np, const char *name)
{
	if (!np || !g_fdt)
		return NULL;
	for (int o = fdt_first_subnode(g_fdt, np->offset); o >= 0; o = fdt_next_subnode(g_fdt, o)) {
		const char *n = fdt_get_name(g_fdt, o, NULL);
		size_t l = strlen(name);
		if (!strncmp(n, name, l) && (n[l] == 0 || n[l] == '@'))
			return of_node_get(node_at(o));
	}
	return NULL;
}

struct device_node *of_get_next_available_child(const struct device_node *node, struct device_node *prev)
{
	int o;
	if (!node || !g_fdt)
		return NULL;
	o = prev ? fdt_next_subnode(g_fdt, prev->offset) : fdt_first_subnode(g_fdt, node->offset);
	of_node_put(prev);
	for (; o >= 0; o = fdt_next_subnode(g_fdt, o))
		if (of_device_is_available(node_at(o)))
			return of_node_get(node_at(o));
	return NULL;
}

struct device_node *of_parse_phandle(const struct device_node *np, const char *name, int index)
{
	int len;
	const void *p = of_get_property(np, name, &len);
	if (!p || index < 0 || len < 4 * (index + 1))
		return NULL;
	return of_node_get(node_at(fdt_node_offset_by_phandle(g_fdt, be32_at(p, index))));
}

int of_alias_get_id(struct device_node *np, const char *stem)
{
	char name[32];
	for (int id = 0; id < 8; id++) {
		const char *path;
		snprintf(name, sizeof(name), "%s%d", stem, id);
		path = g_fdt ? fdt_get_alias(g_fdt, name) : NULL;
		if (path && np && fdt_path_offset(g_fdt, path) == np->offset)
			return id;
	}
	return -ENODEV;
}

const struct of_device_id *of_match_node(const struct of_device_id *matches, const struct device_node *node)
{
	for (; matches && matches->compatible[0]; matches++)
		if (of_device_is_compatible(node, matches->compatible))
			return matches;
	return NULL;
}

const struct of_device_id *of_match_device(const struct of_device_id *matches, const struct device *dev)
{
	return dev->of_node ? of_match_node(matches, dev->of_node) : NULL;
}

const void *of_device_get_match_data(const struct device *dev)
{
	const struct of_device_id *m = dev->driver ? of_match_device(dev->driver->of_match_table, dev) : NULL;
	return m ? m->data : NULL;
}

const void *device_get_match_data(const struct device *dev) { return of_device_get_match_data(dev); }

int of_get_phy_mode(struct device_node *np, phy_interface_t *interface)
{
	static const struct {
		const char *name;
		phy_interface_t mode;
	} modes[] = {
		{ "internal", PHY_INTERFACE_MODE_INTERNAL }, { "mii", PHY_INTERFACE_MODE_MII },
		{ "gmii", PHY_INTERFACE_MODE_GMII },	     { "rmii", PHY_INTERFACE_MODE_RMII },
		{ "rgmii", PHY_INTERFACE_MODE_RGMII },	     { "rgmii-id", PHY_INTERFACE_MODE_RGMII_ID },
		{ "rgmii-rxid", PHY_INTERFACE_MODE_RGMII_RXID }, { "rgmii-txid", PHY_INTERFACE_MODE_RGMII_TXID },
	};
	const char *s;
	*interface = PHY_INTERFACE_MODE_NA;
	if (of_property_read_string(np, "phy-mode", &s) && of_property_read_string(np, "phy-connection-type", &s))
		return -ENODEV;
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (!strcmp(s, modes[i].name)) {
			*interface = modes[i].mode;
			return 0;
		}
	return -ENODEV;
}

int of_get_mac_address(struct device_node *np, u8 *mac)
{
	static const char *const props[] = { "mac-address", "local-mac-address", "address" };
	for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
		int len;
		const u8 *p = of_get_property(np, props[i], &len);
		if (p && len == 6 && !(p[0] & 1) && (p[0] | p[1] | p[2] | p[3] | p[4] | p[5])) {
			memcpy(mac, p, 6);
			return 0;
		}
	}
	/* No NVMEM cell either: the kernel's answer when nothing gives an address. */
	return -ENODEV;
}

/* ------------------------------------------------------------ clocks */

struct clk {
	const char *name;	/* its clock-names entry of the consumer */
	unsigned long rate;	/* Hz */
	int prepare_count, enable_count;
};

/* The clock named id of dev's node (clocks/clock-names), a fixed-rate
 * clock of the tree; NULL if the node names no such clock. */
static struct clk *clk_lookup(struct device *dev, const char *id)
{
	const struct device_node *np = dev->of_node;
	struct device_node *cn;
	struct clk *c;
	u32 rate = 0;
	int idx = id && np && g_fdt ? fdt_stringlist_search(g_fdt, np->offset, "clock-names", id) : (id ? -1 : 0);
	if (idx < 0)
		return NULL;
	cn = of_parse_phandle(np, "clocks", idx);
	if (!cn)
		return NULL;
	of_property_read_u32(cn, "clock-frequency", &rate);
	of_node_put(cn);
	c = devm_kzalloc(dev, sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->name = id;
	c->rate = rate;
	return c;
}

struct clk *devm_clk_get(struct device *dev, const char *id)
{
	struct clk *c = clk_lookup(dev, id);
	return c ? c : ERR_PTR(-ENOENT);
}

struct clk *devm_clk_get_optional(struct device *dev, const char *id)
{
	return clk_lookup(dev, id);	/* NULL: absent, which the clk API accepts everywhere */
}

struct clk *clk_get(struct device *dev, const char *id) { return devm_clk_get(dev, id); }
void clk_put(struct clk *clk) { (void)clk; }

int clk_prepare(struct clk *clk)
{
	if (clk)
		clk->prepare_count++;
	return 0;
}

void clk_unprepare(struct clk *clk)
{
	if (clk && --clk->prepare_count < 0)
		simhost_stop("clk_unprepare of clock %s that is not prepared", clk->name);
}

int clk_enable(struct clk *clk)
{
	if (!clk)
		return 0;
	if (!clk->prepare_count)
		simhost_stop("clk_enable of clock %s that is not prepared", clk->name);
	clk->enable_count++;
	return 0;
}

void clk_disable(struct clk *clk)
{
	if (clk && --clk->enable_count < 0)
		simhost_stop("clk_disable of clock %s that is not enabled", clk->name);
}

unsigned long clk_get_rate(struct clk *clk) { return clk ? clk->rate : 0; }

int clk_set_rate(struct clk *clk, unsigned long rate)
{
	if (clk && rate != clk->rate)
		return -EINVAL;	/* fixed-rate clocks */
	return 0;
}

int shim_clk_counts(struct clk *clk, int *prepared, int *enabled)
{
	if (!clk)
		return -ENOENT;
	*prepared = clk->prepare_count;
	*enabled = clk->enable_count;
	return 0;
}
