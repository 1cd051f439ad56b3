/* SPDX-License-Identifier: GPL-2.0 */
/* Platform data of the FEC (boards without a device tree). */
#ifndef _LINUX_FEC_H
#define _LINUX_FEC_H
#include <linux/phy.h>
struct fec_platform_data {
	phy_interface_t phy;
	unsigned char mac[6];
	void (*sleep_mode_enable)(int enabled);
};
#endif
