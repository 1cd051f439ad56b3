/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_NET_TSTAMP_H
#define _LINUX_NET_TSTAMP_H
#include <linux/ethtool.h>
#include <linux/if.h>
#include <linux/uaccess.h>
struct hwtstamp_config {
	int flags;
	int tx_type;
	int rx_filter;
};
struct kernel_hwtstamp_config {
	int flags;
	int tx_type;
	int rx_filter;
	struct ifreq *ifr;
	bool copied_to_user;
	int source;
};
#endif
