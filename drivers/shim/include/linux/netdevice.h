/* SPDX-License-Identifier: GPL-2.0 */
/* Network devices and NAPI (v5.4 semantics). */
#ifndef _LINUX_NETDEVICE_H
#define _LINUX_NETDEVICE_H
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/skbuff.h>

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

struct net_device;
struct ethtool_ops;

struct net_device_ops {
	int (*ndo_open)(struct net_device *dev);
	int (*ndo_stop)(struct net_device *dev);
	netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb, struct net_device *dev);
	int (*ndo_set_mac_address)(struct net_device *dev, void *addr);
	int (*ndo_change_mtu)(struct net_device *dev, int new_mtu);
	void (*ndo_tx_timeout)(struct net_device *dev);
	void (*ndo_set_rx_mode)(struct net_device *dev);
};

#define IFF_PROMISC 0x100
#define IFF_ALLMULTI 0x200

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
};

/* NAPI state bits. */
enum { NAPI_STATE_SCHED = 0, NAPI_STATE_DISABLE = 1 };

struct napi_struct {
	struct list_head poll_list;
	unsigned long state;
	int weight;
	int (*poll)(struct napi_struct *napi, int budget);
	struct net_device *dev;
};

/* The address of ndo_set_mac_address (linux/socket.h). */
struct sockaddr {
	unsigned short sa_family;
	char sa_data[14];
};

struct net_device {
	char name[IFNAMSIZ];
	unsigned char dev_addr[MAX_ADDR_LEN];
	unsigned char addr_len;
	unsigned int mtu;
	unsigned int min_mtu, max_mtu;
	unsigned int irq;
	unsigned long features, hw_features;
	unsigned int flags;
	int watchdog_timeo;
	struct net_device_stats stats;
	const struct net_device_ops *netdev_ops;
	const struct ethtool_ops *ethtool_ops;
	struct device dev;
	unsigned int num_tx_queues, real_num_tx_queues;
	unsigned int num_rx_queues;
	struct netdev_queue *_tx;
	struct netdev_hw_addr_list mc;	/* multicast addresses (dev_mc_add) */
	int carrier;
	int up;
};

#define NETIF_F_HW_CSUM (1UL << 0)
#define NETIF_F_RXCSUM (1UL << 1)
#define NETIF_F_SG (1UL << 2)
#define NETIF_F_IP_CSUM (1UL << 3)
#define NETIF_F_HW_VLAN_CTAG_RX (1UL << 4)
#define NETIF_F_TSO (1UL << 5)

#define SET_NETDEV_DEV(net, pdev) ((net)->dev.init_name = (pdev)->init_name)

static inline void *netdev_priv(const struct net_device *dev)
{
	return (char *)dev + ALIGN(sizeof(struct net_device), 32);
}

struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs, unsigned int rxqs);
#define alloc_etherdev(sizeof_priv) alloc_etherdev_mqs(sizeof_priv, 1, 1)
void free_netdev(struct net_device *dev);
/* Adds addr to the device's multicast list and, if the device is up, calls
 * ndo_set_rx_mode (as __dev_set_rx_mode does). */
int dev_mc_add(struct net_device *dev, const unsigned char *addr);
#define netdev_mc_count(dev) ((dev)->mc.count)
#define netdev_mc_empty(dev) (netdev_mc_count(dev) == 0)
#define netdev_for_each_mc_addr(ha, dev) list_for_each_entry(ha, &(dev)->mc.list, list)
int register_netdev(struct net_device *dev);
void unregister_netdev(struct net_device *dev);

static inline struct netdev_queue *netdev_get_tx_queue(const struct net_device *dev, unsigned int i)
{
	return &dev->_tx[i];
}
static inline void netif_tx_stop_queue(struct netdev_queue *q) { set_bit(__QUEUE_STATE_DRV_XOFF, &q->state); }
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
static inline void netif_tx_disable(struct net_device *dev)
{
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		netif_tx_stop_queue(netdev_get_tx_queue(dev, i));
}
static inline void netif_carrier_on(struct net_device *dev) { dev->carrier = 1; }
static inline void netif_carrier_off(struct net_device *dev) { dev->carrier = 0; }
static inline int netif_carrier_ok(const struct net_device *dev) { return dev->carrier; }
static inline int netif_running(const struct net_device *dev) { return dev->up; }

void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int), int weight);
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

enum gro_result { GRO_MERGED, GRO_MERGED_FREE, GRO_HELD, GRO_NORMAL, GRO_DROP, GRO_CONSUMED };
typedef enum gro_result gro_result_t;
gro_result_t napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb);
int netif_receive_skb(struct sk_buff *skb);

#define netdev_err(dev, fmt, ...) simhost_log(3, "%s: " fmt, (dev)->name, ##__VA_ARGS__)
#define netdev_warn(dev, fmt, ...) simhost_log(4, "%s: " fmt, (dev)->name, ##__VA_ARGS__)
#define netdev_info(dev, fmt, ...) simhost_log(6, "%s: " fmt, (dev)->name, ##__VA_ARGS__)
#define netdev_dbg(dev, fmt, ...) do { } while (0)
#endif
