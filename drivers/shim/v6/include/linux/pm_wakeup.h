/* SPDX-License-Identifier: GPL-2.0 */
/* System wakeup: the simulated board does not suspend (no wakeup source). */
#ifndef _LINUX_PM_WAKEUP_H
#define _LINUX_PM_WAKEUP_H
#include <linux/types.h>
struct device;
int device_init_wakeup(struct device *dev, bool enable);
bool device_may_wakeup(struct device *dev);
int device_set_wakeup_enable(struct device *dev, bool enable);
#endif
