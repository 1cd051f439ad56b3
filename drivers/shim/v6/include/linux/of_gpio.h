/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_OF_GPIO_H
#define _LINUX_OF_GPIO_H
#include <linux/of.h>
#include <linux/device.h>
#define GPIOF_OUT_INIT_LOW 0
#define GPIOF_OUT_INIT_HIGH 2
static inline bool gpio_is_valid(int number) { return number >= 0; }
int devm_gpio_request_one(struct device *dev, unsigned int gpio, unsigned long flags, const char *label);
void gpio_set_value_cansleep(unsigned int gpio, int value);
int of_get_named_gpio(const struct device_node *np, const char *list_name, int index);
#endif
