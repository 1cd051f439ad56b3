// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/tx.c: the transmit side of the shim's 6.x level: the skb
 * the stack hands to ndo_start_xmit (dev_hard_start_xmit under the queue's
 * lock), queue stop and wake with the qdisc's reaction, and the counters of
 * the driver's TX ring as the stack sees it (skbs and descriptors the driver
 * holds, time from ndo_start_xmit to the skb's free).
 *
 * Descriptors an skb occupies: its head and one per page fragment (one
 * buffer each, as a scatter-gather MAC takes them); for a TSO skb, one per
 * tso_build_hdr (a segment's header) and one per tso_build_data call (a
 * payload piece) that the driver makes while sending it (drivers/shim/v6/tso.c).
 *
 * ndo_start_xmit runs to its end before the skb it sends can complete: the
 * MAC has not read a descriptor the driver has not yet handed over, so a
 * free of that skb inside the call is the driver dropping it.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include "../simhost.h"
#include "fecsim_v6.h"

static struct fecsim_v6_tx_stats g_st;

/* What the shim keeps of a transmitted skb while the driver holds it. It
 * lives in the host's memory, in a table keyed by the skb's address, not in
 * skb->cb: bookkeeping the simulated caches never see must not sit in
 * simulated memory, where a cache maintenance operation on a line it shares
 * with a DMA buffer would put back that line's older contents. */
struct tx_cb {
	const struct sk_buff *skb;	/* key; NULL: a free slot */
	u64 enq_ns;		/* time of ndo_start_xmit */
	u32 bds;		/* descriptors it occupies */
	u32 truesize;		/* its charge to the sending socket (B) */
	u32 sock;		/* that socket (fecsim_v6_tx_req.sock) */
};
/* More than the skbs a driver can hold: its TX rings' descriptors (4096 at
 * most per ring in the fec driver) and the one in ndo_start_xmit. */
#define TX_TAB_SIZE 16384u
static struct tx_cb g_tab[TX_TAB_SIZE];
static unsigned g_tab_used;

static FECSIM_UNCOSTED unsigned tx_hash(const struct sk_buff *skb)
{
	return (unsigned)(((unsigned long)skb >> 6) * 2654435761u) & (TX_TAB_SIZE - 1);
}

/* The skb's entry, or NULL if the driver does not hold it as a transmitted skb. */
static FECSIM_UNCOSTED struct tx_cb *tx_cb(const struct sk_buff *skb)
{
	for (unsigned i = tx_hash(skb);; i = (i + 1) & (TX_TAB_SIZE - 1)) {
		if (g_tab[i].skb == skb)
			return &g_tab[i];
		if (!g_tab[i].skb)
			return NULL;
	}
}

static FECSIM_UNCOSTED struct tx_cb *tx_cb_add(const struct sk_buff *skb)
{
	unsigned i = tx_hash(skb);

	if (g_tab_used >= TX_TAB_SIZE / 2)
		simhost_stop("fecsim_v6_xmit: more than %u transmitted skbs held by the driver", TX_TAB_SIZE / 2);
	while (g_tab[i].skb)
		i = (i + 1) & (TX_TAB_SIZE - 1);
	memset(&g_tab[i], 0, sizeof g_tab[i]);
	g_tab[i].skb = skb;
	g_tab_used++;
	return &g_tab[i];
}

/* Linear probing's deletion: the entries after the hole that hash at or
 * before it move back into it. */
static FECSIM_UNCOSTED void tx_cb_del(struct tx_cb *e)
{
	unsigned i = (unsigned)(e - g_tab), j = i;

	for (;;) {
		j = (j + 1) & (TX_TAB_SIZE - 1);
		if (!g_tab[j].skb)
			break;
		unsigned h = tx_hash(g_tab[j].skb);
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			g_tab[i] = g_tab[j];
			i = j;
		}
	}
	g_tab[i].skb = NULL;
	g_tab_used--;
}

/* The bookkeeping below reads fields directly (no inline helpers: those
 * would be instrumented copies). */
#define tx_shinfo(skb) ((struct skb_shared_info *)((skb)->head + (skb)->end))
#define tx_stopped(q) (((q)->state >> __QUEUE_STATE_DRV_XOFF) & 1)

/* ------------------------------------------------------------ levels over time */

static u64 g_skbs, g_bds;		/* in flight now */
static u64 g_level_t;			/* time the levels were last integrated, ns */
static u64 g_stopped_since;		/* ns; valid while the queue is stopped */
static int g_stopped;
static const struct sk_buff *g_xmit_skb;	/* inside its ndo_start_xmit */
static int g_xmit_dropped;
static void (*g_wake)(void *);
static void *g_wake_ctx;
static void (*g_wmem)(void *, unsigned int, long);
static void *g_wmem_ctx;

/* Integrate the levels up to now (core clocks may differ by a quantum:
 * time never runs backwards here). */
FECSIM_UNCOSTED static u64 levels_advance(void)
{
	u64 now = simhost_time_ns();
	if (now > g_level_t) {
		g_st.inflight_skb_ns_sum += g_skbs * (now - g_level_t);
		g_st.inflight_bd_ns_sum += g_bds * (now - g_level_t);
		g_level_t = now;
	}
	return g_level_t;
}

FECSIM_UNCOSTED static void levels_note_max(void)
{
	if (g_skbs > g_st.inflight_skb_max)
		g_st.inflight_skb_max = g_skbs;
	if (g_bds > g_st.inflight_bd_max)
		g_st.inflight_bd_max = g_bds;
}

FECSIM_UNCOSTED const struct fecsim_v6_tx_stats *fecsim_v6_tx_stats_read(void)
{
	u64 now = levels_advance();
	static struct fecsim_v6_tx_stats snap;
	snap = g_st;
	if (g_stopped && now > g_stopped_since)
		snap.stopped_ns += now - g_stopped_since;
	return &snap;
}

FECSIM_UNCOSTED void fecsim_v6_tx_reset(void)
{
	static const struct fecsim_v6_tx_stats zero;
	u64 now = levels_advance();
	g_st = zero;
	g_stopped_since = now;
	levels_note_max();
}

void fecsim_v6_tx_set_wake(void (*wake)(void *ctx), void *ctx)
{
	g_wake = wake;
	g_wake_ctx = ctx;
}

void fecsim_v6_tx_set_wmem(void (*wmem)(void *ctx, unsigned int sock, long delta), void *ctx)
{
	g_wmem = wmem;
	g_wmem_ctx = ctx;
}

/* ------------------------------------------------------------ queue state */

static FECSIM_UNCOSTED void tx_note_stop(const struct netdev_queue *q)
{
	if (!tx_stopped(q)) {
		g_st.stops++;
		g_stopped = 1;
		g_stopped_since = simhost_time_ns();
	}
}

static FECSIM_UNCOSTED void tx_note_wake(const struct netdev_queue *q)
{
	if (tx_stopped(q)) {
		u64 now = simhost_time_ns();
		g_st.wakes++;
		if (g_stopped && now > g_stopped_since)
			g_st.stopped_ns += now - g_stopped_since;
		g_stopped = 0;
	}
}

void netif_tx_stop_queue(struct netdev_queue *q)
{
	tx_note_stop(q);
	set_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
}

/* The queue runs again; the qdisc (__netif_schedule) resumes the sender. */
void netif_tx_wake_queue(struct netdev_queue *q)
{
	tx_note_wake(q);
	clear_bit(__QUEUE_STATE_DRV_XOFF, &q->state);
	if (g_wake)
		g_wake(g_wake_ctx);
}

/* ------------------------------------------------------------ skb free */

/* The counters of a transmitted skb's free; 0 if it is not one. It may come
 * from another core before the sender's ndo_start_xmit has returned (a
 * register access inside it synchronises the cores): the skb counts as in
 * flight from before the call (tx_note_begin), so nothing after the call
 * reads it. */
static FECSIM_UNCOSTED int tx_note_free(struct sk_buff *skb)
{
	struct tx_cb *e = tx_cb(skb), cb[1];
	u64 now;

	if (!e)
		return 0;
	cb[0] = *e;
	tx_cb_del(e);
	now = levels_advance();
	if (skb == g_xmit_skb) {
		g_xmit_dropped = 1;	/* freed inside its own ndo_start_xmit */
	} else {
		u64 lat = now > cb->enq_ns ? now - cb->enq_ns : 0;
		g_st.completed++;
		g_st.latency_ns_sum += lat;
		if (lat > g_st.latency_ns_max)
			g_st.latency_ns_max = lat;
	}
	g_skbs--;
	g_bds -= cb->bds;
	if (g_wmem)
		g_wmem(g_wmem_ctx, cb->sock, -(long)cb->truesize);
	return 1;
}

void shim_v6_tx_skb_free(struct sk_buff *skb)
{
	struct skb_shared_info *sh;

	if (!tx_note_free(skb))
		return;
	/* The page fragments the shim gave the skb go back with it. */
	sh = skb_shinfo(skb);
	for (unsigned int i = 0; i < sh->nr_frags; i++)
		__free_pages(virt_to_page(simhost_va(sh->frags[i].page_pa)), 0);
	sh->nr_frags = 0;
}

FECSIM_UNCOSTED void shim_v6_tx_count_bd(const struct sk_buff *skb, int hdr)
{
	struct tx_cb *cb = skb == g_xmit_skb ? tx_cb(skb) : NULL;

	if (!cb)
		return;
	cb->bds++;
	levels_advance();
	g_bds++;
	levels_note_max();
	if (hdr)
		g_st.gso_segments++;
}

/* ------------------------------------------------------------ ndo_start_xmit */

/* The pseudo-header sum (not complemented) the stack leaves in the L4
 * checksum field of a CHECKSUM_PARTIAL skb (udp4_hwcsum, tcp_v4_send_check). */
static u16 pseudo_sum(const struct iphdr *ip, unsigned int l4len)
{
	const u8 *a = (const u8 *)&ip->saddr;
	u32 s = 0;
	for (int i = 0; i < 8; i += 2)
		s += (u32)(a[i] << 8 | a[i + 1]);
	s += ip->protocol + l4len;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (u16)s;
}

static void put_be16(void *p, u16 v)
{
	u8 *b = p;
	b[0] = (u8)(v >> 8);
	b[1] = (u8)v;
}

/* The skb of r as the stack builds it for dev, or NULL (no memory; a
 * request the stack would not make stops the run). */
static struct sk_buff *tx_build_skb(struct net_device *dev, const struct fecsim_v6_tx_req *r)
{
	const unsigned int l3 = ETH_HLEN;
	const struct iphdr *ip0 = (const struct iphdr *)(r->frame + l3);
	unsigned int l4, l4h, head, fragsz, off;
	struct sk_buff *skb;
	struct skb_shared_info *sh;
	struct iphdr *ip;

	if (r->len < l3 + sizeof(struct iphdr) || ip0->version != 4 ||
	    (ip0->protocol != IPPROTO_UDP && ip0->protocol != IPPROTO_TCP && ip0->protocol != IPPROTO_ICMP))
		simhost_stop("fecsim_v6_xmit: not an IPv4 UDP, TCP or ICMP frame");
	if (ip0->protocol == IPPROTO_ICMP && (r->csum_offload || r->gso_size))
		simhost_stop("fecsim_v6_xmit: an ICMP frame with checksum offload or GSO (the stack sends neither)");
	l4 = l3 + ip0->ihl * 4;
	l4h = ip0->protocol == IPPROTO_TCP ? ((const struct tcphdr *)(r->frame + l4))->doff * 4 : 8;	/* UDP, ICMP */
	head = r->head_len ? r->head_len : r->len;
	if (head > r->len)
		head = r->len;
	/* A device without scatter-gather gets linear skbs (the stack copies). */
	if (!(dev->features & NETIF_F_SG))
		head = r->len;
	if (head < l4 + l4h)
		simhost_stop("fecsim_v6_xmit: linear head of %u bytes is shorter than the headers (%u)", head, l4 + l4h);
	fragsz = r->frag_bytes && r->frag_bytes < PAGE_SIZE ? r->frag_bytes : PAGE_SIZE;
	if ((r->len - head + fragsz - 1) / fragsz > MAX_SKB_FRAGS)
		simhost_stop("fecsim_v6_xmit: %u bytes past the head need more than MAX_SKB_FRAGS (%d) fragments of %u",
			     r->len - head, MAX_SKB_FRAGS, fragsz);
	if (r->gso_size && (!(dev->features & NETIF_F_TSO) || ip0->protocol != IPPROTO_TCP))
		simhost_stop("fecsim_v6_xmit: a TCP GSO skb for %s, which has no NETIF_F_TSO (software GSO is not "
			     "carried out by the shim)", dev->name);

	/* Headroom as the stack leaves it: the IP header 16-byte aligned
	 * (LL_RESERVED_SPACE), so the frame starts 2 bytes past a boundary. */
	skb = __netdev_alloc_skb(dev, head + NET_IP_ALIGN, GFP_KERNEL);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_IP_ALIGN);
	memcpy(skb_put(skb, head), r->frame, head);
	sh = skb_shinfo(skb);
	for (off = head; off < r->len; off += fragsz) {
		unsigned int n = r->len - off < fragsz ? r->len - off : fragsz;
		struct page *pg = alloc_pages(GFP_KERNEL, 0);
		if (!pg) {
			kfree_skb(skb);
			return NULL;
		}
		memcpy(page_address(pg), r->frame + off, n);
		sh->frags[sh->nr_frags].page_pa = (u32)pg->pa;
		sh->frags[sh->nr_frags].offset = 0;
		sh->frags[sh->nr_frags].len = n;
		sh->nr_frags++;
		skb->len += n;
		skb->data_len += n;
		skb->truesize += PAGE_SIZE;
	}
	skb->dev = dev;
	skb->protocol = htons(ETH_P_IP);
	skb_reset_mac_header(skb);
	skb->network_header = skb->mac_header + l3;
	skb->transport_header = skb->mac_header + l4;
	ip = ip_hdr(skb);
	if (r->csum_offload && (dev->features & (NETIF_F_IP_CSUM | NETIF_F_HW_CSUM))) {
		const unsigned int coff = ip->protocol == IPPROTO_TCP ? offsetof(struct tcphdr, check)
								       : offsetof(struct udphdr, check);
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb->transport_header;
		skb->csum_offset = coff;
		put_be16(skb_transport_header(skb) + coff, pseudo_sum(ip, r->len - l4));
	} else if (r->gso_size) {
		simhost_stop("fecsim_v6_xmit: TSO without checksum offload (tx.csum_offload) is not what the stack sends");
	}
	if (r->gso_size) {
		sh->gso_size = r->gso_size;
		sh->gso_segs = (r->len - l4 - l4h + r->gso_size - 1) / r->gso_size;
		sh->gso_type = SKB_GSO_TCPV4;
	}
	return skb;
}

/* Before ndo_start_xmit: the skb's mark, time and descriptors (a GSO skb's
 * are counted as the driver builds its segments), and from here it counts
 * as in flight, charged to its socket (sk_wmem_alloc). */
static FECSIM_UNCOSTED void tx_note_begin(struct sk_buff *skb, int gso, unsigned int sock)
{
	struct tx_cb *cb = tx_cb_add(skb);
	const unsigned int frags = tx_shinfo(skb)->nr_frags;

	if (frags)
		g_st.sg_skbs++;
	if (skb->ip_summed == CHECKSUM_PARTIAL)
		g_st.csum_partial++;
	cb->enq_ns = simhost_time_ns();
	cb->bds = gso ? 0 : 1 + frags;
	cb->truesize = skb->truesize;
	cb->sock = sock;
	levels_advance();
	g_skbs++;
	g_bds += cb->bds;
	levels_note_max();
	if (g_wmem)
		g_wmem(g_wmem_ctx, cb->sock, (long)cb->truesize);
	g_xmit_skb = skb;
	g_xmit_dropped = 0;
	g_st.xmits++;
}

/* After it: held by the driver (or already freed: tx_note_free), dropped
 * by it, or handed back (busy). Only a busy answer leaves the skb to the
 * caller, so only then is it read. */
static FECSIM_UNCOSTED void tx_note_end(struct sk_buff *skb, netdev_tx_t ret)
{
	g_xmit_skb = NULL;
	if (ret == NETDEV_TX_BUSY) {
		struct tx_cb *e = tx_cb(skb), cb[1];

		if (!e)
			return;	/* not possible: only the driver frees it, and then it answers OK */
		cb[0] = *e;
		tx_cb_del(e);
		g_st.xmits--;
		g_st.busy++;
		if (tx_shinfo(skb)->nr_frags)
			g_st.sg_skbs--;
		if (skb->ip_summed == CHECKSUM_PARTIAL)
			g_st.csum_partial--;
		levels_advance();
		g_skbs--;
		g_bds -= cb->bds;
		if (g_wmem)
			g_wmem(g_wmem_ctx, cb->sock, -(long)cb->truesize);
	} else if (g_xmit_dropped) {
		g_st.driver_drops++;
	}
}

FECSIM_UNCOSTED int fecsim_v6_tx_stopped(void)
{
	struct net_device *dev = shim_netdev_v6();

	return !dev || !dev->up || !netif_carrier_ok(dev) || netif_tx_queue_stopped(netdev_get_tx_queue(dev, 0));
}

FECSIM_UNCOSTED unsigned int fecsim_v6_tx_features(void)
{
	const struct net_device *dev = shim_netdev_v6();
	unsigned int f = 0;

	if (!dev)
		return 0;
	if (dev->features & NETIF_F_SG)
		f |= FECSIM_V6_TX_SG;
	if (dev->features & (NETIF_F_IP_CSUM | NETIF_F_HW_CSUM))
		f |= FECSIM_V6_TX_CSUM;
	if (dev->features & NETIF_F_TSO)
		f |= FECSIM_V6_TX_TSO;
	return f | ((dev->tso_max_segs ? dev->tso_max_segs : 65535) & 0xffff) << 8;
}

int fecsim_v6_xmit(const struct fecsim_v6_tx_req *r)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_STACK);
	struct net_device *dev = shim_netdev_v6();
	struct netdev_queue *nq;
	struct sk_buff *skb;
	netdev_tx_t ret;
	int rc = FECSIM_V6_TX_OK;

	if (!dev || !dev->up || !netif_carrier_ok(dev)) {
		simhost_cat_leave(prev);
		return FECSIM_V6_TX_STOPPED;
	}
	nq = netdev_get_tx_queue(dev, 0);
	local_bh_disable();
	__netif_tx_lock(nq, smp_processor_id());
	if (netif_tx_queue_stopped(nq)) {
		rc = FECSIM_V6_TX_STOPPED;
		goto out;
	}
	skb = tx_build_skb(dev, r);
	if (!skb) {
		rc = FECSIM_V6_TX_NOMEM;
		goto out;
	}
	tx_note_begin(skb, r->gso_size != 0, r->sock);
	ret = dev->netdev_ops->ndo_start_xmit(skb, dev);
	tx_note_end(skb, ret);
	if (ret == NETDEV_TX_BUSY) {
		/* The skb is still the stack's: the qdisc requeues it. */
		kfree_skb(skb);
		rc = FECSIM_V6_TX_STOPPED;
	} else {
		txq_trans_cond_update(nq);
	}
out:
	__netif_tx_unlock(nq);
	local_bh_enable();
	simhost_cat_leave(prev);
	return rc;
}
