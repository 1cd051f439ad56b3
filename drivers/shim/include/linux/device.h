/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_DEVICE_H
#define _LINUX_DEVICE_H
#include <linux/types.h>
#include <linux/printk.h>

struct device {
	const char *init_name;
	void *driver_data;
	u64 dma_mask;
};

static inline void *dev_get_drvdata(const struct device *dev) { return dev->driver_data; }
static inline void dev_set_drvdata(struct device *dev, void *data) { dev->driver_data = data; }
static inline const char *dev_name(const struct device *dev) { return dev->init_name ? dev->init_name : "fec"; }
#define dev_err(dev, fmt, ...) simhost_log(3, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...) simhost_log(4, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) simhost_log(6, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_dbg(dev, fmt, ...) do { } while (0)

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp);
#endif
