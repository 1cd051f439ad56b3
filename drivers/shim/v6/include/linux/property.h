/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PROPERTY_H
#define _LINUX_PROPERTY_H
#include <linux/of_device.h>
const void *device_get_match_data(const struct device *dev);
#endif
