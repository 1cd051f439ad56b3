/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network devices, queues and NAPI at the 6.x API level (6.1 and 6.12:
 * const dev_addr written with eth_hw_addr_set, 3-argument netif_napi_add,
 * ndo_tx_timeout with the queue, ndo_eth_ioctl; 6.12: ndo_hwtstamp_get/set,
 * xdp_features).
 */
#ifndef _LINUX_NETDEVICE_H
#define _LINUX_NETDEVICE_H
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/spinlock.h>
#include <linux/skbuff.h>
#include <linux/netdev_features.h>
#include <linux/rtnetlink.h>
#include <linux/workqueue.h>
#include <linux/ethtool.h>
#include <linux/if_ether.h>

#define IFNAMSIZ 16
#define MAX_ADDR_LEN 32
#define NAPI_POLL_WEIGHT 64

typedef enum netdev_tx { NETDEV_TX_OK = 0x00, NETDEV_TX_BUSY = 0x10 } netdev_tx_t;

struct net_device_stats {
	unsigned long rx_packets, tx_packets, rx_bytes, tx_bytes;
	unsigned long rx_errors, tx_errors, rx_dropped, tx_dropped;
	unsigned long multicast, collisions;
	unsigned long rx_length_errors, rx_over_errors, rx_crc_errors, rx_frame_errors;
	unsigned long rx_fifo_errors, rx_missed_errors;
	unsigned long tx_aborted_errors, tx_carrier_errors, tx_fifo_errors;
	unsigned long tx_heartbeat_errors, tx_window_errors;
};

struct sockaddr {
	unsigned short sa_family;
	char sa_data[14];
};
struct net_device;
struct netlink_ext_ack;
struct netdev_bpf;
struct xdp_frame;
struct ifreq;
struct kernel_hwtstamp_config;
struct phy_device;
struct bpf_prog;

struct net_device_ops {
	int (*ndo_init)(struct net_device *dev);
	int (*ndo_open)(struct net_device *dev);
	int (*ndo_stop)(struct net_device *dev);
	netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb, struct net_device *dev);
	u16 (*ndo_select_queue)(struct net_device *dev, struct sk_buff *skb, struct net_device *sb_dev);
	void (*ndo_set_rx_mode)(struct net_device *dev);
	int (*ndo_set_mac_address)(struct net_device *dev, void *addr);
	int (*ndo_validate_addr)(struct net_device *dev);
	int (*ndo_eth_ioctl)(struct net_device *dev, struct ifreq *ifr, int cmd);
	int (*ndo_change_mtu)(struct net_device *dev, int new_mtu);
	void (*ndo_tx_timeout)(struct net_device *dev, unsigned int txqueue);
	int (*ndo_set_features)(struct net_device *dev, netdev_features_t features);
	int (*ndo_bpf)(struct net_device *dev, struct netdev_bpf *bpf);
	int (*ndo_xdp_xmit)(struct net_device *dev, int n, struct xdp_frame **xdp, u32 flags);
	int (*ndo_hwtstamp_get)(struct net_device *dev, struct kernel_hwtstamp_config *kernel_config);
	int (*ndo_hwtstamp_set)(struct net_device *dev, struct kernel_hwtstamp_config *kernel_config,
				struct netlink_ext_ack *extack);
};

#define IFF_UP 0x1
#define IFF_BROADCAST 0x2
#define IFF_PROMISC 0x100
#define IFF_ALLMULTI 0x200
#define IFF_MULTICAST 0x1000

struct netdev_hw_addr {
	struct list_head list;
	unsigned char addr[MAX_ADDR_LEN];
};
struct netdev_hw_addr_list {
	struct list_head list;
	int count;
};

#define __QUEUE_STATE_DRV_XOFF 0
struct netdev_queue {
	struct net_device *dev;
	unsigned long state;
	unsigned long trans_start;	/* jiffies */
	spinlock_t _xmit_lock;
};

enum { NAPI_STATE_SCHED = 0, NAPI_STATE_DISABLE = 1 };

struct napi_struct {
	struct napi_struct *next;	/* poll list of the core */
	unsigned long state;
	int weight;
	int (*poll)(struct napi_struct *napi, int budget);
	struct net_device *dev;
	int list_owner;			/* CPU whose poll list holds it, -1 if none */
	struct sk_buff *rx_list;	/* GRO_NORMAL skbs not yet given to the stack */
	struct sk_buff **rx_tail;
	int rx_count;
};

typedef u32 xdp_features_t;
#define NETDEV_XDP_ACT_BASIC (1U << 0)
#define NETDEV_XDP_ACT_REDIRECT (1U << 1)
#define NETDEV_XDP_ACT_NDO_XMIT (1U << 2)

enum netdev_reg_state { NETREG_UNINITIALIZED = 0, NETREG_REGISTERED, NETREG_UNREGISTERED };

struct net_device {
	char name[IFNAMSIZ];
	unsigned long base_addr;
	int irq;
	unsigned long state;
	netdev_features_t features, hw_features, wanted_features, vlan_features;
	const struct net_device_ops *netdev_ops;
	const struct ethtool_ops *ethtool_ops;
	unsigned int flags;
	unsigned int priv_flags;
	unsigned int mtu, min_mtu, max_mtu;
	unsigned short type;
	unsigned char addr_len;
	const unsigned char *dev_addr;	/* written with eth_hw_addr_set / dev_addr_set */
	unsigned char perm_addr[MAX_ADDR_LEN];
	unsigned char broadcast[MAX_ADDR_LEN];
	unsigned char addr_storage[MAX_ADDR_LEN];
	struct net_device_stats stats;
	int watchdog_timeo;
	unsigned int num_tx_queues, real_num_tx_queues;
	unsigned int num_rx_queues, real_num_rx_queues;
	struct netdev_queue *_tx;
	struct netdev_hw_addr_list mc, uc;
	struct phy_device *phydev;
	xdp_features_t xdp_features;
	unsigned int tso_max_segs;
	enum netdev_reg_state reg_state;
	int carrier;
	int up;
	int present;
	struct device dev;
	void *priv;
};

#define SET_NETDEV_DEV(net, pdev) ((net)->dev.parent = (pdev))

static inline void *netdev_priv(const struct net_device *dev) { return dev->priv; }

struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs, unsigned int rxqs);
#define alloc_etherdev(sizeof_priv) alloc_etherdev_mqs(sizeof_priv, 1, 1)
void free_netdev(struct net_device *dev);
int register_netdev(struct net_device *dev);
void unregister_netdev(struct net_device *dev);
static inline void dev_addr_set(struct net_device *dev, const u8 *addr)
{
	memcpy(dev->addr_storage, addr, dev->addr_len);
	dev->dev_addr = dev->addr_storage;
}
static inline void eth_hw_addr_set(struct net_device *dev, const u8 *addr)
{
	memcpy(dev->addr_storage, addr, 6);
	dev->dev_addr = dev->addr_storage;
}

#define netdev_mc_count(dev) ((dev)->mc.count)
#define netdev_mc_empty(dev) (netdev_mc_count(dev) == 0)
#define netdev_for_each_mc_addr(ha, dev) \
	for ((ha) = (dev)->mc.count ? container_of((dev)->mc.list.next, struct netdev_hw_addr, list) : NULL; \
	     (ha) && &(ha)->list != &(dev)->mc.list; \
	     (ha) = container_of((ha)->list.next, struct netdev_hw_addr, list))

static inline struct netdev_queue *netdev_get_tx_queue(const struct net_device *dev, unsigned int i)
{
	return &dev->_tx[i];
}
/* Stop and wake count as queue stops and wakes (drivers/shim/v6/tx.c). */
void netif_tx_stop_queue(struct netdev_queue *q);
static inline void netif_tx_start_queue(struct netdev_queue *q) { clear_bit(__QUEUE_STATE_DRV_XOFF, &q->state); }
void netif_tx_wake_queue(struct netdev_queue *q);
static inline int netif_tx_queue_stopped(const struct netdev_queue *q) { return test_bit(__QUEUE_STATE_DRV_XOFF, &q->state); }
static inline void netif_stop_queue(struct net_device *dev) { netif_tx_stop_queue(netdev_get_tx_queue(dev, 0)); }
static inline void netif_start_queue(struct net_device *dev) { netif_tx_start_queue(netdev_get_tx_queue(dev, 0)); }
static inline void netif_wake_queue(struct net_device *dev) { netif_tx_wake_queue(netdev_get_tx_queue(dev, 0)); }
static inline int netif_queue_stopped(const struct net_device *dev) { return netif_tx_queue_stopped(netdev_get_tx_queue(dev, 0)); }
static inline void netif_tx_start_all_queues(struct net_device *dev)
{
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		netif_tx_start_queue(netdev_get_tx_queue(dev, i));
}
static inline void netif_tx_wake_all_queues(struct net_device *dev)
{
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		netif_tx_wake_queue(netdev_get_tx_queue(dev, i));
}
static inline void netif_tx_disable(struct net_device *dev)
{
	/* An administrative stop (close, restart), not counted as the driver's flow control. */
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		set_bit(__QUEUE_STATE_DRV_XOFF, &netdev_get_tx_queue(dev, i)->state);
}
static inline void txq_trans_cond_update(struct netdev_queue *q) { q->trans_start = jiffies; }
static inline void __netif_tx_lock(struct netdev_queue *q, int cpu) { (void)cpu; spin_lock(&q->_xmit_lock); }
static inline void __netif_tx_unlock(struct netdev_queue *q) { spin_unlock(&q->_xmit_lock); }
void netif_tx_lock_bh(struct net_device *dev);
void netif_tx_unlock_bh(struct net_device *dev);
static inline void netif_tx_lock(struct net_device *dev) { netif_tx_lock_bh(dev); }
static inline void netif_tx_unlock(struct net_device *dev) { netif_tx_unlock_bh(dev); }
void netif_carrier_on(struct net_device *dev);
void netif_carrier_off(struct net_device *dev);
static inline bool netif_carrier_ok(const struct net_device *dev) { return dev->carrier; }
static inline bool netif_running(const struct net_device *dev) { return dev->up; }
static inline bool netif_device_present(const struct net_device *dev) { return dev->present; }
static inline void netif_device_detach(struct net_device *dev) { dev->present = 0; netif_tx_disable(dev); }
static inline void netif_device_attach(struct net_device *dev) { dev->present = 1; netif_tx_wake_all_queues(dev); }
static inline void netif_set_tso_max_segs(struct net_device *dev, unsigned int segs) { dev->tso_max_segs = segs; }
u16 netdev_pick_tx(struct net_device *dev, struct sk_buff *skb, struct net_device *sb_dev);
int netif_set_real_num_tx_queues(struct net_device *dev, unsigned int n);
int netif_set_real_num_rx_queues(struct net_device *dev, unsigned int n);

void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight);
static inline void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
				  int (*poll)(struct napi_struct *, int))
{
	netif_napi_add_weight(dev, napi, poll, NAPI_POLL_WEIGHT);
}
void netif_napi_del(struct napi_struct *napi);
void napi_enable(struct napi_struct *n);
void napi_disable(struct napi_struct *n);
bool napi_schedule_prep(struct napi_struct *n);
void __napi_schedule(struct napi_struct *n);
static inline void napi_schedule(struct napi_struct *n)
{
	if (napi_schedule_prep(n))
		__napi_schedule(n);
}
bool napi_complete_done(struct napi_struct *n, int work_done);
static inline bool napi_complete(struct napi_struct *n) { return napi_complete_done(n, 0); }

enum gro_result { GRO_MERGED, GRO_MERGED_FREE, GRO_HELD, GRO_NORMAL, GRO_CONSUMED };
typedef enum gro_result gro_result_t;
gro_result_t napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb);
int netif_receive_skb(struct sk_buff *skb);
void netdev_features_change(struct net_device *dev);

#define netdev_printk(level, dev, fmt, ...) simhost_log(level, "%s: " fmt, (dev)->name, ##__VA_ARGS__)
#define netdev_err(dev, fmt, ...) netdev_printk(3, dev, fmt, ##__VA_ARGS__)
#define netdev_warn(dev, fmt, ...) netdev_printk(4, dev, fmt, ##__VA_ARGS__)
#define netdev_info(dev, fmt, ...) netdev_printk(6, dev, fmt, ##__VA_ARGS__)
#define netdev_dbg(dev, fmt, ...) do { if (0) netdev_printk(7, dev, fmt, ##__VA_ARGS__); } while (0)
#define netdev_err_once netdev_err
#define netdev_warn_once netdev_warn
#define netif_err(priv, type, dev, fmt, ...) netdev_err(dev, fmt, ##__VA_ARGS__)
#define netif_info(priv, type, dev, fmt, ...) netdev_info(dev, fmt, ##__VA_ARGS__)

/* What these headers bring in the kernel too (XDP, page pools, ifreq). */
#include <net/xdp.h>
#include <net/page_pool/helpers.h>
#include <linux/if.h>
#endif
