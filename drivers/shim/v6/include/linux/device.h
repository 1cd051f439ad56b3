/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver core as a driver sees it: struct device, its driver, managed
 * (devm_) allocations released when the device goes, and dev_* logging.
 */
#ifndef _LINUX_DEVICE_H
#define _LINUX_DEVICE_H
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/ioport.h>
#include <linux/gfp.h>
#include <linux/pm.h>
#include <linux/pm_wakeup.h>

struct device_node;
struct fwnode_handle;
struct module;
struct device;

struct device_driver {
	const char *name;
	struct module *owner;
	const struct of_device_id *of_match_table;
	const struct dev_pm_ops *pm;
	bool suppress_bind_attrs;
	int (*probe)(struct device *dev);
	int (*remove)(struct device *dev);
};

struct dev_pm_info {
	int usage_count;	/* pm_runtime_get/put balance */
	int active;		/* runtime-active (always, in the shim) */
	int autosuspend_delay;	/* ms */
	bool use_autosuspend;
	bool enabled;		/* pm_runtime_enable count > 0 */
	int disable_depth;
};

struct device {
	struct device *parent;
	const char *init_name;
	struct device_driver *driver;
	void *driver_data;
	void *platform_data;
	struct device_node *of_node;
	struct fwnode_handle *fwnode;
	struct dev_pm_info power;
	u64 *dma_mask;
	u64 coherent_dma_mask;
	struct list_head devres;	/* managed resources, newest first */
	int id;
};

const char *dev_name(const struct device *dev);
static inline void *dev_get_drvdata(const struct device *dev) { return dev->driver_data; }
static inline void dev_set_drvdata(struct device *dev, void *data) { dev->driver_data = data; }
static inline struct device_node *dev_of_node(struct device *dev) { return dev->of_node; }
static inline void *dev_get_platdata(const struct device *dev) { return dev->platform_data; }
void put_device(struct device *dev);
struct device *get_device(struct device *dev);
/* Managed resources with a release function (drivers/base/devres.c). */
typedef void (*dr_release_t)(struct device *dev, void *res);
void *devres_alloc(dr_release_t release, size_t size, gfp_t gfp);
void devres_add(struct device *dev, void *res);
void devres_free(void *res);

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp);
static inline void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	return devm_kmalloc(dev, size, gfp | __GFP_ZERO);
}
void devm_kfree(struct device *dev, const void *p);
int devm_add_action(struct device *dev, void (*action)(void *), void *data);
int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data);

#define dev_printk(level, dev, fmt, ...) simhost_log(level, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_err(dev, fmt, ...) dev_printk(3, dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...) dev_printk(4, dev, fmt, ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...) dev_printk(5, dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) dev_printk(6, dev, fmt, ##__VA_ARGS__)
#define dev_dbg(dev, fmt, ...) do { if (0) dev_printk(7, dev, fmt, ##__VA_ARGS__); } while (0)
#define dev_err_once dev_err
#define dev_warn_once dev_warn
#define dev_info_once dev_info
/* dev_err_probe: logs unless -EPROBE_DEFER, returns err. */
#define dev_err_probe(dev, err, fmt, ...) ({ \
	int __e = (err); \
	if (__e != -EPROBE_DEFER) \
		dev_err(dev, "error %d: " fmt, __e, ##__VA_ARGS__); \
	__e; })
#endif
