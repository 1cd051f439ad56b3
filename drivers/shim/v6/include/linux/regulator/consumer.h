/* SPDX-License-Identifier: GPL-2.0 */
/* Regulators: the board description has no PHY supply (absent). */
#ifndef _LINUX_REGULATOR_CONSUMER_H
#define _LINUX_REGULATOR_CONSUMER_H
#include <linux/device.h>
struct regulator;
struct regulator *devm_regulator_get_optional(struct device *dev, const char *id);
int regulator_enable(struct regulator *r);
int regulator_disable(struct regulator *r);
#endif
