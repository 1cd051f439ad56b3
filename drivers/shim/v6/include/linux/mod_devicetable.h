/* SPDX-License-Identifier: GPL-2.0 */
/* Device id tables a driver matches against. */
#ifndef _LINUX_MOD_DEVICETABLE_H
#define _LINUX_MOD_DEVICETABLE_H
#include <linux/types.h>
typedef unsigned long kernel_ulong_t;
#define PLATFORM_NAME_SIZE 20
struct platform_device_id {
	char name[PLATFORM_NAME_SIZE];
	kernel_ulong_t driver_data;
};
struct of_device_id {
	char name[32];
	char type[32];
	char compatible[128];
	const void *data;
};
#endif
