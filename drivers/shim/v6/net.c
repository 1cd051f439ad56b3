// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/net.c: network devices, NAPI, socket buffers, XDP queue
 * info and the stack above the driver at the shim's 6.x level. NAPI runs in
 * the NET_RX softirq of the RX interrupt core (fecsim_v6_net_rx_action,
 * with the kernel's netdev budget and time limit); napi_gro_receive hands
 * frames to the UDP stack cost model and socket that fecsim's own driver
 * uses (drivers/shim/udp_stack.h); freed skbs give their page back to its
 * page pool (drivers/shim/v6/page_pool.c).
 */
#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include "../simhost.h"
#include "../shim.h"
#include "fecsim_v6.h"

/* The stack model's parameters (stack.*, kernel.netdev_budget*) and
 * counters (snmp.*, softnet.*), set and read by the kernel host. */
static struct shim_net_config cfg;	/* set before the boot: fecsim_v6_stack_configure */
static struct shim_net_stats st;

struct fecsim_v6_net_stats fecsim_v6_net;

/* The sizes that set a driver's buffer layout are 32-bit ARM's: a page less
 * XDP headroom and the aligned shared info leaves fec's 3584-byte RX frame. */
_Static_assert(PAGE_SIZE == 4096 && L1_CACHE_BYTES == 32, "ARM32 page and cache line");
_Static_assert(PAGE_SIZE - XDP_PACKET_HEADROOM - SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) == 3584,
	       "skb_shared_info sized as on 32-bit ARM (fec: FEC_ENET_RX_FRSIZE = 3584)");

/* ------------------------------------------------------------ net_device */

static struct net_device *g_ndev;

struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs, unsigned int rxqs)
{
	struct net_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return NULL;
	dev->priv = kzalloc(ALIGN(sizeof_priv, 32), GFP_KERNEL);
	dev->_tx = kcalloc(txqs, sizeof(*dev->_tx), GFP_KERNEL);
	if (!dev->priv || !dev->_tx) {
		kfree(dev->priv);
		kfree(dev->_tx);
		kfree(dev);
		return NULL;
	}
	for (unsigned int i = 0; i < txqs; i++) {
		dev->_tx[i].dev = dev;
		spin_lock_init(&dev->_tx[i]._xmit_lock);
	}
	strscpy(dev->name, "eth%d", IFNAMSIZ);
	dev->num_tx_queues = dev->real_num_tx_queues = txqs;
	dev->num_rx_queues = dev->real_num_rx_queues = rxqs;
	dev->mtu = ETH_DATA_LEN;
	dev->min_mtu = ETH_ZLEN;
	dev->max_mtu = ETH_DATA_LEN;
	dev->addr_len = ETH_ALEN;
	dev->dev_addr = dev->addr_storage;
	dev->flags = IFF_BROADCAST | IFF_MULTICAST;
	dev->mc.list.next = dev->mc.list.prev = &dev->mc.list;
	dev->uc.list.next = dev->uc.list.prev = &dev->uc.list;
	dev->present = 1;
	memset(dev->broadcast, 0xff, ETH_ALEN);
	return dev;
}

void free_netdev(struct net_device *dev)
{
	if (!dev)
		return;
	if (dev->reg_state == NETREG_REGISTERED)
		simhost_stop("free_netdev of %s, which is still registered", dev->name);
	kfree(dev->_tx);
	kfree(dev->priv);
	kfree(dev);
}

int register_netdev(struct net_device *dev)
{
	if (g_ndev)
		return -EEXIST;
	for (const char *c = dev->name; *c; c++)
		if (*c == '%') {
			snprintf(dev->name, IFNAMSIZ, "eth0");	/* "eth%d": the board's only interface */
			break;
		}
	if (dev->netdev_ops && dev->netdev_ops->ndo_init && dev->netdev_ops->ndo_init(dev))
		return -EIO;
	dev->reg_state = NETREG_REGISTERED;
	dev->dev.init_name = dev->name;	/* the interface's device is named after it */
	g_ndev = dev;
	return 0;
}

void unregister_netdev(struct net_device *dev)
{
	if (dev->up && dev->netdev_ops->ndo_stop)
		dev->netdev_ops->ndo_stop(dev);
	dev->up = 0;
	dev->reg_state = NETREG_UNREGISTERED;
	if (g_ndev == dev)
		g_ndev = NULL;
}

struct net_device *shim_netdev_v6(void) { return g_ndev; }

/* dev_open: ndo_open with the RTNL held, then the device is up. */
int shim_dev_open_v6(struct net_device *dev)
{
	int ret;
	rtnl_lock();
	ret = dev->netdev_ops->ndo_open ? dev->netdev_ops->ndo_open(dev) : 0;
	if (!ret) {
		dev->up = 1;
		dev->flags |= IFF_UP;
		if (dev->netdev_ops->ndo_set_rx_mode)
			dev->netdev_ops->ndo_set_rx_mode(dev);
	}
	rtnl_unlock();
	return ret;
}

void netif_carrier_on(struct net_device *dev)
{
	if (!dev->carrier)
		fecsim_v6_net.carrier_changes++;
	dev->carrier = 1;
}

void netif_carrier_off(struct net_device *dev)
{
	if (dev->carrier)
		fecsim_v6_net.carrier_changes++;
	dev->carrier = 0;
}

void netif_tx_lock_bh(struct net_device *dev)
{
	local_bh_disable();
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		__netif_tx_lock(netdev_get_tx_queue(dev, i), 0);
}

void netif_tx_unlock_bh(struct net_device *dev)
{
	for (unsigned int i = dev->num_tx_queues; i-- > 0;)
		__netif_tx_unlock(netdev_get_tx_queue(dev, i));
	local_bh_enable();
}

u16 netdev_pick_tx(struct net_device *dev, struct sk_buff *skb, struct net_device *sb_dev)
{
	(void)sb_dev;
	return skb->queue_mapping < dev->real_num_tx_queues ? skb->queue_mapping : 0;
}

int eth_validate_addr(struct net_device *dev)
{
	return is_valid_ether_addr(dev->dev_addr) ? 0 : -EADDRNOTAVAIL;
}

/* Deterministic "random" bytes: the same for every run of a scenario. */
void get_random_bytes(void *buf, size_t n)
{
	static u32 x = 0x2545F491u;
	u8 *b = buf;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (u8)x;
	}
}

void eth_hw_addr_random(struct net_device *dev)
{
	u8 addr[ETH_ALEN];
	get_random_bytes(addr, ETH_ALEN);
	addr[0] &= 0xfe;	/* unicast */
	addr[0] |= 0x02;	/* locally administered */
	eth_hw_addr_set(dev, addr);
}

/* The frame's type for the stack (pkt_type) and its protocol. A frame for
 * another host (taken in promiscuous mode) is emptied, as at the 5.4 level
 * (drivers/shim/net.c), so that the stack model's first check drops it and
 * counts it as rx_otherhost (ip_rcv_core drops it unread). */
__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	skb->dev = dev;
	skb_reset_mac_header(skb);
	if (is_multicast_ether_addr(eth->h_dest))
		skb->pkt_type = is_broadcast_ether_addr(eth->h_dest) ? PACKET_BROADCAST : PACKET_MULTICAST;
	else if (!ether_addr_equal(eth->h_dest, dev->dev_addr)) {
		skb->pkt_type = PACKET_OTHERHOST;
		skb->len = ETH_HLEN;
	}
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	return eth->h_proto;
}

u32 crc32_le(u32 crc, const unsigned char *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return crc;
}

/* ------------------------------------------------------------ ethtool helpers */

u32 ethtool_op_get_link(struct net_device *dev) { return netif_carrier_ok(dev); }

int ethtool_op_get_ts_info(struct net_device *dev, FECSIM_ETHTOOL_TS_INFO *info)
{
	(void)dev;
	info->so_timestamping = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	info->phc_index = -1;
	return 0;
}

void ethtool_puts(u8 **data, const char *str)
{
	strscpy((char *)*data, str, ETH_GSTRING_LEN);
	memset(*data + strlen((char *)*data), 0, ETH_GSTRING_LEN - strlen((char *)*data));
	*data += ETH_GSTRING_LEN;
}

/* ------------------------------------------------------------ NAPI */

static struct napi_struct *g_poll_list;

void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight)
{
	napi->dev = dev;
	napi->poll = poll;
	napi->weight = weight;
	napi->next = NULL;
	napi->list_owner = -1;
	napi->rx_list = NULL;
	napi->rx_tail = &napi->rx_list;
	napi->rx_count = 0;
	napi->state = BIT(NAPI_STATE_SCHED);	/* disabled until napi_enable, as in the kernel */
}

void netif_napi_del(struct napi_struct *napi) { napi->poll = NULL; }

void napi_enable(struct napi_struct *n) { n->state = 0; }

void napi_disable(struct napi_struct *n)
{
	/* Polls run in the softirq, never concurrently with this caller. */
	for (struct napi_struct **p = &g_poll_list; *p; p = &(*p)->next)
		if (*p == n) {
			*p = n->next;
			break;
		}
	n->list_owner = -1;
	n->state = BIT(NAPI_STATE_SCHED) | BIT(NAPI_STATE_DISABLE);
}

bool napi_schedule_prep(struct napi_struct *n)
{
	if (n->state & (BIT(NAPI_STATE_SCHED) | BIT(NAPI_STATE_DISABLE)))
		return false;
	n->state |= BIT(NAPI_STATE_SCHED);
	return true;
}

void __napi_schedule(struct napi_struct *n)
{
	struct napi_struct **p = &g_poll_list;
	while (*p)
		p = &(*p)->next;
	n->next = NULL;
	n->list_owner = simhost_cpu();	/* ____napi_schedule */
	*p = n;
	simhost_raise_net_rx();
}

static void stack_receive(struct sk_buff *skb);

/* gro_normal_list: the batch of GRO_NORMAL skbs to the stack, in order.
 * The ones still waiting stay linked from the instance while the stack
 * works on one (the kernel walks napi->rx_list in place). */
static unsigned g_gro_pending;	/* skbs on every instance's rx_list */
static FECSIM_UNCOSTED void gro_pending_add(int n) { g_gro_pending += n; }

/* The frames the driver has handed to GRO and the stack has not taken yet
 * (the kernel host's frame balance). */
int fecsim_v6_gro_pending(void) { return (int)g_gro_pending; }

/* TCP GRO for the board's receiving socket (peer.tcp_send): the kernel
 * host (drivers/khost/board_stack.h) keeps the segments GRO holds per
 * instance, merges them as tcp_gro_receive would and, at the flush, hands
 * the aggregate to its TCP receiver; other frames take GRO_NORMAL. The
 * decision costs nothing of its own here: the host books GRO's work per
 * segment. 1: the host took the skb. */
static FECSIM_UNCOSTED int gro_tcp_receive(struct napi_struct *n, struct sk_buff *skb)
{
	if (skb->protocol != htons(ETH_P_IP))
		return 0;
	return simhost_gro_receive(n, skb, skb->data, skb->len, skb->truesize,
				   skb->ip_summed == CHECKSUM_UNNECESSARY);
}

/* napi_gro_flush: the aggregates the host holds for instance n go up. */
static FECSIM_UNCOSTED void gro_tcp_flush(struct napi_struct *n)
{
	simhost_gro_flush(n);
}

/* The board's TCP socket reads and frees the skbs the host took: n bytes
 * of payload at from copied to the user buffer (skb_copy_datagram_iter),
 * and an skb whose bytes were all read (or that duplicated what was
 * already there) freed, its page back to its pool. */
void fecsim_v6_skb_copy(const void *from, void *to, size_t n)
{
	int c = simhost_cat_enter(SIMHOST_CAT_COPY);
	memcpy(to, from, n);
	simhost_cat_leave(c);
}

void fecsim_v6_skb_consume(void *skb)
{
	consume_skb(skb);
}

static void gro_normal_list(struct napi_struct *n)
{
	struct sk_buff *skb;
	while ((skb = n->rx_list)) {
		n->rx_list = skb->next;
		if (!n->rx_list)
			n->rx_tail = &n->rx_list;
		skb->next = NULL;
		gro_pending_add(-1);
		stack_receive(skb);
	}
	n->rx_count = 0;
}

bool napi_complete_done(struct napi_struct *n, int work_done)
{
	(void)work_done;
	fecsim_v6_net.napi_complete++;
	gro_tcp_flush(n);
	gro_normal_list(n);
	n->list_owner = -1;
	n->state &= ~BIT(NAPI_STATE_SCHED);
	return true;
}

/* __napi_poll: a poll that used its whole weight stays scheduled (its
 * GRO_NORMAL batch is flushed first) unless a disable is pending. */
static int napi_poll(struct napi_struct *n, bool *repoll)
{
	int work = 0;
	uint64_t t0 = simhost_trace_mark();
	*repoll = false;
	if (n->state & BIT(NAPI_STATE_SCHED)) {
		work = n->poll(n, n->weight);
		fecsim_v6_net.napi_polls++;
	}
	simhost_trace_span("NAPI poll", t0, "work", work);
	if (work > n->weight)
		simhost_stop("NAPI poll of %s returned %d > weight %d", n->dev->name, work, n->weight);
	if (work < n->weight)
		return work;
	if (n->state & BIT(NAPI_STATE_DISABLE)) {
		napi_complete_done(n, work);
		return work;
	}
	gro_tcp_flush(n);	/* napi_gro_flush: all of them (HZ < 1000) */
	gro_normal_list(n);
	*repoll = true;
	return work;
}

/* NET_RX softirq (net_rx_action of 6.x): the scheduled NAPI instances are
 * polled in turn until none is left, the packet budget (netdev_budget) is
 * used up or the time limit (netdev_budget_usecs rounded up to jiffies) is
 * reached — then softnet time_squeeze counts; instances still to poll run
 * in the next softirq. */
void fecsim_v6_net_rx_action(void)
{
	unsigned long time_limit = jiffies + usecs_to_jiffies(cfg.netdev_budget_ns / 1000);
	int budget = (int)cfg.netdev_budget;
	struct napi_struct *list = g_poll_list, *repoll = NULL, **repoll_tail = &repoll;
	g_poll_list = NULL;
	while (list) {
		struct napi_struct *n = list;
		bool again;
		list = n->next;
		n->next = NULL;
		budget -= napi_poll(n, &again);
		if (again) {
			*repoll_tail = n;
			repoll_tail = &n->next;
		}
		if (budget <= 0 || time_after_eq(jiffies, time_limit)) {
			st.softnet_time_squeeze++;
			break;
		}
		simhost_preempt_point();
	}
	/* Not polled, then the ones to poll again, then newly scheduled ones. */
	{
		struct napi_struct **tail = &list;
		while (*tail)
			tail = &(*tail)->next;
		*tail = repoll;
		while (*tail)
			tail = &(*tail)->next;
		*tail = g_poll_list;
		g_poll_list = list;
	}
	if (g_poll_list)
		simhost_raise_net_rx();
}

/* ------------------------------------------------------------ XDP queue info */

int xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev, u32 queue_index, unsigned int napi_id)
{
	xdp_rxq->dev = dev;
	xdp_rxq->queue_index = queue_index;
	xdp_rxq->napi_id = napi_id;
	xdp_rxq->reg_state = 1;
	return 0;
}

/* The memory model of the queue's XDP frames: a page pool needs its pool
 * (xdp_reg_mem_model). Frames are returned to it only by XDP_TX/REDIRECT,
 * which stop the run (no XDP program can be attached: stop_on_call.list). */
int xdp_rxq_info_reg_mem_model(struct xdp_rxq_info *xdp_rxq, enum xdp_mem_type type, void *allocator)
{
	if (!xdp_rxq->reg_state)
		return -EINVAL;
	if (type == MEM_TYPE_PAGE_POOL && !allocator)
		return -EINVAL;
	xdp_rxq->mem.type = type;
	return 0;
}

void xdp_rxq_info_unreg(struct xdp_rxq_info *xdp_rxq) { xdp_rxq->reg_state = 0; }
bool xdp_rxq_info_is_reg(struct xdp_rxq_info *xdp_rxq) { return xdp_rxq->reg_state == 1; }

void xdp_features_set_redirect_target(struct net_device *dev, bool support_sg)
{
	(void)support_sg;
	dev->xdp_features |= NETDEV_XDP_ACT_NDO_XMIT;
}

void xdp_features_clear_redirect_target(struct net_device *dev) { dev->xdp_features &= ~NETDEV_XDP_ACT_NDO_XMIT; }

/* ------------------------------------------------------------ socket buffers */

/* The skb head as build_skb lays it out (__build_skb_around): the buffer of
 * frag_size bytes ends with the shared info, truesize is SKB_TRUESIZE of the
 * rest (the buffer plus the aligned struct sk_buff, the shim's layout).
 * site: the caller of the API function (memory checks). */
static struct sk_buff *skb_build(void *data, unsigned int frag_size, const void *site)
{
	struct sk_buff *skb;
	unsigned int size;
	if (!frag_size)
		simhost_stop_on_call("build_skb (frag_size 0: a kmalloc'ed head)", site);
	skb = simhost_kalloc(sizeof(*skb), 8, SIMHOST_MEM_SKB, site);
	if (!skb)
		return NULL;
	memset(skb, 0, sizeof(*skb));
	size = frag_size - SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	skb->head = skb->data = data;
	skb->tail = 0;
	skb->end = size;
	skb->truesize = SKB_TRUESIZE(size);
	skb->mac_header = (u16)~0U;
	skb->transport_header = (u16)~0U;
	skb->head_frag = 1;
	memset(skb_shinfo(skb), 0, offsetof(struct skb_shared_info, dataref));
	atomic_set(&skb_shinfo(skb)->dataref, 1);
	atomic_set(&skb->users.refs, 1);
	fecsim_v6_net.skb_alloc++;
	fecsim_v6_net.skb_truesize = skb->truesize;
	return skb;
}

/* build_skb/napi_build_skb: the sk_buff from its slab cache, costed as the
 * stack model's skb allocation (stack.alloc_cycles, as fecsim's own
 * driver's skbs are). */
static struct sk_buff *build_skb_costed(void *data, unsigned int frag_size, const void *site)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_ALLOC);
	struct sk_buff *skb;
	simhost_charge(cfg.alloc_cycles, SIMHOST_CAT_ALLOC);
	skb = skb_build(data, frag_size, site);
	simhost_cat_leave(prev);
	return skb;
}

struct sk_buff *build_skb(void *data, unsigned int frag_size)
{
	return build_skb_costed(data, frag_size, __builtin_return_address(0));
}

struct sk_buff *napi_build_skb(void *data, unsigned int frag_size)
{
	return build_skb_costed(data, frag_size, __builtin_return_address(0));
}

struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int len, gfp_t gfp)
{
	unsigned int size = SKB_DATA_ALIGN(len + NET_SKB_PAD) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	void *data = simhost_kalloc(size, SMP_CACHE_BYTES, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
	struct sk_buff *skb;
	(void)gfp;
	if (!data)
		return NULL;
	skb = skb_build(data, size, __builtin_return_address(0));
	if (!skb) {
		simhost_kfree(data, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
		return NULL;
	}
	skb->head_frag = 0;
	skb->dev = dev;
	skb_reserve(skb, NET_SKB_PAD);
	return skb;
}

/* skb_release_data + kfree_skbmem: the head of a page-pool skb goes back to
 * its pool (skb_pp_recycle), another head to its allocator; the sk_buff to
 * its cache (costed as stack.free_cycles). site: the caller of the API
 * function. */
static __attribute__((__noinline__)) void skb_release(struct sk_buff *skb, const void *site)
{
	shim_v6_tx_skb_free(skb);	/* a transmitted skb: its counters and page fragments */
	int prev = simhost_cat_enter(SIMHOST_CAT_ALLOC);
	simhost_charge(cfg.free_cycles, SIMHOST_CAT_ALLOC);
	if (!(skb->pp_recycle && shim_pp_put_page(virt_to_page(skb->head)))) {
		if (skb->pp_recycle || (skb->head_frag && skb->head == page_address(virt_to_page(skb->head))))
			simhost_stop("kfree_skb of an skb whose head is a page no pool owns (from %p)", site);
		simhost_kfree(skb->head, SIMHOST_MEM_SKB_DATA, site);
	}
	simhost_kfree(skb, SIMHOST_MEM_SKB, site);
	fecsim_v6_net.skb_free++;
	simhost_cat_leave(prev);
}

void kfree_skb(struct sk_buff *skb)
{
	if (skb)
		skb_release(skb, __builtin_return_address(0));
}

void consume_skb(struct sk_buff *skb)
{
	if (skb)
		skb_release(skb, __builtin_return_address(0));
}

void dev_kfree_skb_any(struct sk_buff *skb)
{
	if (skb)
		skb_release(skb, __builtin_return_address(0));
}

void napi_consume_skb(struct sk_buff *skb, int budget)
{
	(void)budget;
	if (skb)
		skb_release(skb, __builtin_return_address(0));
}

/* ------------------------------------------------------------ the stack above the driver */

/* The same cost model, socket and counters as fecsim's own driver's
 * (drivers/shim/udp_stack.h), compiled into this level with its skbs. */
#define UDP_STACK_NAME(n) fecsim_v6_##n
#define UDP_STACK_TAIL_AT(skb, n) ((skb)->tail = (unsigned int)((skb)->data - (skb)->head) + (n))
#include "../udp_stack.h"

void fecsim_v6_stack_configure(const struct shim_net_config *c) { cfg = *c; }
const struct shim_net_stats *fecsim_v6_stack_stats(void) { return &st; }
void fecsim_v6_stack_reset_stats(void) { memset(&st, 0, sizeof(st)); }

/* napi_gro_receive of 6.x: the board's TCP stream's segments to the
 * host's GRO (gro_tcp_receive); frames GRO does not merge (a UDP socket
 * without UDP_GRO) take GRO_NORMAL, queued on the instance's rx_list and given
 * to the stack by gro_normal_one in batches of gro_normal_batch (8), the
 * rest at the end of the poll (gro_normal_list). */
#define GRO_NORMAL_BATCH 8
gro_result_t napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb)
{
	fecsim_v6_net.rx_frames++;
	fecsim_v6_net.rx_bytes += skb->len;
	if (gro_tcp_receive(napi, skb))
		return GRO_MERGED;
	skb->next = NULL;
	*napi->rx_tail = skb;
	napi->rx_tail = &skb->next;
	gro_pending_add(1);
	if (++napi->rx_count >= GRO_NORMAL_BATCH)
		gro_normal_list(napi);
	return GRO_NORMAL;
}

int netif_receive_skb(struct sk_buff *skb)
{
	fecsim_v6_net.rx_frames++;
	fecsim_v6_net.rx_bytes += skb->len;
	stack_receive(skb);
	return 0;
}

/* The interface's counters, as ip -s link shows them. */
void fecsim_v6_netdev_counters(unsigned long long *rx_packets, unsigned long long *rx_dropped,
			       unsigned long long *rx_errors, unsigned long long *rx_fifo_errors)
{
	struct net_device *dev = g_ndev;
	*rx_packets = dev ? dev->stats.rx_packets : 0;
	*rx_dropped = dev ? dev->stats.rx_dropped : 0;
	*rx_errors = dev ? dev->stats.rx_errors : 0;
	*rx_fifo_errors = dev ? dev->stats.rx_fifo_errors : 0;
}
