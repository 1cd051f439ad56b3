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
/* The stack above the driver (drivers/shim/udp_stack.h) in the 6.x level,
 * with the config and counters of drivers/shim/shim.h:
 *   void fecsim_v6_stack_configure(const struct shim_net_config *);
 *   const struct shim_net_stats *fecsim_v6_stack_stats(void);
 *   void fecsim_v6_stack_reset_stats(void);
 *   int fecsim_v6_udp_queued(void);
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
struct net_device *shim_netdev_v6(void);
int shim_dev_open_v6(struct net_device *dev);
#endif
#ifdef __cplusplus
}
#endif
#endif
