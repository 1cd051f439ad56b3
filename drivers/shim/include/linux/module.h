/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modules: module_init/module_exit register with the shim when the driver
 * object is loaded; module_param() values come from the scenario's [driver]
 * group (like modprobe options).
 */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H
#include <linux/types.h>
void shim_register_initcall(int (*fn)(void), void (*exit_fn)(void));
void shim_register_param(const char *name, const char *type, void *ptr);
#define module_init(fn) \
	static void __attribute__((constructor)) __shim_init_##fn(void) { shim_register_initcall(fn, NULL); }
#define module_exit(fn)
#define module_param(name, type, perm) \
	static void __attribute__((constructor)) __shim_param_##name(void) { shim_register_param(#name, #type, &name); }
#define MODULE_PARM_DESC(name, desc)
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_ALIAS(x)
#define THIS_MODULE NULL
#define EXPORT_SYMBOL(x)
#endif
