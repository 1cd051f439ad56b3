/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runtime PM: the device is always active (nothing is powered down); the
 * usage count and the enable depth are kept as the kernel keeps them, so
 * that an unbalanced get/put is visible (dev->power).
 */
#ifndef _LINUX_PM_RUNTIME_H
#define _LINUX_PM_RUNTIME_H
#include <linux/device.h>
void pm_runtime_enable(struct device *dev);
void pm_runtime_disable(struct device *dev);
int pm_runtime_get_sync(struct device *dev);
int pm_runtime_resume_and_get(struct device *dev);
int pm_runtime_put(struct device *dev);
int pm_runtime_put_sync(struct device *dev);
int pm_runtime_put_autosuspend(struct device *dev);
void pm_runtime_get_noresume(struct device *dev);
void pm_runtime_put_noidle(struct device *dev);
int pm_runtime_set_active(struct device *dev);
void pm_runtime_set_autosuspend_delay(struct device *dev, int delay_ms);
void pm_runtime_use_autosuspend(struct device *dev);
void pm_runtime_dont_use_autosuspend(struct device *dev);
void pm_runtime_mark_last_busy(struct device *dev);
bool pm_runtime_status_suspended(struct device *dev);
int pm_runtime_force_suspend(struct device *dev);
int pm_runtime_force_resume(struct device *dev);
#endif
