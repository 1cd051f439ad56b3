/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IF_H
#define _LINUX_IF_H
#include <linux/types.h>
struct ifreq {
	char ifr_name[16];
	union {
		void __user *ifru_data;
		int ifru_ivalue;
	} ifr_ifru;
};
#define ifr_data ifr_ifru.ifru_data
#define SIOCGHWTSTAMP 0x89b1
#define SIOCSHWTSTAMP 0x89b0
#endif
