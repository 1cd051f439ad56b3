/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_ICMP_H
#define _LINUX_ICMP_H
#include <linux/types.h>
#endif
