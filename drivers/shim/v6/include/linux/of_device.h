/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_OF_DEVICE_H
#define _LINUX_OF_DEVICE_H
#include <linux/of.h>
#include <linux/device.h>
const struct of_device_id *of_match_device(const struct of_device_id *matches, const struct device *dev);
const void *of_device_get_match_data(const struct device *dev);
#endif
