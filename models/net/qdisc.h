// models/net/qdisc.h: the transmit queueing discipline the board's stack puts
// in front of the NIC driver, as a state machine without SystemC: fq_codel
// (the 6.x default, net.core.default_qdisc) or pfifo_fast (the built-in
// default qdisc, default_qdisc_ops), plus the requeue slot the qdisc layer
// keeps for a packet the driver refused (q->gso_skb). Packets are opaque
// handles with a length, a flow hash and a band; time is in ps. The caller
// (the board's stack, drivers/khost) enqueues what the socket layer sends,
// dequeues when the driver's queue runs (qdisc_restart), requeues what
// ndo_start_xmit answered NETDEV_TX_BUSY for, and frees what comes back in
// the dropped lists.
//
// Behaviour and constants: Linux 6.12 net/sched/sch_fq_codel.c
// (fq_codel_enqueue, fq_codel_drop, __fq_codel_dequeue, fq_codel_init),
// include/net/codel_impl.h (codel_should_drop, codel_dequeue,
// codel_Newton_step, codel_control_law), include/net/codel.h,
// net/sched/sch_generic.c (pfifo_fast_enqueue / _dequeue / _init,
// sch_default_prio2band, dev_requeue_skb, dequeue_skb),
// include/linux/ptr_ring.h (the band rings of pfifo_fast),
// include/net/pkt_sched.h (DEFAULT_TX_QUEUE_LEN, psched_mtu).
//
// Modelling choices:
// - CoDel time is kept in ps, not in the kernel's 1024-ns codel_time_t units
//   (MS2TIME(5) is 4999.168 us there); comparisons are the kernel's, without
//   its 32-bit wrap. The control law interval/sqrt(count) uses the kernel's
//   16-bit reciprocal square root updated by one Newton step per count
//   change (so count 2 gives interval * 0.50, not 0.71, as in the kernel).
//   Its quirk is kept: a bucket that never dropped has rec_inv_sqrt 0, and
//   if fq_codel_drop raised its count and it enters the dropping state
//   "recently" (within 16 intervals of drop_next, still 0), the step from 0
//   stays 0 and every packet above target is dropped. The kernel takes
//   that difference in its 32-bit clock from boot (signed, so "recent" for
//   about half of each 2^32 x 1024 ns); here time 0 is the caller's.
// - fq_codel buckets a packet by flow % fq_flows (the kernel scales the
//   32-bit skb hash: reciprocal_scale(hash, flows_cnt)); the caller's flow
//   value is taken to be a hash either way.
// - pfifo_fast's limit is per band, as in 6.12: each of the three bands is a
//   ptr_ring of tx_queue_len slots, and the ring frees consumed slots only a
//   batch at a time (__ptr_ring_discard_one), so a band can refuse a packet
//   with fewer than tx_queue_len queued.
//
// Not modelled: ECN (fq_codel's default ecn=1 marks only ECT packets; the
// board's traffic is not ECN-capable, so CoDel drops), ce_threshold, tc
// filters and skb->priority classification in fq_codel (every packet is
// hashed), the TCQ_F_CAN_BYPASS direct transmit of an empty qdisc (the same
// as an enqueue and an immediate dequeue here, with zero sojourn), byte
// queue limits and the txq stopped state (the caller's), bulk dequeue
// (try_bulk_dequeue_skb: the caller dequeues as often as it likes), the
// per-CPU statistics and NOLOCK locking of pfifo_fast, skb_bad_txq, and
// qdisc changes at run time (fq_codel_change's shrink loop).
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include "common/ticks.h"

namespace models::net {

// Return values of enqueue (include/linux/netdevice.h).
constexpr int NET_XMIT_SUCCESS = 0x00;
constexpr int NET_XMIT_DROP = 0x01;  // the new packet was dropped
constexpr int NET_XMIT_CN = 0x02;    // congestion: packets of the new packet's flow were dropped

enum qdisc_kind : uint32_t { QDISC_PFIFO_FAST = 0, QDISC_FQ_CODEL = 1 };

struct qdisc_config {
    uint32_t kind = QDISC_FQ_CODEL;   // 0 = pfifo_fast, 1 = fq_codel (6.x default qdisc: net.core.default_qdisc)
    uint32_t pfifo_limit = 1000;      // packets per band (dev->tx_queue_len, DEFAULT_TX_QUEUE_LEN)
    // Slots a pfifo_fast band ring frees at once (ptr_ring batch:
    // SMP_CACHE_BYTES * 2 / sizeof(void*) = 128 / 4 on 32-bit ARMv7 with
    // 64-byte lines; 1 when that exceeds half the ring).
    uint32_t pfifo_ring_batch = 32;
    uint32_t fq_limit = 10240;        // packets (fq_codel limit, sch->limit = 10*1024)
    uint32_t fq_flows = 1024;         // flow buckets (1..65536)
    uint32_t fq_quantum = 1514;       // bytes of DRR credit per round (psched_mtu: mtu + hard_header_len), at least 256
    uint64_t fq_memory_limit = 32u << 20;  // bytes of truesize
    uint32_t fq_drop_batch = 64;      // packets fq_codel_drop removes at most per call (at least 1)
    uint32_t codel_mtu = 1514;        // bytes: CoDel does not drop while the backlog is at most this (psched_mtu)
    tick_t codel_target_ps = 5000 * PS_PER_US;      // MS2TIME(5)
    tick_t codel_interval_ps = 100000 * PS_PER_US;  // MS2TIME(100)
};

struct qdisc_pkt {
    uint64_t id;        // the caller's handle (the qdisc never looks inside)
    uint32_t flow;      // flow hash the caller computed from the 5-tuple (fq_codel bucket: flow % fq_flows)
    uint32_t len;       // bytes (qdisc_pkt_len: skb->len; for a GSO skb the wire bytes of all its segments,
                        // as qdisc_pkt_len_init computes); at least 1
    uint32_t truesize;  // bytes charged against fq_codel's memory limit (skb->truesize)
    uint8_t band;       // pfifo_fast band 0..2 from the TOS priomap (0 = highest)
    tick_t enqueued;    // set by enqueue
};

struct qdisc_stats {
    uint64_t enqueued = 0;           // packets offered to enqueue
    uint64_t dequeued = 0;           // packets handed to the driver and not requeued
    uint64_t requeues = 0;           // packets given back by the driver (qstats.requeues)
    uint64_t drops_overlimit = 0;    // at enqueue: pfifo_fast tail drops; fq_codel_drop's drops (limit or memory)
    uint64_t drops_overmemory = 0;   // of drops_overlimit, fq_codel's while over the memory limit
    uint64_t drops_codel = 0;        // at dequeue by CoDel
    uint64_t ecn_marks = 0;          // always 0 (no ECN)
    uint64_t backlog_max_pkts = 0;   // most packets held after an enqueue
    uint64_t backlog_max_bytes = 0;  // most bytes held after an enqueue
    uint64_t new_flows = 0;          // fq_codel new_flow_count: buckets put on new_flows
    uint64_t sojourn_ps_sum = 0;     // enqueue to hand-out, over the dequeued packets
    uint64_t sojourn_ps_max = 0;
};

class qdisc {
public:
    explicit qdisc(const qdisc_config& cfg);
    // Enqueue p at `now`: NET_XMIT_SUCCESS, NET_XMIT_DROP (pfifo_fast: its
    // band full, p dropped) or NET_XMIT_CN (fq_codel: over a limit, and the
    // packets dropped were of p's bucket, p itself possibly among them).
    // Every packet dropped during the call is appended to *dropped; the
    // caller frees them.
    int enqueue(const qdisc_pkt& p, tick_t now, std::vector<qdisc_pkt>* dropped);
    // The next packet for the driver at `now` (false: empty): a requeued
    // packet first, else the discipline's choice; the packets CoDel drops on
    // the way are appended to *dropped.
    bool dequeue(tick_t now, qdisc_pkt* out, std::vector<qdisc_pkt>* dropped);
    // The driver refused p (NETDEV_TX_BUSY, or its queue was stopped): p goes
    // back in front of everything (dev_requeue_skb: head of q->gso_skb) and
    // is dequeued next. It counts in qlen and backlog (and in fq_codel's
    // packet limit) but not in a bucket or the memory usage.
    void requeue(const qdisc_pkt& p);

    uint32_t qlen() const { return m_qlen; }               // packets held, requeued ones included
    uint64_t backlog_bytes() const { return m_backlog; }   // bytes held, requeued ones included
    uint64_t memory_usage() const { return m_memory; }     // fq_codel: truesize bytes in the buckets
    const qdisc_config& config() const { return m_cfg; }
    const qdisc_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = qdisc_stats{}; }

private:
    static constexpr uint32_t NIL = ~0u;
    enum : uint8_t { LIST_NONE, LIST_NEW, LIST_OLD };

    // CoDel's per-queue state (struct codel_vars); times in ps.
    struct codel_vars {
        uint32_t count = 0;          // drops since entering the dropping state
        uint32_t lastcount = 0;      // count on entering it
        bool dropping = false;
        uint16_t rec_inv_sqrt = 0;   // 1/sqrt(count), Q0.16
        tick_t first_above_time = 0; // when the sojourn will have been above target for an interval (0: below)
        tick_t drop_next = 0;        // the next drop's time, or the last drop's
        tick_t ldelay = 0;           // sojourn of the last packet examined
    };
    struct flow {
        uint32_t head = NIL, tail = NIL;  // packet nodes, FIFO
        int64_t deficit = 0;               // DRR credit, bytes
        uint8_t list = LIST_NONE;          // which list the bucket is on
        codel_vars cv;
    };
    struct node {
        qdisc_pkt p;
        uint32_t next;
    };
    // One pfifo_fast band: a ptr_ring of `size` slots.
    struct ring {
        std::vector<qdisc_pkt> slot;
        std::vector<uint8_t> used;
        uint32_t producer = 0, consumer_head = 0, consumer_tail = 0, batch = 1;
    };

    int pfifo_enqueue(const qdisc_pkt& p, std::vector<qdisc_pkt>* dropped);
    bool pfifo_dequeue(qdisc_pkt* out);
    int fq_enqueue(const qdisc_pkt& p, std::vector<qdisc_pkt>* dropped);
    uint32_t fq_drop(std::vector<qdisc_pkt>* dropped);
    bool fq_dequeue(tick_t now, qdisc_pkt* out, std::vector<qdisc_pkt>* dropped);
    bool codel_dequeue(flow& f, uint32_t idx, tick_t now, qdisc_pkt* out, std::vector<qdisc_pkt>* dropped);
    bool codel_should_drop(const qdisc_pkt* p, codel_vars& cv, tick_t now) const;
    bool flow_pop(flow& f, uint32_t idx, qdisc_pkt* out);
    void handed_out(const qdisc_pkt& p, tick_t now);

    qdisc_config m_cfg;
    uint32_t m_qlen = 0;
    uint64_t m_backlog = 0;
    std::deque<qdisc_pkt> m_requeued;  // q->gso_skb, first out first
    // pfifo_fast
    ring m_band[3];
    // fq_codel
    std::vector<flow> m_flows;
    std::vector<uint64_t> m_backlogs;  // bytes per bucket
    std::deque<uint32_t> m_new, m_old; // bucket indices, head first
    std::vector<node> m_nodes;
    uint32_t m_free = NIL;             // free node chain
    uint64_t m_memory = 0;
    // The latest hand-out, undone from the sojourn sum if it is requeued.
    uint64_t m_last_id = 0;
    tick_t m_last_sojourn = 0;
    bool m_last_valid = false;
    qdisc_stats m_stats;
};

} // namespace models::net
