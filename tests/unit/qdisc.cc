// Transmit queueing disciplines (models/net/qdisc.h): pfifo_fast's per-band
// tail drop, strict band priority and ring batching; the requeue slot;
// fq_codel's byte-fair DRR, new-flow priority, drops from the fattest bucket
// over the packet and memory limits; CoDel's target, MTU exemption and drop
// schedule; and the statistics' conservation under a random workload.
#include "tests/lib.h"
#include "net/qdisc.h"
#include <cmath>
#include <map>
#include <vector>

using models::tick_t;
using models::PS_PER_US;
using namespace models::net;

static const tick_t US = PS_PER_US;
static const tick_t MS = 1000 * PS_PER_US;

static qdisc_pkt pkt(uint64_t id, uint32_t flow, uint32_t len, uint8_t band = 1)
{
    return qdisc_pkt{id, flow, len, len + 576, band, 0};
}

static qdisc_config pfifo_cfg(uint32_t limit)
{
    qdisc_config c;
    c.kind = QDISC_PFIFO_FAST;
    c.pfifo_limit = limit;
    return c;
}

// enqueued = dequeued + every drop + what is still held
static void check_conservation(const qdisc& q)
{
    const qdisc_stats& s = q.stats();
    ck_assert_uint_eq(s.enqueued, s.dequeued + s.drops_overlimit + s.drops_codel + q.qlen());
}

START_TEST(test_pfifo_tail_drop_per_band)
{
    qdisc q(pfifo_cfg(4));  // ring of 4: no batching (32 > 4 / 2)
    std::vector<qdisc_pkt> dropped;
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_int_eq(q.enqueue(pkt(i, 1, 100, 1), i * US, &dropped), NET_XMIT_SUCCESS);
    ck_assert(dropped.empty());
    // limit + 1: the new packet is the one dropped
    ck_assert_int_eq(q.enqueue(pkt(4, 1, 100, 1), 4 * US, &dropped), NET_XMIT_DROP);
    ck_assert_uint_eq(dropped.size(), 1);
    ck_assert_uint_eq(dropped[0].id, 4);
    ck_assert_uint_eq(q.stats().drops_overlimit, 1);
    ck_assert_uint_eq(q.qlen(), 4);
    ck_assert_uint_eq(q.backlog_bytes(), 400);
    // the limit is per band (a ring of tx_queue_len each): the others still take 4
    for (uint64_t i = 10; i < 14; i++) {
        ck_assert_int_eq(q.enqueue(pkt(i, 2, 100, 0), 5 * US, &dropped), NET_XMIT_SUCCESS);
        ck_assert_int_eq(q.enqueue(pkt(i + 10, 3, 100, 2), 5 * US, &dropped), NET_XMIT_SUCCESS);
    }
    ck_assert_uint_eq(q.qlen(), 12);
    ck_assert_int_eq(q.enqueue(pkt(30, 2, 100, 0), 6 * US, &dropped), NET_XMIT_DROP);
    ck_assert_uint_eq(q.stats().drops_overlimit, 2);
    // one out of band 1 makes room for one more there
    qdisc_pkt out;
    for (int i = 0; i < 5; i++)
        ck_assert(q.dequeue(7 * US, &out, &dropped));  // 4 of band 0, then band 1's first
    ck_assert_uint_eq(out.id, 0);
    ck_assert_int_eq(q.enqueue(pkt(31, 1, 100, 1), 8 * US, &dropped), NET_XMIT_SUCCESS);
    check_conservation(q);
}
END_TEST

START_TEST(test_pfifo_strict_band_priority)
{
    qdisc q(pfifo_cfg(1000));
    std::vector<qdisc_pkt> dropped;
    // interleaved arrivals: band 2, 1, 0, 2, 1, 0 ...
    uint64_t id = 0;
    for (int r = 0; r < 3; r++)
        for (int b = 2; b >= 0; b--, id++)
            ck_assert_int_eq(q.enqueue(pkt(id, 7, 60, (uint8_t)b), id * US, &dropped), NET_XMIT_SUCCESS);
    // all of band 0 first, then 1, then 2, FIFO within each
    const uint64_t want[9] = {2, 5, 8, 1, 4, 7, 0, 3, 6};
    qdisc_pkt out;
    for (int i = 0; i < 9; i++) {
        ck_assert(q.dequeue(100 * US, &out, &dropped));
        ck_assert_uint_eq(out.id, want[i]);
    }
    ck_assert(!q.dequeue(100 * US, &out, &dropped));
    ck_assert_uint_eq(q.backlog_bytes(), 0);
    // a band-0 packet arriving behind a queued band-2 one overtakes it
    q.enqueue(pkt(20, 7, 60, 2), 200 * US, &dropped);
    q.enqueue(pkt(21, 7, 60, 0), 201 * US, &dropped);
    ck_assert(q.dequeue(202 * US, &out, &dropped));
    ck_assert_uint_eq(out.id, 21);
    ck_assert_uint_eq(out.enqueued, 201 * US);
}
END_TEST

START_TEST(test_pfifo_ring_frees_slots_in_batches)
{
    qdisc_config c = pfifo_cfg(100);
    c.pfifo_ring_batch = 32;  // 32-bit ARM, 64-byte lines
    qdisc q(c);
    std::vector<qdisc_pkt> dropped;
    qdisc_pkt out;
    for (uint64_t i = 0; i < 100; i++)
        ck_assert_int_eq(q.enqueue(pkt(i, 1, 100), 0, &dropped), NET_XMIT_SUCCESS);
    // 31 consumed: none of their slots is free yet
    for (int i = 0; i < 31; i++)
        ck_assert(q.dequeue(US, &out, &dropped));
    ck_assert_int_eq(q.enqueue(pkt(200, 1, 100), US, &dropped), NET_XMIT_DROP);
    ck_assert_uint_eq(q.qlen(), 69);
    // the 32nd releases the whole batch
    ck_assert(q.dequeue(US, &out, &dropped));
    for (uint64_t i = 0; i < 32; i++)
        ck_assert_int_eq(q.enqueue(pkt(300 + i, 1, 100), 2 * US, &dropped), NET_XMIT_SUCCESS);
    ck_assert_int_eq(q.enqueue(pkt(400, 1, 100), 2 * US, &dropped), NET_XMIT_DROP);
    ck_assert_uint_eq(q.qlen(), 100);
    // order is kept across the wrap
    for (uint64_t i = 32; i < 100; i++) {
        ck_assert(q.dequeue(3 * US, &out, &dropped));
        ck_assert_uint_eq(out.id, i);
    }
    for (uint64_t i = 0; i < 32; i++) {
        ck_assert(q.dequeue(3 * US, &out, &dropped));
        ck_assert_uint_eq(out.id, 300 + i);
    }
    ck_assert(!q.dequeue(3 * US, &out, &dropped));
    // with batch 1 a slot is free as soon as it is consumed
    c.pfifo_ring_batch = 1;
    qdisc q1(c);
    for (uint64_t i = 0; i < 100; i++)
        q1.enqueue(pkt(i, 1, 100), 0, &dropped);
    ck_assert(q1.dequeue(US, &out, &dropped));
    ck_assert_int_eq(q1.enqueue(pkt(500, 1, 100), US, &dropped), NET_XMIT_SUCCESS);
}
END_TEST

START_TEST(test_requeue_comes_out_first)
{
    std::vector<qdisc_pkt> dropped;
    qdisc_pkt out, again;
    // pfifo_fast: ahead of a band-0 packet that arrived after
    {
        qdisc q(pfifo_cfg(1000));
        q.enqueue(pkt(1, 1, 1000, 2), 0, &dropped);
        q.enqueue(pkt(2, 1, 1000, 2), 0, &dropped);
        ck_assert(q.dequeue(10 * US, &out, &dropped));
        ck_assert_uint_eq(out.id, 1);
        q.requeue(out);
        ck_assert_uint_eq(q.qlen(), 2);
        ck_assert_uint_eq(q.backlog_bytes(), 2000);
        q.enqueue(pkt(3, 2, 100, 0), 20 * US, &dropped);
        ck_assert(q.dequeue(30 * US, &again, &dropped));
        ck_assert_uint_eq(again.id, 1);
        ck_assert_uint_eq(again.enqueued, 0);
        ck_assert(q.dequeue(30 * US, &again, &dropped));
        ck_assert_uint_eq(again.id, 3);
        const qdisc_stats& s = q.stats();
        ck_assert_uint_eq(s.requeues, 1);
        ck_assert_uint_eq(s.dequeued, 2);
        // the undone hand-out at 10 us is not in the sum: 30 + 10 us
        ck_assert_uint_eq(s.sojourn_ps_sum, 40 * US);
        ck_assert_uint_eq(s.sojourn_ps_max, 30 * US);
        check_conservation(q);
        // two given back, the later one at the head (dev_requeue_skb splices
        // at the head of gso_skb): the last requeued comes out first
        q.enqueue(pkt(4, 1, 100, 1), 40 * US, &dropped);
        q.enqueue(pkt(5, 1, 100, 1), 40 * US, &dropped);
        qdisc_pkt a, b;
        ck_assert(q.dequeue(50 * US, &a, &dropped));
        ck_assert(q.dequeue(50 * US, &b, &dropped));
        ck_assert_uint_eq(a.id, 4);
        ck_assert_uint_eq(b.id, 5);
        q.requeue(b);
        q.requeue(a);
        ck_assert(q.dequeue(60 * US, &again, &dropped));
        ck_assert_uint_eq(again.id, 4);
        ck_assert(q.dequeue(60 * US, &again, &dropped));
        ck_assert_uint_eq(again.id, 5);
        ck_assert_uint_eq(q.stats().requeues, 3);
        check_conservation(q);
    }
    // fq_codel: ahead of a new sparse flow; it counts against the packet limit
    {
        qdisc_config c;
        c.fq_limit = 3;
        qdisc q(c);
        for (uint64_t i = 0; i < 3; i++)
            q.enqueue(pkt(i, 5, 1000), 0, &dropped);
        ck_assert(q.dequeue(US, &out, &dropped));
        ck_assert_uint_eq(out.id, 0);
        q.requeue(out);
        ck_assert_uint_eq(q.qlen(), 3);
        // a 4th packet is over the limit of 3 with the requeued one counted
        ck_assert_int_eq(q.enqueue(pkt(10, 6, 100), 2 * US, &dropped), NET_XMIT_SUCCESS);
        ck_assert_uint_eq(dropped.size(), 1);
        ck_assert_uint_eq(dropped[0].id, 1);  // the head of the fat bucket, not the requeued packet
        ck_assert(q.dequeue(3 * US, &again, &dropped));
        ck_assert_uint_eq(again.id, 0);
        // then DRR: the fat bucket still has 514 bytes of credit, then the new one
        ck_assert(q.dequeue(3 * US, &again, &dropped));
        ck_assert_uint_eq(again.id, 2);
        ck_assert(q.dequeue(3 * US, &again, &dropped));
        ck_assert_uint_eq(again.id, 10);
        check_conservation(q);
    }
}
END_TEST

START_TEST(test_fq_drr_byte_fair)
{
    qdisc q(qdisc_config{});
    std::vector<qdisc_pkt> dropped;
    uint64_t id = 0;
    for (int i = 0; i < 400; i++)
        q.enqueue(pkt(id++, 1, 1514), 0, &dropped);
    for (int i = 0; i < 1200; i++)
        q.enqueue(pkt(id++, 2, 500), 0, &dropped);
    ck_assert(dropped.empty());
    // sojourn 0: CoDel stays out of it; DRR alone decides
    std::map<uint32_t, uint64_t> bytes;
    qdisc_pkt out;
    for (int i = 0; i < 800; i++) {
        ck_assert(q.dequeue(0, &out, &dropped));
        bytes[out.flow] += out.len;
        // at every point the two flows are within a quantum and a packet
        const int64_t diff = (int64_t)bytes[1] - (int64_t)bytes[2];
        ck_assert_msg(std::llabs(diff) <= 1514 + 1514, "after %d packets: %lld vs %lld bytes", i + 1,
                      (long long)bytes[1], (long long)bytes[2]);
    }
    // packet counts are far from equal: 3 small ones per large one
    ck_assert_uint_gt(bytes[2] / 500, 2 * (bytes[1] / 1514));
    ck_assert_uint_eq(q.stats().new_flows, 2);
    ck_assert_uint_eq(q.stats().drops_codel, 0);
}
END_TEST

START_TEST(test_fq_sparse_flow_first)
{
    qdisc q(qdisc_config{});
    std::vector<qdisc_pkt> dropped;
    qdisc_pkt out;
    for (uint64_t i = 0; i < 100; i++)
        q.enqueue(pkt(i, 1, 500), 0, &dropped);
    // 5 out: the bulk flow spends its first quantum (1514 bytes: 4 packets)
    // and is on old_flows with a fresh one, 528 bytes of it left
    for (tick_t t = 10 * US; t <= 50 * US; t += 10 * US) {
        ck_assert(q.dequeue(t, &out, &dropped));
        ck_assert_uint_eq(out.flow, 1);
    }
    // a ping arrives: its bucket goes on new_flows and is served next
    q.enqueue(pkt(1000, 9, 98), 55 * US, &dropped);
    ck_assert_uint_eq(q.stats().new_flows, 2);
    ck_assert(q.dequeue(60 * US, &out, &dropped));
    ck_assert_uint_eq(out.id, 1000);
    ck_assert_uint_eq(out.enqueued, 55 * US);
    // its emptied bucket stays listed: the next dequeue moves it to the tail
    // of old_flows and serves the bulk flow
    ck_assert(q.dequeue(70 * US, &out, &dropped));
    ck_assert_uint_eq(out.id, 5);
    // a second ping finds its bucket still on old_flows: not a new flow, and
    // it waits for the rest of the bulk flow's quantum
    q.enqueue(pkt(1001, 9, 98), 75 * US, &dropped);
    ck_assert_uint_eq(q.stats().new_flows, 2);
    ck_assert(q.dequeue(80 * US, &out, &dropped));
    ck_assert_uint_eq(out.id, 6);
    ck_assert(q.dequeue(90 * US, &out, &dropped));
    ck_assert_uint_eq(out.id, 1001);
    // drained again and found empty on old_flows, the bucket leaves the
    // lists; a third ping is a new flow once more
    ck_assert(q.dequeue(100 * US, &out, &dropped));
    ck_assert_uint_eq(out.id, 7);
    q.enqueue(pkt(1002, 9, 98), 105 * US, &dropped);
    ck_assert_uint_eq(q.stats().new_flows, 3);
    ck_assert(q.dequeue(110 * US, &out, &dropped));
    ck_assert_uint_eq(out.id, 1002);
    ck_assert(dropped.empty());
}
END_TEST

// One bulk flow: `prefill` packets at t = 0, then one enqueued and one
// dequeued every `step` until `end`. Returns the times of the CoDel drops.
static std::vector<tick_t> run_standing_queue(qdisc& q, int prefill, uint32_t len, tick_t step, tick_t end)
{
    std::vector<qdisc_pkt> dropped;
    std::vector<tick_t> at;
    uint64_t id = 0;
    for (int i = 0; i < prefill; i++)
        q.enqueue(pkt(id++, 1, len), 0, &dropped);
    qdisc_pkt out;
    for (tick_t t = step; t <= end; t += step) {
        q.enqueue(pkt(id++, 1, len), t, &dropped);
        const size_t before = dropped.size();
        q.dequeue(t, &out, &dropped);
        for (size_t i = before; i < dropped.size(); i++)
            at.push_back(t);
    }
    ck_assert_uint_eq(dropped.size(), q.stats().drops_codel + q.stats().drops_overlimit);
    return at;
}

START_TEST(test_codel_quiet_below_target)
{
    // a standing queue of 4 ms for 2 s: under the 5-ms target, no drop
    qdisc q(qdisc_config{});
    std::vector<tick_t> drops = run_standing_queue(q, 400, 1000, 10 * US, 2000 * MS);
    ck_assert_uint_eq(drops.size(), 0);
    ck_assert_uint_ge(q.stats().sojourn_ps_max, 3990 * US);
    ck_assert_uint_le(q.stats().sojourn_ps_max, 4010 * US);
    // 50 ms of sojourn but never more than an MTU queued behind the packet:
    // the backlog <= mtu exemption, no drop
    qdisc q2(qdisc_config{});
    std::vector<qdisc_pkt> dropped;
    qdisc_pkt out;
    uint64_t id = 0;
    q2.enqueue(pkt(id++, 1, 1400), 0, &dropped);
    for (tick_t t = 50 * MS; t <= 2000 * MS; t += 50 * MS) {
        q2.enqueue(pkt(id++, 1, 1400), t, &dropped);
        ck_assert(q2.dequeue(t, &out, &dropped));
    }
    ck_assert_uint_eq(q2.stats().drops_codel, 0);
    ck_assert_uint_eq(q2.stats().sojourn_ps_max, 50 * MS);
    // the same with two packets behind (2800 bytes > 1514): dropped
    qdisc q3(qdisc_config{});
    id = 0;
    for (int i = 0; i < 3; i++)
        q3.enqueue(pkt(id++, 1, 1400), 0, &dropped);
    for (tick_t t = 50 * MS; t <= 2000 * MS; t += 50 * MS) {
        q3.enqueue(pkt(id++, 1, 1400), t, &dropped);
        q3.dequeue(t, &out, &dropped);
        while (q3.qlen() < 3)
            q3.enqueue(pkt(id++, 1, 1400), t, &dropped);
    }
    ck_assert_uint_gt(q3.stats().drops_codel, 0);
}
END_TEST

START_TEST(test_codel_drop_schedule)
{
    // 1000 packets at t = 0, then 1 in and 1 out every 10 us: the sojourn
    // reaches 5 ms at t = 5 ms and stays near 10 ms
    qdisc q(qdisc_config{});
    const tick_t step = 10 * US, I = 100 * MS;
    std::vector<tick_t> drops = run_standing_queue(q, 1000, 1000, step, 1500 * MS);
    ck_assert_uint_ge(drops.size(), 15);
    // above target from 5 ms: the first drop once now > 5 + 100 ms
    ck_assert_uint_eq(drops[0], 105 * MS + step);
    // one drop each time (the queue never makes two due at once)
    for (size_t i = 1; i < drops.size(); i++)
        ck_assert_uint_gt(drops[i], drops[i - 1]);
    // the gap after the n-th drop is interval * 1/sqrt(n) as the kernel's
    // Newton iteration has it (one step per drop from 1.0: 0.5 at n = 2)
    double r = 65535.0 / 65536.0;
    for (size_t i = 1; i < drops.size(); i++) {
        const uint32_t n = (uint32_t)i;  // count after the drop that opened the gap
        if (n >= 2)
            r = r / 2 * (3 - n * r * r);
        const double gap = (double)(drops[i] - drops[i - 1]);
        // drop_next accumulates from the scheduled times; the dequeue grid adds < step
        const double sched = (double)I * r;
        ck_assert_msg(std::fabs(gap - sched) <= (double)step + (double)I * 0.001,
                      "gap %zu: %.0f us, want %.0f us", i, gap / US, sched / US);
        if (n >= 5)
            ck_assert_msg(std::fabs(gap * std::sqrt((double)n) / (double)I - 1.0) < 0.03,
                          "gap %zu not interval/sqrt(%u)", i, n);
    }
    // the spacing shrinks: the 15th gap is under half the first
    ck_assert_uint_lt(drops[15] - drops[14], (drops[1] - drops[0]) / 2);
    check_conservation(q);
}
END_TEST

START_TEST(test_fq_overlimit_drops_fattest)
{
    qdisc_config c;
    c.fq_limit = 100;
    qdisc q(c);
    std::vector<qdisc_pkt> dropped;
    for (uint64_t i = 0; i < 100; i++)
        ck_assert_int_eq(q.enqueue(pkt(i, 1, 1000), 0, &dropped), NET_XMIT_SUCCESS);
    ck_assert(dropped.empty());
    // the 101st, of a sparse flow: half the fat bucket's bytes go, from its head
    ck_assert_int_eq(q.enqueue(pkt(500, 2, 100), US, &dropped), NET_XMIT_SUCCESS);
    ck_assert_uint_eq(dropped.size(), 50);
    for (uint64_t i = 0; i < 50; i++) {
        ck_assert_uint_eq(dropped[i].id, i);
        ck_assert_uint_eq(dropped[i].flow, 1);
    }
    ck_assert_uint_eq(q.qlen(), 51);
    ck_assert_uint_eq(q.backlog_bytes(), 50 * 1000 + 100);
    ck_assert_uint_eq(q.stats().drops_overlimit, 50);
    ck_assert_uint_eq(q.stats().drops_overmemory, 0);
    // the sparse packet survived: it comes once the fat bucket, first on
    // new_flows, has spent its quantum (2 packets)
    qdisc_pkt out;
    const uint64_t order[3] = {50, 51, 500};
    for (int i = 0; i < 3; i++) {
        ck_assert(q.dequeue(2 * US, &out, &dropped));
        ck_assert_uint_eq(out.id, order[i]);
    }
    // fill up again; over the limit from the fat flow itself: NET_XMIT_CN
    uint64_t id = 600;
    while (q.qlen() < 100)
        ck_assert_int_eq(q.enqueue(pkt(id++, 1, 1000), 3 * US, &dropped), NET_XMIT_SUCCESS);
    dropped.clear();
    // (101 packets in the bucket with the new one: 51 make half its bytes)
    ck_assert_int_eq(q.enqueue(pkt(id, 1, 1000), 4 * US, &dropped), NET_XMIT_CN);
    ck_assert_uint_eq(dropped.size(), 51);
    ck_assert_uint_eq(dropped[0].id, 52);  // still head drops
    // the batch caps the drops: 8 at most
    c.fq_drop_batch = 8;
    qdisc q8(c);
    for (uint64_t i = 0; i < 101; i++)
        q8.enqueue(pkt(i, 1, 1000), 0, &dropped);
    ck_assert_uint_eq(q8.qlen(), 93);
    check_conservation(q);
    check_conservation(q8);
    // between equally fat buckets the lowest index loses
    c.fq_limit = 4;
    qdisc qt(c);
    dropped.clear();
    for (uint64_t i = 0; i < 2; i++) {
        qt.enqueue(pkt(i, 3, 1000), 0, &dropped);
        qt.enqueue(pkt(10 + i, 1, 1000), 0, &dropped);
    }
    ck_assert_int_eq(qt.enqueue(pkt(20, 2, 100), 0, &dropped), NET_XMIT_SUCCESS);
    ck_assert_uint_eq(dropped.size(), 1);
    ck_assert_uint_eq(dropped[0].id, 10);
}
END_TEST

START_TEST(test_fq_drop_raises_codel_count)
{
    // fq_codel_drop adds its drops to the bucket's CoDel count; a bucket that
    // never dropped before has rec_inv_sqrt 0 (codel_vars_init), and when it
    // enters the dropping state while "recently" (within 16 intervals of its
    // drop_next, 0) CoDel resumes at count = those drops, and the Newton step
    // from 0 stays 0: the control law then adds nothing and every packet
    // above target is dropped until the backlog falls to an MTU.
    qdisc_config c;
    c.fq_limit = 100;
    qdisc q(c);
    std::vector<qdisc_pkt> dropped;
    for (uint64_t i = 0; i < 101; i++)
        q.enqueue(pkt(i, 1, 1000), 0, &dropped);
    ck_assert_uint_eq(dropped.size(), 51);  // half of 101000 bytes
    dropped.clear();
    qdisc_pkt out;
    ck_assert(q.dequeue(200 * MS, &out, &dropped));  // above target from now
    ck_assert(q.dequeue(301 * MS, &out, &dropped));  // an interval on: the first drop
    ck_assert_uint_eq(dropped.size(), 1);
    ck_assert_uint_eq(out.id, 53);
    // next time: all but the packet handed out and the one behind it
    ck_assert(q.dequeue(302 * MS, &out, &dropped));
    ck_assert_uint_eq(q.qlen(), 1);
    ck_assert_uint_eq(out.id, 99);
    ck_assert_uint_eq(dropped.size(), 1 + 45);
    ck_assert_uint_eq(q.stats().drops_codel, 46);
    // without the earlier overflow the second drop waits an interval
    qdisc q2(qdisc_config{});
    dropped.clear();
    for (uint64_t i = 0; i < 51; i++)
        q2.enqueue(pkt(i, 1, 1000), 0, &dropped);
    ck_assert(q2.dequeue(200 * MS, &out, &dropped));
    ck_assert(q2.dequeue(301 * MS, &out, &dropped));
    ck_assert(q2.dequeue(302 * MS, &out, &dropped));
    ck_assert_uint_eq(dropped.size(), 1);
    ck_assert_uint_eq(q2.qlen(), 47);
}
END_TEST

START_TEST(test_fq_memory_limit)
{
    qdisc_config c;
    c.fq_memory_limit = 10000;
    qdisc q(c);
    std::vector<qdisc_pkt> dropped;
    // 4 x 2304 = 9216 bytes of truesize fit; the 5th (11520) does not
    qdisc_pkt p = pkt(0, 3, 1000);
    p.truesize = 2304;
    for (uint64_t i = 0; i < 4; i++) {
        p.id = i;
        ck_assert_int_eq(q.enqueue(p, 0, &dropped), NET_XMIT_SUCCESS);
    }
    ck_assert_uint_eq(q.memory_usage(), 9216);
    p.id = 4;
    // one bucket of 5000 bytes: head drops until 2500 bytes are gone
    ck_assert_int_eq(q.enqueue(p, US, &dropped), NET_XMIT_CN);
    ck_assert_uint_eq(dropped.size(), 3);
    ck_assert_uint_eq(dropped[0].id, 0);
    ck_assert_uint_eq(q.stats().drops_overlimit, 3);
    ck_assert_uint_eq(q.stats().drops_overmemory, 3);
    ck_assert_uint_eq(q.memory_usage(), 2 * 2304);
    ck_assert_uint_eq(q.qlen(), 2);
    // dequeued packets give their memory back
    qdisc_pkt out;
    ck_assert(q.dequeue(2 * US, &out, &dropped));
    ck_assert_uint_eq(out.id, 3);
    ck_assert_uint_eq(q.memory_usage(), 2304);
    check_conservation(q);
}
END_TEST

START_TEST(test_stats_conserve_packets)
{
    for (uint32_t kind = 0; kind < 2; kind++) {
        qdisc_config c;
        c.kind = kind;
        c.pfifo_limit = 64;
        c.fq_limit = 200;
        c.fq_flows = 16;
        c.fq_memory_limit = 250000;
        qdisc q(c);
        std::map<uint64_t, uint32_t> held;  // id -> len
        std::map<uint64_t, int> fate;       // id -> times it left (delivered or dropped)
        std::vector<qdisc_pkt> dropped;
        uint32_t rng = 12345;
        auto next = [&rng]() { return rng = rng * 1103515245u + 12345u, rng >> 8; };
        tick_t t = 0;
        uint64_t id = 0;
        qdisc_pkt out, last{};
        bool have_last = false;
        for (int op = 0; op < 200000; op++) {
            t += (next() % 40) * US;
            const uint32_t r = next() % 100;
            if (r < 52) {
                const qdisc_pkt p{id++, next() % 40, 60 + next() % 1455, 1000 + next() % 1200,
                                  (uint8_t)(next() % 3), 0};
                held[p.id] = p.len;
                q.enqueue(p, t, &dropped);
            } else if (r < 98 || !have_last) {
                have_last = q.dequeue(t, &out, &dropped);
                if (have_last) {
                    last = out;
                    held.erase(out.id);
                    fate[out.id]++;
                }
            } else {
                q.requeue(last);  // the driver was busy
                held[last.id] = last.len;
                fate[last.id]--;
                have_last = false;
            }
            for (const qdisc_pkt& d : dropped) {
                held.erase(d.id);
                fate[d.id]++;
            }
            dropped.clear();
            check_conservation(q);
            ck_assert_uint_eq(q.qlen(), held.size());
        }
        uint64_t bytes = 0;
        for (const auto& h : held)
            bytes += h.second;
        ck_assert_uint_eq(q.backlog_bytes(), bytes);
        const qdisc_stats& s = q.stats();
        ck_assert_uint_gt(s.requeues, 0);
        ck_assert_uint_gt(s.drops_overlimit, 0);
        if (kind == QDISC_FQ_CODEL)
            ck_assert_uint_gt(s.drops_codel, 0);
        ck_assert_uint_eq(s.ecn_marks, 0);
        ck_assert_uint_ge(s.sojourn_ps_max * s.dequeued, s.sojourn_ps_sum);
        // drained, every packet left exactly once
        while (q.dequeue(t, &out, &dropped)) {
            held.erase(out.id);
            fate[out.id]++;
        }
        for (const qdisc_pkt& d : dropped)
            fate[d.id]++;
        ck_assert_uint_eq(q.qlen(), 0);
        ck_assert_uint_eq(q.backlog_bytes(), 0);
        ck_assert_uint_eq(q.memory_usage(), 0);
        ck_assert_uint_eq(fate.size(), id);
        for (const auto& f : fate)
            ck_assert_msg(f.second == 1, "packet %llu left %d times", (unsigned long long)f.first, f.second);
        check_conservation(q);
        q.reset_stats();
        ck_assert_uint_eq(q.stats().enqueued, 0);
    }
}
END_TEST

Suite* suite_qdisc(void)
{
    Suite* s = suite_create("qdisc");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_pfifo_tail_drop_per_band);
    tcase_add_test(tc, test_pfifo_strict_band_priority);
    tcase_add_test(tc, test_pfifo_ring_frees_slots_in_batches);
    tcase_add_test(tc, test_requeue_comes_out_first);
    tcase_add_test(tc, test_fq_drr_byte_fair);
    tcase_add_test(tc, test_fq_sparse_flow_first);
    tcase_add_test(tc, test_codel_quiet_below_target);
    tcase_add_test(tc, test_codel_drop_schedule);
    tcase_add_test(tc, test_fq_overlimit_drops_fattest);
    tcase_add_test(tc, test_fq_drop_raises_codel_count);
    tcase_add_test(tc, test_fq_memory_limit);
    tcase_add_test(tc, test_stats_conserve_packets);
    suite_add_tcase(s, tc);
    return s;
}
