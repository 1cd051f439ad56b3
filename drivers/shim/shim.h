/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drivers/shim/shim.h: what the shim runtime offers the simulator (sim/):
 * bring-up of the registered driver, softirq and stack entry points, the
 * UDP socket the application reads, and the counters under their kernel
 * names. C ABI; no kernel types leak out except as opaque pointers.
 */
#ifndef FECSIM_SHIM_H
#define FECSIM_SHIM_H
/* The shim's 6.x level (built with -nostdinc) has the types from <linux/types.h>. */
#if !(defined(_LINUX_TYPES_H) && defined(FECSIM_API_LEVEL))
#include <stddef.h>
#include <stdint.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Board description for the platform device the driver binds to. */
struct shim_board {
	const char *name;	/* platform driver name to bind ("fec") */
	uint64_t mmio_base, mmio_size;
	unsigned int irq;
};

/* The address the driver's probe gives the interface: eth_hw_addr_random()
 * is deterministic here (drivers/shim/net.c). */
#define SHIM_PROBE_MAC 0x020000000001ull

/* Network stack above the driver (docs/models/stack.md). */
struct shim_net_config {
	uint32_t stack_cycles;		/* per received frame: GRO, IP, UDP, socket enqueue */
	uint32_t stack_byte_millicycles;	/* per byte of frame, in 1/1000 cycles */
	uint32_t stack_meta_bytes;	/* kernel data read per frame beyond the modelled lines, B */
	uint32_t rcvbuf;		/* socket receive buffer, bytes of skb truesize */
	uint32_t recv_cycles;		/* recvmsg syscall path per datagram, copy excluded */
	uint32_t free_cycles;		/* kfree_skb */
	uint32_t alloc_cycles;		/* skb allocation (slab + page frag) */
	uint32_t udp_port;		/* destination port the socket is bound to */
	uint32_t netdev_budget;		/* net_rx_action packets per run */
	uint64_t netdev_budget_ns;	/* net_rx_action time per run */
	uint32_t tx_cycles;		/* per sent frame: sendmsg, UDP, IP, qdisc, copy excluded */
};

/* Counters under their kernel names (/proc/net/snmp, net_device stats, softnet_stat). */
struct shim_net_stats {
	uint64_t udp_in_datagrams, udp_rcvbuf_errors, udp_no_ports, udp_in_errors;
	uint64_t udp_in_csum_errors;	/* datagrams with a wrong UDP checksum, dropped by recvmsg */
	uint64_t ip_in_receives, ip_in_hdr_errors;
	uint64_t ip_in_csum_errors;	/* IPv4 headers with a wrong checksum (also in ip_in_hdr_errors) */
	uint64_t ip_in_truncated;	/* IPv4 total length beyond the frame: InTruncatedPkts, dropped */
	uint64_t udp_short;		/* UDP length beyond the datagram or below 8: dropped, in udp_in_errors */
	uint64_t softnet_processed, softnet_time_squeeze;
	uint64_t napi_polls, napi_complete;
	uint64_t skb_alloc, skb_free;
	uint64_t tx_sent, tx_busy;	/* frames handed to ndo_start_xmit; refused (queue stopped) */
	uint64_t rx_otherhost;		/* frames for another host's MAC (promiscuous mode), dropped */
	uint64_t ip_in_delivers_other;	/* TCP and ICMP datagrams the board's endpoints took */
};

int shim_set_param(const char *name, const char *value);	/* module_param; -ENOENT if unknown */
int shim_param_count(void);
const char *shim_param_name(int i);
int shim_run_initcalls(void);
int shim_probe(const struct shim_board *board);	/* probe the matching platform driver */
void *shim_netdev(void);				/* the registered net_device or NULL */
int shim_dev_open(void *ndev);
/* ip link set dev address MAC: ndo_set_mac_address (-EOPNOTSUPP without one). */
int shim_set_mac_address(void *ndev, const uint8_t *mac);
/* ip link set dev promisc on|off: IFF_PROMISC and ndo_set_rx_mode of an open device. */
int shim_set_promisc(void *ndev, int on);
/* IP_ADD_MEMBERSHIP of the receiving socket: the group's MAC (RFC 1112) goes
 * on the device's multicast list (dev_mc_add). -EINVAL if not 224.0.0.0/4. */
int shim_ip_mc_join(uint32_t group);
int shim_set_rx_copybreak(void *ndev, uint32_t bytes);	/* ethtool --set-tunable rx-copybreak */
int shim_get_rx_copybreak(void *ndev, uint32_t *bytes);
/* ethtool -S: fills up to max names (ETH_GSTRING_LEN each) and values; returns count. */
int shim_ethtool_stats(void *ndev, char (*names)[32], uint64_t *values, int max);
/* net_device stats (struct net_device_stats fields by name order of the struct). */
void shim_netdev_counters(void *ndev, uint64_t *rx_packets, uint64_t *rx_dropped,
			  uint64_t *rx_errors, uint64_t *rx_fifo_errors);

void shim_net_configure(const struct shim_net_config *cfg);
void shim_net_rx_action(void);		/* NET_RX softirq handler */
/* recvmsg on the bound socket: copies at most len bytes into buf (simulated
 * memory); returns the datagram length, or -EAGAIN if the queue is empty.
 * *ready_ns receives the time the datagram was queued. */
long shim_udp_recvmsg(void *buf, size_t len, uint64_t *ready_ns);
int shim_udp_queued(void);	/* datagrams in the socket queue now */
/* Send a frame (Ethernet header onwards, no FCS, from host memory) the way a
 * UDP socket's sendmsg reaches the driver: a new skb, the bytes copied in,
 * the per-frame transmit cost, ndo_start_xmit. Returns 0, or -EBUSY when the
 * driver's queue is stopped or it refused the frame (dropped, counted). */
int shim_dev_xmit(void *ndev, const void *frame, size_t len);		/* datagrams waiting in the socket */
const struct shim_net_stats *shim_net_stats(void);
void shim_net_reset_stats(void);

/* The transmit queue counters (drivers/shim/txq.c; the rows of
 * drivers/shim/v6/tx_stats.def): read, and restart a measurement. */
struct fecsim_v6_tx_stats;
const struct fecsim_v6_tx_stats *shim_txq_stats(void);
void shim_txq_reset(void);
/* Internal to the shim (drivers/shim/net.c calls them). */
struct sk_buff;
struct net_device;
struct netdev_queue;
void shim_txq_begin(struct sk_buff *skb);
void shim_txq_end(struct sk_buff *skb, int busy, const struct net_device *dev);
void shim_txq_free(struct sk_buff *skb);
void shim_txq_wake(const struct netdev_queue *q);

#ifdef __cplusplus
}
#endif
#endif
