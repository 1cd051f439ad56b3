/* SPDX-License-Identifier: GPL-2.0 */
/* The device tree as a driver reads it (of_* on the board's tree). */
#ifndef _LINUX_OF_H
#define _LINUX_OF_H
#include <linux/types.h>
#include <linux/err.h>
#include <linux/mod_devicetable.h>
struct device_node {
	const char *name;
	const char *full_name;
	int offset;		/* in the flattened tree */
	struct device_node *parent;
	struct device_node *next;	/* all nodes the shim created */
	int refcount;
};
struct property {
	char *name;
	int length;
	void *value;
};
struct of_phandle_args {
	struct device_node *np;
	int args_count;
	u32 args[16];
};
struct device_node *of_node_get(struct device_node *np);
void of_node_put(struct device_node *np);
bool of_device_is_available(const struct device_node *np);
bool of_device_is_compatible(const struct device_node *np, const char *compat);
bool of_machine_is_compatible(const char *compat);
struct device_node *of_get_child_by_name(const struct device_node *np, const char *name);
struct device_node *of_parse_phandle(const struct device_node *np, const char *name, int index);
const void *of_get_property(const struct device_node *np, const char *name, int *len);
bool of_property_read_bool(const struct device_node *np, const char *name);
int of_property_read_u32_array(const struct device_node *np, const char *name, u32 *out, size_t sz);
static inline int of_property_read_u32(const struct device_node *np, const char *name, u32 *out)
{
	return of_property_read_u32_array(np, name, out, 1);
}
int of_property_read_string(const struct device_node *np, const char *name, const char **out);
int of_alias_get_id(struct device_node *np, const char *stem);
const struct of_device_id *of_match_node(const struct of_device_id *matches, const struct device_node *node);
#define for_each_available_child_of_node(parent, child) \
	for (child = of_get_next_available_child(parent, NULL); child; child = of_get_next_available_child(parent, child))
struct device_node *of_get_next_available_child(const struct device_node *node, struct device_node *prev);
#endif
