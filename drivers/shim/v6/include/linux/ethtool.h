/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ethtool operations of a driver at the 6.x API level (kernel_ethtool_*
 * arguments; 6.12: ethtool_keee and kernel_ethtool_ts_info; 6.1:
 * ethtool_eee and ethtool_ts_info).
 */
#ifndef _LINUX_ETHTOOL_H
#define _LINUX_ETHTOOL_H
#include <linux/types.h>
#include <linux/bitops.h>
#define ETH_GSTRING_LEN 32
enum ethtool_stringset { ETH_SS_TEST = 0, ETH_SS_STATS = 1, ETH_SS_PRIV_FLAGS = 2 };
#define ETHTOOL_FWVERS_LEN 32
#define ETHTOOL_BUSINFO_LEN 32
#define ETHTOOL_EROMVERS_LEN 32

struct ethtool_drvinfo {
	u32 cmd;
	char driver[32];
	char version[32];
	char fw_version[ETHTOOL_FWVERS_LEN];
	char bus_info[ETHTOOL_BUSINFO_LEN];
	char erom_version[ETHTOOL_EROMVERS_LEN];
	char reserved2[12];
	u32 n_priv_flags, n_stats, testinfo_len, eedump_len, regdump_len;
};
struct ethtool_regs {
	u32 cmd;
	u32 version;
	u32 len;
};
struct ethtool_wolinfo {
	u32 cmd;
	u32 supported;
	u32 wolopts;
	u8 sopass[6];
};
#define WAKE_MAGIC (1 << 5)
struct ethtool_pauseparam {
	u32 cmd;
	u32 autoneg;
	u32 rx_pause;
	u32 tx_pause;
};
struct ethtool_coalesce {
	u32 cmd;
	u32 rx_coalesce_usecs, rx_max_coalesced_frames;
	u32 rx_coalesce_usecs_irq, rx_max_coalesced_frames_irq;
	u32 tx_coalesce_usecs, tx_max_coalesced_frames;
	u32 tx_coalesce_usecs_irq, tx_max_coalesced_frames_irq;
	u32 stats_block_coalesce_usecs;
	u32 use_adaptive_rx_coalesce, use_adaptive_tx_coalesce;
};
struct kernel_ethtool_coalesce {
	u8 use_cqe_mode_tx, use_cqe_mode_rx;
	u32 tx_aggr_max_bytes, tx_aggr_max_frames, tx_aggr_time_usecs;
};
#define ETHTOOL_COALESCE_RX_USECS BIT(0)
#define ETHTOOL_COALESCE_RX_MAX_FRAMES BIT(1)
#define ETHTOOL_COALESCE_TX_USECS BIT(4)
#define ETHTOOL_COALESCE_TX_MAX_FRAMES BIT(5)
#define ETHTOOL_COALESCE_USECS (ETHTOOL_COALESCE_RX_USECS | ETHTOOL_COALESCE_TX_USECS)
#define ETHTOOL_COALESCE_MAX_FRAMES (ETHTOOL_COALESCE_RX_MAX_FRAMES | ETHTOOL_COALESCE_TX_MAX_FRAMES)
struct ethtool_ringparam {
	u32 cmd;
	u32 rx_max_pending, rx_mini_max_pending, rx_jumbo_max_pending, tx_max_pending;
	u32 rx_pending, rx_mini_pending, rx_jumbo_pending, tx_pending;
};
struct kernel_ethtool_ringparam {
	u32 rx_buf_len;
	u8 tcp_data_split, tx_push, rx_push;
	u32 cqe_size, tx_push_buf_len, tx_push_buf_max_len;
};
struct ethtool_stats {
	u32 cmd;
	u32 n_stats;
	u64 data[];
};
struct ethtool_tunable {
	u32 cmd;
	u32 id;
	u32 type_id;
	u32 len;
	void *data[];
};
enum tunable_id { ETHTOOL_ID_UNSPEC, ETHTOOL_RX_COPYBREAK, ETHTOOL_TX_COPYBREAK };
enum tunable_type_id { ETHTOOL_TUNABLE_UNSPEC, ETHTOOL_TUNABLE_U8, ETHTOOL_TUNABLE_U16, ETHTOOL_TUNABLE_U32 };
struct ethtool_test {
	u32 cmd;
	u32 flags;
	u32 reserved;
	u32 len;
	u64 data[];
};

/* Link modes (the bits phylib and drivers use). */
enum ethtool_link_mode_bit_indices {
	ETHTOOL_LINK_MODE_10baseT_Half_BIT = 0,
	ETHTOOL_LINK_MODE_10baseT_Full_BIT = 1,
	ETHTOOL_LINK_MODE_100baseT_Half_BIT = 2,
	ETHTOOL_LINK_MODE_100baseT_Full_BIT = 3,
	ETHTOOL_LINK_MODE_1000baseT_Half_BIT = 4,
	ETHTOOL_LINK_MODE_1000baseT_Full_BIT = 5,
	ETHTOOL_LINK_MODE_Autoneg_BIT = 6,
	ETHTOOL_LINK_MODE_TP_BIT = 7,
	ETHTOOL_LINK_MODE_MII_BIT = 9,
	ETHTOOL_LINK_MODE_Pause_BIT = 13,
	ETHTOOL_LINK_MODE_Asym_Pause_BIT = 14,
	__ETHTOOL_LINK_MODE_MASK_NBITS = 128
};
#define __ETHTOOL_DECLARE_LINK_MODE_MASK(name) DECLARE_BITMAP(name, __ETHTOOL_LINK_MODE_MASK_NBITS)
static inline void linkmode_set_bit(int nr, unsigned long *a) { set_bit(nr, a); }
static inline void linkmode_clear_bit(int nr, unsigned long *a) { clear_bit(nr, a); }
static inline int linkmode_test_bit(int nr, const unsigned long *a) { return test_bit(nr, a); }

struct ethtool_link_ksettings {
	struct {
		u32 speed;
		u8 duplex, port, phy_address, autoneg;
	} base;
	struct {
		__ETHTOOL_DECLARE_LINK_MODE_MASK(supported);
		__ETHTOOL_DECLARE_LINK_MODE_MASK(advertising);
		__ETHTOOL_DECLARE_LINK_MODE_MASK(lp_advertising);
	} link_modes;
};

#if FECSIM_API_LEVEL >= 609
struct ethtool_keee {
	__ETHTOOL_DECLARE_LINK_MODE_MASK(supported);
	__ETHTOOL_DECLARE_LINK_MODE_MASK(advertised);
	__ETHTOOL_DECLARE_LINK_MODE_MASK(lp_advertised);
	u32 tx_lpi_timer;
	bool tx_lpi_enabled;
	bool eee_active;
	bool eee_enabled;
};
#define FECSIM_ETHTOOL_EEE struct ethtool_keee
#else
struct ethtool_eee {
	u32 cmd;
	u32 supported;
	u32 advertised;
	u32 lp_advertised;
	u32 eee_active;
	u32 eee_enabled;
	u32 tx_lpi_enabled;
	u32 tx_lpi_timer;
	u32 reserved[2];
};
#define FECSIM_ETHTOOL_EEE struct ethtool_eee
#endif

enum hwtstamp_tx_types { HWTSTAMP_TX_OFF, HWTSTAMP_TX_ON, HWTSTAMP_TX_ONESTEP_SYNC };
enum hwtstamp_rx_filters { HWTSTAMP_FILTER_NONE = 0, HWTSTAMP_FILTER_ALL = 1 };
#define SOF_TIMESTAMPING_TX_HARDWARE (1 << 0)
#define SOF_TIMESTAMPING_TX_SOFTWARE (1 << 1)
#define SOF_TIMESTAMPING_RX_HARDWARE (1 << 2)
#define SOF_TIMESTAMPING_RX_SOFTWARE (1 << 3)
#define SOF_TIMESTAMPING_SOFTWARE (1 << 4)
#define SOF_TIMESTAMPING_RAW_HARDWARE (1 << 6)

#if FECSIM_API_LEVEL >= 611
struct kernel_ethtool_ts_info {
	u32 cmd;
	u32 so_timestamping;
	int phc_index;
	enum hwtstamp_tx_types tx_types;
	enum hwtstamp_rx_filters rx_filters;
};
#define FECSIM_ETHTOOL_TS_INFO struct kernel_ethtool_ts_info
#else
struct ethtool_ts_info {
	u32 cmd;
	u32 so_timestamping;
	s32 phc_index;
	u32 tx_types;
	u32 tx_reserved[3];
	u32 rx_filters;
	u32 rx_reserved[3];
};
#define FECSIM_ETHTOOL_TS_INFO struct ethtool_ts_info
#endif

struct net_device;
struct netlink_ext_ack;

struct ethtool_ops {
	u32 supported_coalesce_params;
	void (*get_drvinfo)(struct net_device *, struct ethtool_drvinfo *);
	int (*get_regs_len)(struct net_device *);
	void (*get_regs)(struct net_device *, struct ethtool_regs *, void *);
	void (*get_wol)(struct net_device *, struct ethtool_wolinfo *);
	int (*set_wol)(struct net_device *, struct ethtool_wolinfo *);
	int (*nway_reset)(struct net_device *);
	u32 (*get_link)(struct net_device *);
	int (*get_coalesce)(struct net_device *, struct ethtool_coalesce *, struct kernel_ethtool_coalesce *,
			    struct netlink_ext_ack *);
	int (*set_coalesce)(struct net_device *, struct ethtool_coalesce *, struct kernel_ethtool_coalesce *,
			    struct netlink_ext_ack *);
	void (*get_ringparam)(struct net_device *, struct ethtool_ringparam *, struct kernel_ethtool_ringparam *,
			      struct netlink_ext_ack *);
	void (*get_pauseparam)(struct net_device *, struct ethtool_pauseparam *);
	int (*set_pauseparam)(struct net_device *, struct ethtool_pauseparam *);
	void (*self_test)(struct net_device *, struct ethtool_test *, u64 *);
	void (*get_strings)(struct net_device *, u32 stringset, u8 *);
	void (*get_ethtool_stats)(struct net_device *, struct ethtool_stats *, u64 *);
	int (*get_sset_count)(struct net_device *, int);
	int (*get_ts_info)(struct net_device *, FECSIM_ETHTOOL_TS_INFO *);
	int (*get_tunable)(struct net_device *, const struct ethtool_tunable *, void *);
	int (*set_tunable)(struct net_device *, const struct ethtool_tunable *, const void *);
	int (*get_eee)(struct net_device *, FECSIM_ETHTOOL_EEE *);
	int (*set_eee)(struct net_device *, FECSIM_ETHTOOL_EEE *);
	int (*get_link_ksettings)(struct net_device *, struct ethtool_link_ksettings *);
	int (*set_link_ksettings)(struct net_device *, const struct ethtool_link_ksettings *);
};

u32 ethtool_op_get_link(struct net_device *dev);
int ethtool_op_get_ts_info(struct net_device *dev, FECSIM_ETHTOOL_TS_INFO *info);
void ethtool_puts(u8 **data, const char *str);
#define DUPLEX_HALF 0x00
#define DUPLEX_FULL 0x01
#define DUPLEX_UNKNOWN 0xff
#define SPEED_10 10
#define SPEED_100 100
#define SPEED_1000 1000
#define SPEED_UNKNOWN -1
#define AUTONEG_DISABLE 0x00
#define AUTONEG_ENABLE 0x01
#define PORT_MII 0x02
#endif
