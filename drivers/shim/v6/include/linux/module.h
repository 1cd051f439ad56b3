/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modules: module_init registers the init function with the shim when the
 * driver's object is loaded (a constructor); the shim runs it as the
 * module's initcall at boot. Module parameters keep their defaults.
 */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H
#include <linux/types.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/mod_devicetable.h>
struct module;
void shim_register_initcall(int (*fn)(void), void (*exit_fn)(void));
#define module_init(fn) \
	static void __attribute__((constructor)) __shim_init_##fn(void) { shim_register_initcall(fn, NULL); }
#define module_exit(fn)
#define module_driver(drv, reg, unreg, ...) \
	static int __init drv##_init(void) { return reg(&(drv), ##__VA_ARGS__); } \
	module_init(drv##_init);
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_ALIAS(x)
#define MODULE_DEVICE_TABLE(type, name)
#define MODULE_IMPORT_NS(ns)
#define THIS_MODULE ((struct module *)0)
#define EXPORT_SYMBOL(x)
#define EXPORT_SYMBOL_GPL(x)
#endif
