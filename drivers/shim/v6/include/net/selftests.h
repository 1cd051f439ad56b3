/* SPDX-License-Identifier: GPL-2.0 */
/* ethtool -t's generic tests (net/core/selftests.c): the shim stops on them. */
#ifndef _NET_SELFTESTS_H
#define _NET_SELFTESTS_H
#include <linux/ethtool.h>
void net_selftest(struct net_device *ndev, struct ethtool_test *etest, u64 *buf);
int net_selftest_get_count(void);
void net_selftest_get_strings(u8 *data);
#endif
