/* SPDX-License-Identifier: GPL-2.0 */
/* i.MX8 system controller firmware: not on an i.MX6Q (absent). */
#ifndef _LINUX_FIRMWARE_IMX_SCI_H
#define _LINUX_FIRMWARE_IMX_SCI_H
#include <linux/types.h>
struct imx_sc_ipc;
int imx_scu_get_handle(struct imx_sc_ipc **ipc);
int imx_sc_misc_set_control(struct imx_sc_ipc *ipc, u32 resource, u8 ctrl, u32 val);
#define IMX_SC_C_IPG_STOP 18
#endif
