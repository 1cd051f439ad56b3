/* SPDX-License-Identifier: GPL-2.0 */
/* GPIOs: the board description has none for the MAC (absent). */
#ifndef _LINUX_GPIO_CONSUMER_H
#define _LINUX_GPIO_CONSUMER_H
#include <linux/device.h>
struct gpio_desc;
enum gpiod_flags { GPIOD_ASIS = 0, GPIOD_IN = 1, GPIOD_OUT_LOW = 3, GPIOD_OUT_HIGH = 7 };
struct gpio_desc *devm_gpiod_get_optional(struct device *dev, const char *con_id, enum gpiod_flags flags);
void gpiod_set_value_cansleep(struct gpio_desc *desc, int value);
#endif
