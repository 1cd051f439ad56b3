/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_OF_MDIO_H
#define _LINUX_OF_MDIO_H
#include <linux/of.h>
#include <linux/phy.h>
int of_mdiobus_register(struct mii_bus *mdio, struct device_node *np);
struct phy_device *of_phy_connect(struct net_device *dev, struct device_node *phy_np,
				  void (*hndlr)(struct net_device *), u32 flags, phy_interface_t iface);
struct phy_device *of_phy_find_device(struct device_node *phy_np);
bool of_phy_is_fixed_link(struct device_node *np);
int of_phy_register_fixed_link(struct device_node *np);
void of_phy_deregister_fixed_link(struct device_node *np);
#endif
