/* SPDX-License-Identifier: GPL-2.0 */
/* ethtool operations the simulator calls: tunables (rx-copybreak) and -S statistics. */
#ifndef _LINUX_ETHTOOL_H
#define _LINUX_ETHTOOL_H
#include <linux/types.h>
#define ETH_GSTRING_LEN 32
#define ETH_SS_STATS 1
enum tunable_id { ETHTOOL_ID_UNSPEC = 0, ETHTOOL_RX_COPYBREAK = 1, ETHTOOL_TX_COPYBREAK = 2 };
enum tunable_type_id { ETHTOOL_TUNABLE_UNSPEC = 0, ETHTOOL_TUNABLE_U32 = 5 };
struct ethtool_tunable {
	u32 cmd;
	u32 id;
	u32 type_id;
	u32 len;
};
struct ethtool_stats {
	u32 cmd;
	u32 n_stats;
};
struct net_device;
struct ethtool_ops {
	int (*get_tunable)(struct net_device *dev, const struct ethtool_tunable *t, void *data);
	int (*set_tunable)(struct net_device *dev, const struct ethtool_tunable *t, const void *data);
	int (*get_sset_count)(struct net_device *dev, int sset);
	void (*get_strings)(struct net_device *dev, u32 sset, u8 *data);
	void (*get_ethtool_stats)(struct net_device *dev, struct ethtool_stats *stats, u64 *data);
};
#endif
