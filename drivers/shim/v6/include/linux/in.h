/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IN_H
#define _LINUX_IN_H
#include <linux/types.h>
#define IPPROTO_ICMP 1
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17
#define IPPROTO_IPV6 41
#endif
