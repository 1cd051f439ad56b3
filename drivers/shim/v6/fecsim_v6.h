/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drivers/shim/v6/fecsim_v6.h: what the 6.x level of the shim, built into a
 * tree driver's shared object, offers the kernel host (looked up with dlsym
 * by drivers/khost/boot.cc). Plain C types only.
 */
#ifndef FECSIM_V6_H
#define FECSIM_V6_H
#ifdef __cplusplus
extern "C" {
#endif
struct fecsim_v6_board {
	const char *name;		/* platform device name ("imx6q-fec") */
	const char *dev_name;		/* its device name ("2188000.ethernet") */
	unsigned long long mmio_base, mmio_size;
	unsigned int irq;
	const void *dtb;		/* the board's flattened device tree (dtc output) */
	unsigned long dtb_size;
	const char *of_compatible;	/* the MAC's node: "fsl,imx6q-fec" */
};
/* The module's initcall, then the probe of the board's device: 0 or -errno. */
int fecsim_v6_boot(const struct fecsim_v6_board *b);
/* dev_open of the registered interface (ndo_open with the RTNL held): 0 or -errno. */
int fecsim_v6_open(void);
/* NET_RX softirq handler. */
void fecsim_v6_net_rx_action(void);
/* What the driver and its PHY show at the end of a run (ip link, ethtool),
 * as text lines into buf; returns the length written. */
int fecsim_v6_report(char *buf, int len);

/* Counters of the 6.x level's network side (the kernel host reads and
 * resets them as the stack's: drivers/khost/boot.cc). */
struct fecsim_v6_net_stats {
	unsigned long long rx_frames, rx_bytes;	/* handed to the stack by the driver */
	unsigned long long napi_polls, napi_complete;
	unsigned long long skb_alloc, skb_free;
	unsigned long long carrier_changes;
	unsigned long long skb_truesize;		/* truesize of the last skb built (B): its socket charge */
	/* page pools (struct page_pool_stats of net/core/page_pool.c), pages */
	unsigned long long pp_pools;			/* pools created */
	unsigned long long pp_alloc_fast, pp_alloc_slow;	/* from the cache; bulks from the page allocator */
	unsigned long long pp_alloc_empty, pp_alloc_refill;	/* ring empty at a refill; refills from the ring */
	unsigned long long pp_alloc_failed;		/* no page at all (the driver's refill fails) */
	unsigned long long pp_recycle_cached, pp_recycle_cache_full;	/* direct recycling into the cache */
	unsigned long long pp_recycle_ring, pp_recycle_ring_full;	/* into the ptr_ring; ring full */
	unsigned long long pp_recycle_released_refcnt;	/* released: more references than the pool's */
	unsigned long long pp_pages_released;		/* pages back to the page allocator */
};
/* Transmit (drivers/shim/v6/tx.c): one datagram or TCP send as the stack
 * hands it to the driver's ndo_start_xmit (dev_hard_start_xmit with the
 * queue's lock held). frame is a whole Ethernet II / IPv4 / UDP or TCP frame
 * without FCS, its IP header checksum and L4 checksum valid; the shim builds
 * the skb the stack would: linear head of head_len bytes (0: all), the rest
 * in page fragments of frag_bytes (at most a page), CHECKSUM_PARTIAL with the
 * pseudo-header sum in the L4 checksum field when csum_offload is set and the
 * device offers NETIF_F_IP_CSUM/HW_CSUM, and a TCP GSO skb (gso_size bytes
 * of payload a segment) when gso_size is set. */
struct fecsim_v6_tx_req {
	const unsigned char *frame;
	unsigned int len;		/* bytes, no FCS */
	unsigned int head_len;		/* bytes in the linear head; 0 = all */
	unsigned int frag_bytes;	/* bytes per page fragment; 0 = a page */
	unsigned int gso_size;		/* TCP payload bytes per segment; 0 = no GSO */
	int csum_offload;		/* leave the L4 checksum to the device */
	unsigned int sock;		/* the sending socket, passed back with its send-buffer charge */
};
/* Results of fecsim_v6_xmit. */
enum { FECSIM_V6_TX_OK = 0, FECSIM_V6_TX_STOPPED = 1, FECSIM_V6_TX_NOMEM = 2 };
/* Hands one frame to the driver: FECSIM_V6_TX_OK (the driver took it, or
 * dropped it itself: counted in fecsim_v6_tx_stats.driver_drops),
 * FECSIM_V6_TX_STOPPED (the queue is stopped or the driver answered
 * NETDEV_TX_BUSY: nothing was sent, the caller requeues and waits for the
 * wake callback) or FECSIM_V6_TX_NOMEM. */
int fecsim_v6_xmit(const struct fecsim_v6_tx_req *r);
/* The host's callback when the driver wakes a stopped queue (the qdisc's
 * __netif_schedule); ctx is passed back. */
void fecsim_v6_tx_set_wake(void (*wake)(void *ctx), void *ctx);
/* The host's callback for the sending socket's send-buffer charge
 * (sk_wmem_alloc): +truesize when the driver takes an skb, -truesize when
 * it frees it (TX completion); an skb the driver drops inside its
 * ndo_start_xmit is never charged. ctx and the request's sock are passed
 * back. */
void fecsim_v6_tx_set_wmem(void (*wmem)(void *ctx, unsigned int sock, long delta), void *ctx);
/* The device's transmit offloads once it is open: FECSIM_V6_TX_SG,
 * FECSIM_V6_TX_CSUM (NETIF_F_IP_CSUM or HW_CSUM), FECSIM_V6_TX_TSO
 * (NETIF_F_TSO), and its TSO segment limit (gso_max_segs) in bits 8..23. */
enum { FECSIM_V6_TX_SG = 1, FECSIM_V6_TX_CSUM = 2, FECSIM_V6_TX_TSO = 4 };
unsigned int fecsim_v6_tx_features(void);
/* Non-zero while a send would find the queue stopped (or the device down or
 * without carrier): netif_xmit_frozen_or_stopped, which the qdisc reads
 * before it dequeues. */
int fecsim_v6_tx_stopped(void);

/* Counters of the transmit side (tx_stats.def: one row a member). */
struct fecsim_v6_tx_stats {
#define S(member, desc, unit) unsigned long long member;
#include "tx_stats.def"
#undef S
};
/* The counters; fecsim_v6_tx_reset starts a new measurement (in-flight
 * levels kept, integrals and maxima restarted at the current level). */
const struct fecsim_v6_tx_stats *fecsim_v6_tx_stats_read(void);
void fecsim_v6_tx_reset(void);

/* Measurement code that must not cost simulated time: compiled without the
 * memory-access and basic-block instrumentation (a run's timing is that of
 * the same run without the counters). */
#define FECSIM_UNCOSTED __attribute__((__no_sanitize_thread__, __no_sanitize_coverage__, __noinline__))

/* The stack above the driver (drivers/shim/udp_stack.h) in the 6.x level,
 * with the config and counters of drivers/shim/shim.h:
 *   void fecsim_v6_stack_configure(const struct shim_net_config *);
 *   const struct shim_net_stats *fecsim_v6_stack_stats(void);
 *   void fecsim_v6_stack_reset_stats(void);
 *   int fecsim_v6_udp_queued(void);
 *   int fecsim_v6_gro_pending(void);	(skbs waiting in the NAPI instances' GRO_NORMAL lists)
 *   long fecsim_v6_udp_recvmsg(void *buf, size_t len, uint64_t *ready_ns);
 *   void fecsim_v6_netdev_counters(unsigned long long *rx_packets, *rx_dropped, *rx_errors, *rx_fifo_errors);
 */
/* Internal to the 6.x level (its .c files): */
#ifdef FECSIM_API_LEVEL
extern struct fecsim_v6_net_stats fecsim_v6_net;
struct device_node;
struct net_device;
void shim_time_init(void);
void shim_irq_wire(unsigned int irq);
int shim_of_init(const void *fdt, unsigned long size);
struct device_node *shim_of_find_compatible(const char *compat);
struct of_device_id;
/* A node that several entries of table match: its compatible cut to the
 * entry of its most specific one (drivers/shim/v6/board.c). */
void shim_of_prefer_compatible(const struct device_node *np, const struct of_device_id *table);
struct net_device *shim_netdev_v6(void);
int shim_dev_open_v6(struct net_device *dev);
struct sk_buff;
/* Called by the skb free path for every skb (drivers/shim/v6/net.c). */
void shim_v6_tx_skb_free(struct sk_buff *skb);
/* The skb whose tso_build_hdr/_data calls count its descriptors, or NULL. */
void shim_v6_tx_count_bd(const struct sk_buff *skb, int hdr);
#endif
#ifdef __cplusplus
}
#endif
#endif
