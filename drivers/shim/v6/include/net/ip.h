/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NET_IP_H
#define _NET_IP_H
#include <linux/ip.h>
#endif
