/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _DT_BINDINGS_FIRMWARE_IMX_RSRC_H
#define _DT_BINDINGS_FIRMWARE_IMX_RSRC_H
#define IMX_SC_R_ENET_0 251
#define IMX_SC_R_ENET_1 252
#endif
