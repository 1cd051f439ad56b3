// SPDX-License-Identifier: GPL-2.0
/*
 * The network core the driver talks to: socket buffers, net_device, NAPI and
 * net_rx_action (v5.4 semantics), and the receive stack above the driver as a
 * cost model (GRO/IP/UDP: a per-frame and per-byte cycle charge plus the
 * header and socket lines really touched) ending in one UDP socket with a
 * receive-buffer limit, read by the application task (recvmsg).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "shim.h"

static struct shim_net_config cfg = {
	.stack_cycles = 12000, .rcvbuf = 196608, .recv_cycles = 3000, .free_cycles = 100,
	.alloc_cycles = 300, .udp_port = 5201, .netdev_budget = 300, .netdev_budget_ns = 20000000,
};
static struct shim_net_stats st;

void shim_net_configure(const struct shim_net_config *c) { cfg = *c; }
const struct shim_net_stats *shim_net_stats(void) { return &st; }
void shim_net_reset_stats(void) { memset(&st, 0, sizeof(st)); }

/* ---------------------------------------------------------------- skbs -- */

#define SKB_HEAD_SIZE SKB_DATA_ALIGN(sizeof(struct sk_buff))
#define SKB_SHINFO_SIZE SKB_DATA_ALIGN(sizeof(struct skb_shared_info))

/* site: the caller of the allocating API function, for the memory checks. */
static struct sk_buff *skb_alloc(struct net_device *dev, unsigned int len, unsigned int reserve,
				 int napi, const void *site)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_ALLOC);
	unsigned int size = SKB_DATA_ALIGN(len + reserve);
	struct sk_buff *skb;
	u8 *data;

	simhost_charge(cfg.alloc_cycles, SIMHOST_CAT_ALLOC);
	skb = simhost_kalloc(sizeof(*skb), SMP_CACHE_BYTES, SIMHOST_MEM_SKB, site);
	/* Up to a page with its shared info: a page fragment of the core's
	 * cache (__netdev_alloc_skb, __napi_alloc_skb); larger: kmalloc. */
	if (!skb)
		data = NULL;
	else if (size + SKB_SHINFO_SIZE <= PAGE_SIZE)
		data = simhost_frag_alloc(size + SKB_SHINFO_SIZE, napi, site);
	else
		data = simhost_kalloc(size + SKB_SHINFO_SIZE, SMP_CACHE_BYTES, SIMHOST_MEM_SKB_DATA, site);
	if (!data) {
		if (skb)
			simhost_kfree(skb, SIMHOST_MEM_SKB, site);
		simhost_cat_leave(prev);
		return NULL;
	}
	memset(skb, 0, offsetof(struct sk_buff, head));
	skb->head = data;
	skb->data = data;
	skb->tail = data;
	skb->end = data + size;
	skb->truesize = SKB_HEAD_SIZE + size + SKB_SHINFO_SIZE;
	memset(skb_shinfo(skb), 0, 8);
	skb_reserve(skb, reserve);
	skb->dev = dev;
	st.skb_alloc++;
	simhost_cat_leave(prev);
	return skb;
}

struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int length, gfp_t gfp)
{
	(void)gfp;
	return skb_alloc(dev, length, NET_SKB_PAD, 0, __builtin_return_address(0));
}

struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int length)
{
	return skb_alloc(dev, length, NET_SKB_PAD, 0, __builtin_return_address(0));
}

struct sk_buff *netdev_alloc_skb_ip_align(struct net_device *dev, unsigned int length)
{
	return skb_alloc(dev, length + NET_IP_ALIGN, NET_SKB_PAD + NET_IP_ALIGN, 0, __builtin_return_address(0));
}

struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int length)
{
	return skb_alloc(napi->dev, length + NET_IP_ALIGN, NET_SKB_PAD + NET_IP_ALIGN, 1, __builtin_return_address(0));
}

/*
 * site: the caller of the freeing API function. Each of them tests for NULL
 * and calls skb_free, as the compiler laid them out before (the per-function
 * and per-block cost of the path is unchanged).
 */
static __attribute__((__noinline__, __noclone__)) void skb_free(struct sk_buff *skb, const void *site)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_ALLOC);

	shim_txq_free(skb);
	simhost_charge(cfg.free_cycles, SIMHOST_CAT_ALLOC);
	simhost_kfree(skb->head, SIMHOST_MEM_SKB_DATA, site);
	simhost_kfree(skb, SIMHOST_MEM_SKB, site);
	st.skb_free++;
	simhost_cat_leave(prev);
}

void kfree_skb(struct sk_buff *skb)
{
	if (skb)
		skb_free(skb, __builtin_return_address(0));
}

void consume_skb(struct sk_buff *skb)
{
	if (skb)
		skb_free(skb, __builtin_return_address(0));
}

void dev_kfree_skb_any(struct sk_buff *skb)
{
	if (skb)
		skb_free(skb, __builtin_return_address(0));
}

void dev_consume_skb_any(struct sk_buff *skb)
{
	if (skb)
		skb_free(skb, __builtin_return_address(0));
}

/*
 * A frame for another host (taken in promiscuous mode). ip_rcv_core drops it
 * before reading anything; here the frame is emptied (nothing but the
 * Ethernet header is left for eth_type_trans to pull), so the stack's first
 * check stops it and counts it as rx_otherhost. Out of line: only frames for
 * another host pay for it.
 */
static __attribute__((__noinline__, __noclone__)) void skb_for_other_host(struct sk_buff *skb)
{
	skb->pkt_type = PACKET_OTHERHOST;
	skb->len = ETH_HLEN;
}

__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	const u8 *eth = skb->data;
	__be16 proto;

	skb->dev = dev;
	if (is_multicast_ether_addr(eth))
		skb->pkt_type = 1;
	else if (memcmp(eth, dev->dev_addr, ETH_ALEN))
		skb_for_other_host(skb);
	proto = (__be16)(eth[12] | eth[13] << 8);
	skb_pull(skb, ETH_HLEN);
	skb->protocol = proto;
	return proto;
}

void eth_hw_addr_random(struct net_device *dev)
{
	/* deterministic: SHIM_PROBE_MAC (shim.h), the default soc.mac_address */
	static const u8 addr[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

	memcpy(dev->dev_addr, addr, ETH_ALEN);
	dev->addr_len = ETH_ALEN;
}

/* ---------------------------------------------------------- net_device -- */

struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs, unsigned int rxqs)
{
	size_t sz = ALIGN(sizeof(struct net_device), 32) + (size_t)sizeof_priv;
	struct net_device *dev = kzalloc(sz, GFP_KERNEL);

	if (!dev)
		return NULL;
	dev->_tx = kcalloc(txqs, sizeof(*dev->_tx), GFP_KERNEL);
	if (!dev->_tx) {
		kfree(dev);
		return NULL;
	}
	for (unsigned int i = 0; i < txqs; i++)
		dev->_tx[i].dev = dev;
	dev->num_tx_queues = dev->real_num_tx_queues = txqs;
	dev->num_rx_queues = rxqs;
	strlcpy(dev->name, "eth0", sizeof(dev->name));
	dev->mtu = ETH_DATA_LEN;
	dev->addr_len = ETH_ALEN;
	INIT_LIST_HEAD(&dev->mc.list);
	return dev;
}

int dev_mc_add(struct net_device *dev, const unsigned char *addr)
{
	struct netdev_hw_addr *ha;

	netdev_for_each_mc_addr(ha, dev)
		if (!memcmp(ha->addr, addr, dev->addr_len))
			return 0;
	ha = kzalloc(sizeof(*ha), GFP_ATOMIC);
	if (!ha)
		return -ENOMEM;
	memcpy(ha->addr, addr, dev->addr_len);
	list_add_tail(&ha->list, &dev->mc.list);
	dev->mc.count++;
	if (dev->up && dev->netdev_ops && dev->netdev_ops->ndo_set_rx_mode)
		dev->netdev_ops->ndo_set_rx_mode(dev);
	return 0;
}

int shim_ip_mc_join(uint32_t group)
{
	struct net_device *dev = shim_netdev();
	/* RFC 1112: 01:00:5e and the low 23 bits of the group */
	const u8 mac[ETH_ALEN] = { 0x01, 0x00, 0x5e, (group >> 16) & 0x7f, (group >> 8) & 0xff, group & 0xff };

	if (!dev)
		return -ENODEV;
	if ((group >> 28) != 0xe)
		return -EINVAL;
	return dev_mc_add(dev, mac);
}

void free_netdev(struct net_device *dev)
{
	kfree(dev->_tx);
	kfree(dev);
}

void netif_tx_wake_queue(struct netdev_queue *q)
{
	shim_txq_wake(q);
	netif_tx_start_queue(q);
}

/* ---------------------------------------------------------------- NAPI -- */

static struct list_head poll_list = { &poll_list, &poll_list };

#define napi_of(l) container_of((l), struct napi_struct, poll_list)

static void list_splice_tail_init(struct list_head *from, struct list_head *to)
{
	if (list_empty(from))
		return;
	from->next->prev = to->prev;
	to->prev->next = from->next;
	from->prev->next = to;
	to->prev = from->prev;
	INIT_LIST_HEAD(from);
}

void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int), int weight)
{
	INIT_LIST_HEAD(&napi->poll_list);
	napi->poll = poll;
	napi->weight = weight;
	napi->dev = dev;
	napi->state = 0;
	set_bit(NAPI_STATE_SCHED, &napi->state);
}

void netif_napi_del(struct napi_struct *napi)
{
	if (!list_empty(&napi->poll_list))
		list_del_init(&napi->poll_list);
}

void napi_enable(struct napi_struct *n)
{
	clear_bit(NAPI_STATE_DISABLE, &n->state);
	clear_bit(NAPI_STATE_SCHED, &n->state);
}

void napi_disable(struct napi_struct *n)
{
	set_bit(NAPI_STATE_DISABLE, &n->state);
	set_bit(NAPI_STATE_SCHED, &n->state);
	if (!list_empty(&n->poll_list))
		list_del_init(&n->poll_list);
}

bool napi_schedule_prep(struct napi_struct *n)
{
	if (test_bit(NAPI_STATE_DISABLE, &n->state))
		return false;
	return !test_and_set_bit(NAPI_STATE_SCHED, &n->state);
}

void __napi_schedule(struct napi_struct *n)
{
	list_add_tail(&n->poll_list, &poll_list);
	simhost_raise_net_rx();
}

bool napi_complete_done(struct napi_struct *n, int work_done)
{
	(void)work_done;
	clear_bit(NAPI_STATE_SCHED, &n->state);
	st.napi_complete++;
	return true;
}

static int napi_poll(struct napi_struct *n, struct list_head *repoll)
{
	int weight = n->weight, work = 0;
	/* Unconditional calls (no branch): the timeline costs the simulated
	 * core nothing, recorded or not. */
	uint64_t t0 = simhost_trace_mark();

	if (test_bit(NAPI_STATE_SCHED, &n->state)) {
		work = n->poll(n, weight);
		st.napi_polls++;
	}
	simhost_trace_span("NAPI poll", t0, "work", work);
	if (work > weight)
		simhost_stop("NAPI poll of %s returned %d > weight %d", n->dev->name, work, weight);
	if (work < weight)
		return work;
	if (test_bit(NAPI_STATE_DISABLE, &n->state)) {
		napi_complete_done(n, work);
		return work;
	}
	list_add_tail(&n->poll_list, repoll);
	return work;
}

/*
 * v5.4 net_rx_action: each NAPI instance on the list is polled once per run
 * (a full one goes back on the list for the next run); the run ends early,
 * counting softnet time_squeeze, when the packet budget is used up or the
 * jiffies counter reached the time limit (netdev_budget_usecs rounded up to
 * jiffies: 2 jiffies at HZ=100). With the one NAPI instance of a single-queue
 * MAC a run polls once (weight 64 < budget 300), so only a poll that
 * outlasts the window counts, as on a board.
 */
void shim_net_rx_action(void)
{
	unsigned long time_limit = jiffies + usecs_to_jiffies(cfg.netdev_budget_ns / 1000);
	struct list_head list, repoll;
	int budget = (int)cfg.netdev_budget;

	INIT_LIST_HEAD(&list);
	INIT_LIST_HEAD(&repoll);
	list_splice_tail_init(&poll_list, &list);
	for (;;) {
		struct napi_struct *n;

		if (list_empty(&list))
			break;
		n = napi_of(list.next);
		list_del_init(&n->poll_list);
		budget -= napi_poll(n, &repoll);
		if (budget <= 0 || time_after_eq(jiffies, time_limit)) {
			st.softnet_time_squeeze++;
			break;
		}
		simhost_preempt_point();
	}
	list_splice_tail_init(&poll_list, &list);
	list_splice_tail_init(&repoll, &list);
	list_splice_tail_init(&list, &poll_list);
	if (!list_empty(&poll_list))
		simhost_raise_net_rx();
}

#define UDP_STACK_NAME(n) shim_##n
#define UDP_STACK_TAIL_AT(skb, n) ((skb)->tail = (skb)->data + (n))
#include "udp_stack.h"


gro_result_t napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb)
{
	(void)napi;
	stack_receive(skb);
	return GRO_NORMAL;
}

int netif_receive_skb(struct sk_buff *skb)
{
	stack_receive(skb);
	return 0;
}

int shim_dev_xmit(void *ndev, const void *frame, size_t len)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_STACK);
	struct net_device *dev = ndev;
	struct sk_buff *skb;
	netdev_tx_t ret;

	simhost_charge(cfg.tx_cycles, SIMHOST_CAT_STACK);
	if (!dev->up || netif_queue_stopped(dev)) {
		st.tx_busy++;
		simhost_cat_leave(prev);
		return -EBUSY;
	}
	skb = netdev_alloc_skb(dev, len);
	if (!skb) {
		st.tx_busy++;
		simhost_cat_leave(prev);
		return -ENOMEM;
	}
	memcpy(skb_put(skb, len), frame, len);
	skb->protocol = htons(ETH_P_IP);
	shim_txq_begin(skb);
	ret = dev->netdev_ops->ndo_start_xmit(skb, dev);
	shim_txq_end(skb, ret != NETDEV_TX_OK, dev);
	if (ret != NETDEV_TX_OK) {
		kfree_skb(skb);
		st.tx_busy++;
		simhost_cat_leave(prev);
		return -EBUSY;
	}
	st.tx_sent++;
	simhost_cat_leave(prev);
	return 0;
}

