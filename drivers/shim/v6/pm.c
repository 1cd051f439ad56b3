// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/pm.c: runtime PM, and the services the board does not
 * have. Runtime PM keeps the device active (it is never suspended) with
 * the kernel's usage count and enable depth, so that an unbalanced
 * get/put is caught. The "absent" services answer what the kernel answers
 * when the board has no such thing, each for the reason given with it.
 */
#include <linux/firmware/imx/sci.h>
#include <linux/gpio/consumer.h>
#include <linux/mfd/syscon.h>
#include <linux/of_gpio.h>
#include <linux/pinctrl/consumer.h>
#include <linux/pm_qos.h>
#include <linux/pm_runtime.h>
#include <linux/pm_wakeup.h>
#include <linux/regulator/consumer.h>
#include <soc/imx/cpuidle.h>
#include "fecsim_v6.h"

/* ------------------------------------------------------------ runtime PM */

static void usage_put(struct device *dev, const char *what)
{
	if (--dev->power.usage_count < 0)
		simhost_stop("%s on %s: runtime PM usage count below zero", what, dev_name(dev));
}

void pm_runtime_enable(struct device *dev)
{
	if (dev->power.disable_depth > 0)
		dev->power.disable_depth--;
	dev->power.enabled = dev->power.disable_depth == 0;
}

void pm_runtime_disable(struct device *dev)
{
	dev->power.disable_depth++;
	dev->power.enabled = false;
}

int pm_runtime_get_sync(struct device *dev)
{
	dev->power.usage_count++;
	return dev->power.active ? 1 : 0;
}

int pm_runtime_resume_and_get(struct device *dev)
{
	dev->power.usage_count++;
	dev->power.active = 1;
	return 0;
}

int pm_runtime_put(struct device *dev)
{
	usage_put(dev, "pm_runtime_put");
	return 0;
}

int pm_runtime_put_sync(struct device *dev) { return pm_runtime_put(dev); }

int pm_runtime_put_autosuspend(struct device *dev)
{
	usage_put(dev, "pm_runtime_put_autosuspend");
	return 0;
}

void pm_runtime_get_noresume(struct device *dev) { dev->power.usage_count++; }
void pm_runtime_put_noidle(struct device *dev)
{
	if (dev->power.usage_count > 0)
		dev->power.usage_count--;
}

int pm_runtime_set_active(struct device *dev)
{
	dev->power.active = 1;
	return 0;
}

void pm_runtime_set_autosuspend_delay(struct device *dev, int delay_ms) { dev->power.autosuspend_delay = delay_ms; }
void pm_runtime_use_autosuspend(struct device *dev) { dev->power.use_autosuspend = true; }
void pm_runtime_dont_use_autosuspend(struct device *dev) { dev->power.use_autosuspend = false; }
void pm_runtime_mark_last_busy(struct device *dev) { (void)dev; }
bool pm_runtime_status_suspended(struct device *dev) { return !dev->power.active; }

/* ------------------------------------------------------------ absent services */

/* Regulators: the board's tree gives the MAC no "phy-supply": -ENODEV, as
 * for an optional supply that is not described. */
struct regulator *devm_regulator_get_optional(struct device *dev, const char *id)
{
	(void)dev;
	(void)id;
	return ERR_PTR(-ENODEV);
}

/* Pin control: the tree has no pinctrl-names for the MAC: the kernel's
 * pinctrl_pm_select_*_state return 0 for a device without pin states. */
int pinctrl_pm_select_default_state(struct device *dev)
{
	(void)dev;
	return 0;
}

int pinctrl_pm_select_sleep_state(struct device *dev)
{
	(void)dev;
	return 0;
}

/* GPIOs: no "phy-reset-gpios": an optional GPIO that is not there is NULL. */
struct gpio_desc *devm_gpiod_get_optional(struct device *dev, const char *con_id, enum gpiod_flags flags)
{
	(void)dev;
	(void)con_id;
	(void)flags;
	return NULL;
}

/* Setting an absent (NULL) optional GPIO does nothing. */
void gpiod_set_value_cansleep(struct gpio_desc *desc, int value)
{
	(void)value;
	if (desc)
		simhost_stop("gpiod_set_value_cansleep on a GPIO the shim never handed out");
}

/* Legacy GPIO numbers: no "phy-reset-gpios" property: -ENOENT. */
int of_get_named_gpio(const struct device_node *np, const char *list_name, int index)
{
	(void)np;
	(void)list_name;
	(void)index;
	return -ENOENT;
}

/* System controllers: the tree has no "fsl,stop-mode" GPR; a lookup of a
 * node that is not a syscon fails with -EINVAL. */
struct regmap *syscon_node_to_regmap(struct device_node *np)
{
	(void)np;
	return ERR_PTR(-EINVAL);
}

/* CPU latency QoS: the simulated cores have no idle states to keep them
 * out of; a request is recorded and changes nothing. */
void cpu_latency_qos_add_request(struct pm_qos_request *req, s32 value)
{
	req->value = value;
	req->active = 1;
}

void cpu_latency_qos_remove_request(struct pm_qos_request *req) { req->active = 0; }

/* System wakeup: the simulated board never suspends, so no device is a
 * wakeup source; the calls succeed as on a system without wakeup events. */
int device_init_wakeup(struct device *dev, bool enable)
{
	(void)dev;
	(void)enable;
	return 0;
}

bool device_may_wakeup(struct device *dev)
{
	(void)dev;
	return false;
}

int device_set_wakeup_enable(struct device *dev, bool enable)
{
	(void)dev;
	(void)enable;
	return 0;
}

/* The interrupt controller model has no wake logic: -ENXIO as for a chip without irq_set_wake. */
int enable_irq_wake(unsigned int irq)
{
	(void)irq;
	return -ENXIO;
}

int disable_irq_wake(unsigned int irq)
{
	(void)irq;
	return -ENXIO;
}

/* i.MX6Q cpuidle (ERR006687: keep the cores out of WAIT while the MAC's
 * interrupts are used): the simulated cores have no WAIT mode to leave. */
void imx6q_cpuidle_fec_irqs_used(void) { }
void imx6q_cpuidle_fec_irqs_unused(void) { }

/* i.MX8 system controller firmware: not on an i.MX6Q; the driver asks only
 * for the i.MX8 quirk, and -ENODEV is the firmware-absent answer. */
int imx_scu_get_handle(struct imx_sc_ipc **ipc)
{
	*ipc = NULL;
	return -ENODEV;
}
