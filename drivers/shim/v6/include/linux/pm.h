/* SPDX-License-Identifier: GPL-2.0 */
/* Power-management callbacks of a driver. */
#ifndef _LINUX_PM_H
#define _LINUX_PM_H
struct device;
struct dev_pm_ops {
	int (*suspend)(struct device *dev);
	int (*resume)(struct device *dev);
	int (*freeze)(struct device *dev);
	int (*thaw)(struct device *dev);
	int (*poweroff)(struct device *dev);
	int (*restore)(struct device *dev);
	int (*runtime_suspend)(struct device *dev);
	int (*runtime_resume)(struct device *dev);
	int (*runtime_idle)(struct device *dev);
};
#define SET_SYSTEM_SLEEP_PM_OPS(s, r) .suspend = s, .resume = r, .freeze = s, .thaw = r, .poweroff = s, .restore = r,
#define SET_RUNTIME_PM_OPS(s, r, i) .runtime_suspend = s, .runtime_resume = r, .runtime_idle = i,
#define SYSTEM_SLEEP_PM_OPS(s, r) SET_SYSTEM_SLEEP_PM_OPS(s, r)
#define RUNTIME_PM_OPS(s, r, i) SET_RUNTIME_PM_OPS(s, r, i)
#define DEFINE_SIMPLE_DEV_PM_OPS(name, s, r) const struct dev_pm_ops name = { SYSTEM_SLEEP_PM_OPS(s, r) }
#define pm_ptr(p) (p)
#define pm_sleep_ptr(p) (p)
#define __maybe_unused_pm __maybe_unused
#endif
