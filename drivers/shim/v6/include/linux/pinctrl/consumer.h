/* SPDX-License-Identifier: GPL-2.0 */
/* Pin control: no pin states in the board description (absent). */
#ifndef _LINUX_PINCTRL_CONSUMER_H
#define _LINUX_PINCTRL_CONSUMER_H
#include <linux/device.h>
int pinctrl_pm_select_default_state(struct device *dev);
int pinctrl_pm_select_sleep_state(struct device *dev);
#endif
