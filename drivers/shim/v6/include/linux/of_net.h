/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_OF_NET_H
#define _LINUX_OF_NET_H
#include <linux/of.h>
#include <linux/phy.h>
int of_get_phy_mode(struct device_node *np, phy_interface_t *interface);
int of_get_mac_address(struct device_node *np, u8 *mac);
#endif
