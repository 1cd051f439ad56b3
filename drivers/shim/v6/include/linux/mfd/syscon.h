/* SPDX-License-Identifier: GPL-2.0 */
/* System controllers (the IOMUXC GPR for stop mode): absent. */
#ifndef _LINUX_MFD_SYSCON_H
#define _LINUX_MFD_SYSCON_H
#include <linux/err.h>
#include <linux/of.h>
#include <linux/regmap.h>
struct regmap *syscon_node_to_regmap(struct device_node *np);
#endif
