/* SPDX-License-Identifier: GPL-2.0 */
/* Module parameters: declared, kept at the driver's defaults. */
#ifndef _LINUX_MODULEPARAM_H
#define _LINUX_MODULEPARAM_H
#define module_param(name, type, perm) static void *const __shim_param_##name __maybe_unused = &name
#define module_param_array(name, type, nump, perm) static void *const __shim_param_##name __maybe_unused = &name
#define MODULE_PARM_DESC(name, desc)
#endif
