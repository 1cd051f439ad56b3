// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/txq.c: the transmit queue counters of fecsim's own driver
 * (the txq.* rows of drivers/shim/v6/tx_stats.def, as a kernel tree's driver
 * has them): skbs and descriptors the driver holds from ndo_start_xmit to
 * their free (one descriptor a skb: the sender's skbs are linear), queue
 * stops (seen after ndo_start_xmit) and wakes, latency. Bookkeeping only:
 * compiled without the memory-access and basic-block instrumentation
 * (FECSIM_UNCOSTED), so a run's timing is that of the same run without it.
 */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include "shim.h"
#include "v6/fecsim_v6.h"

static struct fecsim_v6_tx_stats g_st;
static uint64_t g_skbs, g_level_t, g_stopped_since;
static int g_stopped;
static const struct sk_buff *g_xmit_skb;
static int g_xmit_dropped;

/* What the counters keep in skb->cb of a transmitted skb, past the 8 bytes
 * the receive path uses for its time stamp. */
struct txq_cb {
	uint64_t rx_stamp;	/* not ours */
	uint64_t magic;
	uint64_t enq_ns;
};
#define TXQ_MAGIC 0x7478716f776eull
#define txq_cb(skb) ((struct txq_cb *)(skb)->cb)
_Static_assert(sizeof(struct txq_cb) <= sizeof(((struct sk_buff *)0)->cb), "txq_cb fits in skb->cb");

static FECSIM_UNCOSTED uint64_t levels_advance(void)
{
	uint64_t now = simhost_time_ns();
	if (now > g_level_t) {
		g_st.inflight_skb_ns_sum += g_skbs * (now - g_level_t);
		g_st.inflight_bd_ns_sum += g_skbs * (now - g_level_t);
		g_level_t = now;
	}
	return g_level_t;
}

FECSIM_UNCOSTED const struct fecsim_v6_tx_stats *shim_txq_stats(void)
{
	static struct fecsim_v6_tx_stats snap;
	uint64_t now = levels_advance();
	snap = g_st;
	if (g_stopped && now > g_stopped_since)
		snap.stopped_ns += now - g_stopped_since;
	return &snap;
}

FECSIM_UNCOSTED void shim_txq_reset(void)
{
	static const struct fecsim_v6_tx_stats zero;
	uint64_t now = levels_advance();
	g_st = zero;
	g_stopped_since = now;
	g_st.inflight_skb_max = g_st.inflight_bd_max = g_skbs;
}

FECSIM_UNCOSTED void shim_txq_begin(struct sk_buff *skb)
{
	txq_cb(skb)->magic = TXQ_MAGIC;
	txq_cb(skb)->enq_ns = simhost_time_ns();
	g_xmit_skb = skb;
	g_xmit_dropped = 0;
	g_st.xmits++;
}

FECSIM_UNCOSTED void shim_txq_end(struct sk_buff *skb, int busy, const struct net_device *dev)
{
	const struct netdev_queue *q = &dev->_tx[0];

	g_xmit_skb = NULL;
	if (busy) {
		g_st.xmits--;
		g_st.busy++;
		txq_cb(skb)->magic = 0;
	} else if (g_xmit_dropped) {
		g_st.driver_drops++;
	} else {
		levels_advance();
		g_skbs++;
		if (g_skbs > g_st.inflight_skb_max)
			g_st.inflight_skb_max = g_st.inflight_bd_max = g_skbs;
	}
	/* The driver stops its queue inside ndo_start_xmit. */
	if (((q->state >> __QUEUE_STATE_DRV_XOFF) & 1) && !g_stopped) {
		g_st.stops++;
		g_stopped = 1;
		g_stopped_since = simhost_time_ns();
	}
}

FECSIM_UNCOSTED void shim_txq_free(struct sk_buff *skb)
{
	if (txq_cb(skb)->magic != TXQ_MAGIC)
		return;
	txq_cb(skb)->magic = 0;
	if (skb == g_xmit_skb) {
		g_xmit_dropped = 1;
		return;
	}
	uint64_t now = levels_advance();
	uint64_t lat = now > txq_cb(skb)->enq_ns ? now - txq_cb(skb)->enq_ns : 0;
	g_st.completed++;
	g_st.latency_ns_sum += lat;
	if (lat > g_st.latency_ns_max)
		g_st.latency_ns_max = lat;
	g_skbs--;
}

FECSIM_UNCOSTED void shim_txq_wake(const struct netdev_queue *q)
{
	if ((q->state >> __QUEUE_STATE_DRV_XOFF) & 1) {
		uint64_t now = simhost_time_ns();
		g_st.wakes++;
		if (g_stopped && now > g_stopped_since)
			g_st.stopped_ns += now - g_stopped_since;
		g_stopped = 0;
	}
}
