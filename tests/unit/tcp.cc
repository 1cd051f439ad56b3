// TCP endpoints (models/net/tcp.h): the receiver's ACK policy, slow start,
// CUBIC growth after a loss, the Reno-friendly region, fast retransmit and
// NewReno recovery, the retransmission timeout, and a bulk stream through a
// drop-tail bottleneck reaching the link's payload rate.
#include "tests/lib.h"
#include "net/tcp.h"
#include "net/frame_format.h"
#include <cmath>
#include <map>
#include <queue>
#include <set>
#include <vector>

using models::tick_t;
using models::PS_PER_US;
using models::PS_PER_S;
using namespace models::net;

static const tick_t MS = 1000 * PS_PER_US;

START_TEST(test_receiver_ack_policy)
{
    tcp_receiver_config rc;
    rc.mss = 1000;
    rc.rwnd_bytes = 64000;  // quickacks: min(64000 / 2000, 16) = 16
    tcp_receiver r(rc);
    tick_t t = 0;
    uint64_t seq = 0;
    // quickack mode: the first 16 segments are ACKed one by one
    for (int i = 0; i < 16; i++, seq += 1000, t += MS) {
        ck_assert_msg(r.on_segment(seq, 1000, t), "quickack segment %d ACKed at once", i);
        r.ack_sent(t, false);
    }
    // then every second full-sized segment
    ck_assert(!r.on_segment(seq, 1000, t));
    ck_assert_uint_eq(r.delack_deadline(), t + 40 * MS);
    seq += 1000;
    ck_assert(r.on_segment(seq, 1000, t + MS));
    r.ack_sent(t + MS, false);
    ck_assert_uint_eq(r.delack_deadline(), 0);
    seq += 1000;
    // a lone segment waits for the 40-ms timer
    ck_assert(!r.on_segment(seq, 1000, t + 2 * MS));
    ck_assert_uint_eq(r.delack_deadline(), t + 2 * MS + 40 * MS);
    r.ack_sent(r.delack_deadline(), true);
    seq += 1000;
    ck_assert_uint_eq(r.rcv_nxt(), seq);
    // out of order: a hole at seq, the next segment ACKed at once, rcv_nxt kept
    ck_assert(r.on_segment(seq + 1000, 1000, t + 50 * MS));
    r.ack_sent(t + 50 * MS, false);
    ck_assert_uint_eq(r.rcv_nxt(), seq);
    // the hole filled: both delivered, ACKed at once
    ck_assert(r.on_segment(seq, 1000, t + 51 * MS));
    ck_assert_uint_eq(r.rcv_nxt(), seq + 2000);
    ck_assert_uint_eq(r.stats().ooo_segs, 1);
    ck_assert_uint_eq(r.stats().delayed_acks, 1);
    // a duplicate is ACKed at once and changes nothing
    ck_assert(r.on_segment(0, 1000, t + 52 * MS));
    ck_assert_uint_eq(r.rcv_nxt(), seq + 2000);
    ck_assert_uint_eq(r.stats().dup_segs, 1);
}
END_TEST

START_TEST(test_slow_start_doubles_per_round)
{
    tcp_config c;
    c.hystart = false;
    tcp_sender s(c);
    tick_t t = 0;
    for (int round = 0; round < 4; round++) {
        const uint32_t w = s.cwnd();
        ck_assert_uint_eq(w, 10u << round);
        std::vector<tcp_unit> sent;
        tcp_unit u;
        while (s.next_unit(t, c.mss, &u))
            sent.push_back(u);
        ck_assert_uint_eq(sent.size(), w);  // exactly the window
        t += MS;
        for (const auto& x : sent)
            s.on_ack(x.seq + x.len, 1u << 30, t);  // one ACK a segment
        ck_assert_uint_eq(s.in_flight(), 0);
    }
    ck_assert_uint_eq(s.cwnd(), 160);
    // the RTT estimate: 1 ms each time; RTO = srtt + max(4 rttvar, 200 ms)
    ck_assert_uint_eq(s.srtt(), MS);
    ck_assert_uint_eq(s.rto(), MS + 200 * MS);
}
END_TEST

START_TEST(test_window_grows_only_when_used)
{
    // tcp_is_cwnd_limited: a sender that keeps fewer segments in flight
    // than its window (held back by TSQ or the application) does not grow it
    tcp_config c;
    c.hystart = false;
    c.init_ssthresh = 10;  // congestion avoidance from the start
    tcp_sender s(c);
    tick_t t = 0;
    for (int round = 0; round < 200; round++) {
        std::vector<tcp_unit> sent;
        tcp_unit u;
        for (int i = 0; i < 4 && s.next_unit(t, c.mss, &u); i++)
            sent.push_back(u);
        t += MS;
        for (const auto& x : sent)
            s.on_ack(x.seq + x.len, 1u << 30, t);
    }
    ck_assert_uint_eq(s.cwnd(), 10);
    // the same rounds using the whole window: it grows
    for (int round = 0; round < 200; round++) {
        std::vector<tcp_unit> sent;
        tcp_unit u;
        while (s.next_unit(t, c.mss, &u))
            sent.push_back(u);
        t += MS;
        for (const auto& x : sent)
            s.on_ack(x.seq + x.len, 1u << 30, t);
    }
    ck_assert_uint_gt(s.cwnd(), 20);
}
END_TEST

// A sender kept window-limited by a peer that ACKs every segment one RTT
// after it left; returns the window after `secs` seconds.
struct ack_loop {
    tcp_sender s;
    tick_t t = 0, rtt;
    explicit ack_loop(const tcp_config& c, tick_t r) : s(c), rtt(r) {}
    void run_until(tick_t end)
    {
        while (t < end) {
            std::vector<tcp_unit> sent;
            tcp_unit u;
            while (s.next_unit(t, 1448, &u))
                sent.push_back(u);
            t += rtt;
            for (const auto& x : sent)
                s.on_ack(x.seq + x.len, 1ull << 40, t);
        }
    }
    void lose_one()
    {
        // three duplicate ACKs for the oldest unacked byte, then everything
        tcp_unit u;
        std::vector<tcp_unit> sent;
        while (s.next_unit(t, 1448, &u))
            sent.push_back(u);
        t += rtt;
        for (int i = 0; i < 3; i++)
            s.on_ack(s.snd_una(), 1ull << 40, t);
        ck_assert(s.in_recovery());
        ck_assert(s.next_unit(t, 1448, &u) && u.retrans);
        t += rtt;
        s.on_ack(s.snd_nxt(), 1ull << 40, t);
        ck_assert(!s.in_recovery());
    }
};

START_TEST(test_cubic_curve_after_loss)
{
    tcp_config c;
    c.hystart = false;
    c.tcp_friendliness = false;  // the cubic function alone
    c.init_ssthresh = 100;
    ack_loop l(c, 10 * MS);
    // slow start to 100, then 5 % a round while no loss has set W_max
    l.run_until(PS_PER_S / 5);
    // fix the window at the loss: W_max is the window then
    const uint32_t wmax = l.s.cwnd();
    l.lose_one();
    const uint32_t w0 = l.s.ssthresh();
    ck_assert_uint_eq(w0, std::max(wmax * 717 / 1024, 2u));
    ck_assert_uint_eq(l.s.cwnd(), w0);
    ck_assert_uint_eq(l.s.cc().last_max_cwnd(), wmax);
    // W(t) = 0.4 (t - K)^3 + W_max, K = cbrt((W_max - W0) / 0.4)
    const double k = std::cbrt((wmax - w0) / 0.4);
    const tick_t epoch = l.t;
    for (double at : {k * 0.5, k, k + 2.0}) {
        l.run_until(epoch + (tick_t)(at * PS_PER_S));
        const double ts = (double)(l.t - epoch) / PS_PER_S + 0.010;  // t counts one RTT ahead
        const double want = 0.4 * std::pow(ts - k, 3) + wmax;
        ck_assert_msg(std::fabs(l.s.cwnd() - want) <= 0.03 * want + 2,
                      "cwnd %u at %.2f s after the loss, the cubic function gives %.1f (K %.2f s)", l.s.cwnd(),
                      ts, want, k);
    }
    ck_assert_uint_eq(l.s.stats().fast_retrans, 1);
    ck_assert_uint_eq(l.s.stats().rto_events, 0);
}
END_TEST

START_TEST(test_reno_friendly_region_at_short_rtt)
{
    // At 1 ms the cubic function is slow (K is seconds); the Reno estimate,
    // one segment per 1.875 windows acked (beta_scale 15 / 8), i.e. 0.53
    // segments a round, sets the pace when tcp_friendliness is on
    for (bool friendly : {false, true}) {
        tcp_config c;
        c.hystart = false;
        c.tcp_friendliness = friendly;
        c.init_ssthresh = 200;
        ack_loop l(c, 1 * MS);
        l.run_until(30 * MS);
        l.lose_one();
        const double wmax = l.s.cc().last_max_cwnd(), w0 = l.s.cwnd();
        const tick_t from = l.t;
        l.run_until(from + PS_PER_S);  // 1000 rounds
        const double grown = l.s.cwnd() - w0;
        const double k = std::cbrt((wmax - w0) / 0.4), ts = (double)(l.t - from) / PS_PER_S + 0.001;
        const double cubic_grown = 0.4 * std::pow(ts - k, 3) + wmax - w0;
        if (friendly)
            ck_assert_msg(grown > 450 && grown < 560 && grown > 3 * cubic_grown,
                          "Reno-friendly growth %.0f segments in 1000 rounds (cubic alone %.0f)", grown, cubic_grown);
        else
            ck_assert_msg(std::fabs(grown - cubic_grown) <= 0.05 * cubic_grown + 2,
                          "cubic growth %.0f segments in 1 s, the function gives %.1f (K %.2f s)", grown, cubic_grown,
                          k);
    }
}
END_TEST

// A bulk stream through a drop-tail bottleneck of rate bps with a queue of
// qlen frames (100 Mbit/s, 1000 frames), one-way delay d (0.25 ms) each way (ACKs are not queued), the receiver
// with Linux's ACK policy; drops[] are frame numbers (by transmission order)
// the path loses on top of the queue's own.
struct path {
    tcp_config c;
    tcp_receiver_config rc;
    double bps = 100e6;
    size_t qlen = 1000;
    tick_t d = 250 * PS_PER_US;
    std::set<uint64_t> drops;
    tick_t down_from = 0, down_to = 0;  // a link outage: everything sent in it lost
    uint64_t delivered = 0, queue_drops = 0;

    void run(tcp_sender& s, tcp_receiver& r, tick_t end)
    {
        // events: 0 segment arrives at receiver, 1 ACK arrives at sender
        struct ev {
            tick_t at;
            int kind;
            uint64_t a, b;
            bool operator>(const ev& o) const { return at != o.at ? at > o.at : kind > o.kind; }
        };
        std::priority_queue<ev, std::vector<ev>, std::greater<ev>> q;
        tick_t link_free = 0;
        std::deque<tick_t> in_queue;  // departure times of the frames queued or on the link
        uint64_t frames = 0;
        tick_t t = 0;
        auto send_ack = [&](tick_t at) {
            q.push(ev{at + d, 1, r.rcv_nxt(), r.rwnd()});
        };
        while (t < end) {
            // the sender sends all its windows allow
            tcp_unit u;
            while (s.next_unit(t, c.mss, &u)) {
                while (!in_queue.empty() && in_queue.front() <= t)
                    in_queue.pop_front();
                const uint64_t n = frames++;
                if (in_queue.size() >= qlen) {
                    queue_drops++;
                    continue;
                }
                const tick_t wire = (tick_t)((u.len + 90) * 8.0 / bps * PS_PER_S);
                const tick_t start = std::max(t, link_free);
                link_free = start + wire;
                in_queue.push_back(link_free);
                if (drops.count(n) || (t >= down_from && t < down_to))
                    continue;
                q.push(ev{link_free + d, 0, u.seq, u.len});
            }
            // the next event: a packet, an ACK, the delayed-ACK timer or the RTO
            tick_t next = end;
            if (!q.empty())
                next = std::min(next, q.top().at);
            if (r.delack_deadline())
                next = std::min(next, r.delack_deadline());
            if (s.rto_deadline())
                next = std::min(next, s.rto_deadline());
            t = std::max(t, next);
            if (t >= end)
                break;
            if (r.delack_deadline() && r.delack_deadline() <= t) {
                r.ack_sent(t, true);
                send_ack(t);
            }
            if (s.rto_deadline() && s.rto_deadline() <= t)
                s.on_rto(t);
            while (!q.empty() && q.top().at <= t) {
                ev e = q.top();
                q.pop();
                if (e.kind == 0) {
                    if (r.on_segment(e.a, (uint32_t)e.b, e.at)) {
                        r.ack_sent(e.at, false);
                        send_ack(e.at);
                    }
                } else {
                    s.on_ack(e.a, e.b, e.at);
                }
            }
        }
        delivered = r.rcv_nxt();
    }
};

START_TEST(test_fast_retransmit_repairs_one_loss)
{
    path p;
    p.c.hystart = false;
    p.c.init_ssthresh = 40;
    p.drops = {300};
    tcp_sender s(p.c);
    tcp_receiver r(p.rc);
    p.run(s, r, PS_PER_S / 2);
    ck_assert_uint_eq(s.stats().fast_retrans, 1);
    ck_assert_uint_eq(s.stats().rto_events, 0);
    ck_assert_uint_eq(s.stats().retrans_segs, 1);
    ck_assert_uint_eq(r.stats().ooo_segs > 0, 1);
    // all the stream delivered in order up to what was acknowledged
    ck_assert_uint_eq(p.delivered, r.stats().bytes_in);
    ck_assert_uint_ge(s.snd_una(), 1000ull * p.c.mss);
}
END_TEST

START_TEST(test_rto_after_outage)
{
    path p;
    p.down_from = 100 * MS;
    p.down_to = 400 * MS;
    tcp_sender s(p.c);
    tcp_receiver r(p.rc);
    p.run(s, r, 2 * PS_PER_S);
    ck_assert_uint_ge(s.stats().rto_events, 1);
    // after the outage the stream goes on: most of 1.5 s at ~94 Mbit/s delivered again
    ck_assert_msg(p.delivered > (uint64_t)(94e6 / 8 * 1.0), "delivered %llu B after a 300-ms outage",
                  (unsigned long long)p.delivered);
    ck_assert_uint_eq(p.delivered, r.stats().bytes_in);
}
END_TEST

START_TEST(test_bulk_stream_fills_bottleneck)
{
    // 100 Mbit/s, 0.5 ms RTT, 100 frames of queue: the window overflows the
    // queue, CUBIC backs off and grows again; the link stays busy
    path p;
    p.qlen = 100;
    tcp_sender s(p.c);
    tcp_receiver r(p.rc);
    p.run(s, r, 3 * PS_PER_S);
    const double goodput = p.delivered * 8.0 / 3.0;
    const double payload_rate = 100e6 * 1448 / (1448 + 90);  // 94.1 Mbit/s
    ck_assert_msg(goodput > 0.9 * payload_rate && goodput <= payload_rate,
                  "goodput %.1f Mbit/s of %.1f", goodput / 1e6, payload_rate / 1e6);
    ck_assert_msg(p.queue_drops > 0 && s.stats().fast_retrans > 0, "the queue overflowed (%llu) and was repaired",
                  (unsigned long long)p.queue_drops);
    ck_assert_uint_eq(p.delivered, r.stats().bytes_in);
    // ACKs: about one for every second segment
    const double per = (double)r.stats().segs_in / r.stats().acks_out;
    ck_assert_msg(per > 1.6 && per < 2.2, "%.2f segments per ACK", per);
}
END_TEST

START_TEST(test_hystart_ends_slow_start_on_delay)
{
    // a deep queue (1000 frames at 100 Mbit/s = 123 ms) and a 0.5-ms path:
    // HyStart sees the delay grow and ends slow start before the queue overflows
    path p;
    tcp_sender s(p.c);
    tcp_receiver r(p.rc);
    p.run(s, r, PS_PER_S);
    ck_assert_uint_eq(s.stats().hystart_exits, 1);
    ck_assert_uint_eq(p.queue_drops, 0);
    ck_assert_uint_lt(s.ssthresh(), 1000);
    // without HyStart the same slow start overflows the queue
    path p2 = p;
    p2.c.hystart = false;
    p2.queue_drops = 0;
    tcp_sender s2(p2.c);
    tcp_receiver r2(p2.rc);
    p2.run(s2, r2, PS_PER_S);
    ck_assert_uint_gt(p2.queue_drops, 0);
}
END_TEST

// set_send_limit: new data stops at what the application wrote, and a
// sender held back by it is not window-limited (the window does not grow).
START_TEST(test_send_limit_holds_new_data)
{
    tcp_config c;
    c.hystart = false;
    tcp_sender s(c);
    s.set_send_limit(3 * c.mss + 100);
    tcp_unit u;
    uint64_t sent = 0;
    while (s.next_unit(0, 64 * c.mss, &u))
        sent += u.len;
    ck_assert_uint_eq(sent, 3 * c.mss + 100);
    ck_assert_uint_eq(s.snd_nxt(), 3 * c.mss + 100);
    s.on_ack(sent, 1u << 30, MS);
    ck_assert_uint_eq(s.cwnd(), 10);  // 4 segments in flight of 10: not cwnd-limited
    ck_assert(!s.next_unit(MS, 64 * c.mss, &u));
    s.set_send_limit(sent + 20 * c.mss);
    ck_assert(s.next_unit(MS, 64 * c.mss, &u));
    ck_assert_uint_eq(u.seq, sent);
    ck_assert_uint_eq(u.len, 10 * c.mss);  // the window, not the written end, limits now
}
END_TEST

// ICMP echo frames: request and reply read back with their fields and
// data; a wrong checksum, data or a truncated frame is refused.
START_TEST(test_icmp_echo_round_trip)
{
    traffic_flow fl{};
    fl.src_ip = 0xC0A80002u;
    fl.dst_ip = 0xC0A80001u;
    uint8_t f[1600];
    const size_t n = traffic_build_icmp_echo(f, &fl, TRAFFIC_ICMP_ECHO_REQUEST, 0x4650, 77, 56, 9);
    ck_assert_uint_eq(n, 14 + 20 + 8 + 56);
    int ip_ok = 0, l4_ok = 0;
    ck_assert_int_eq(traffic_ipv4_checks(f, n, &ip_ok, &l4_ok), 0);
    ck_assert(ip_ok);
    int type;
    uint16_t id, seq;
    size_t dlen;
    ck_assert_int_eq(traffic_icmp_echo(f, n, &type, &id, &seq, &dlen), 0);
    ck_assert_int_eq(type, TRAFFIC_ICMP_ECHO_REQUEST);
    ck_assert_uint_eq(id, 0x4650);
    ck_assert_uint_eq(seq, 77);
    ck_assert_uint_eq(dlen, 56);
    ck_assert(traffic_icmp_data_ok(f, n));
    const size_t r = traffic_build_icmp_echo(f, &fl, TRAFFIC_ICMP_ECHO_REPLY, 0x4650, 77, 56, 10);
    ck_assert_int_eq(traffic_icmp_echo(f, r, &type, &id, &seq, &dlen), 0);
    ck_assert_int_eq(type, TRAFFIC_ICMP_ECHO_REPLY);
    f[n - 1] ^= 1;  // a data byte: the ICMP checksum no longer holds
    ck_assert_int_eq(traffic_icmp_echo(f, r, &type, &id, &seq, &dlen), -1);
    ck_assert(!traffic_icmp_data_ok(f, r));
    f[n - 1] ^= 1;
    ck_assert_int_eq(traffic_icmp_echo(f, r - 1, &type, &id, &seq, &dlen), -1);
    ck_assert_uint_eq(traffic_build_icmp_echo(f, &fl, TRAFFIC_ICMP_ECHO_REQUEST, 1, 1, 1473, 1), 0);
}
END_TEST

START_TEST(test_ack_frame_round_trip)
{
    traffic_flow fl{};
    for (int i = 0; i < 6; i++) {
        fl.dst_mac[i] = (uint8_t)(0x10 + i);
        fl.src_mac[i] = (uint8_t)(0x20 + i);
    }
    fl.src_ip = 0xC0A80002u;
    fl.dst_ip = 0xC0A80001u;
    fl.src_port = 5001;
    fl.dst_port = 5201;
    uint8_t f[128];
    const size_t n = traffic_build_tcp_ack(f, &fl, 7, 0x89abcdefu, 23456, 42);
    ck_assert_uint_eq(n, 66);
    int ip_ok = 0, l4_ok = 0;
    ck_assert_int_eq(traffic_ipv4_checks(f, n, &ip_ok, &l4_ok), 0);
    ck_assert(ip_ok && l4_ok);
    traffic_tcp_info t;
    ck_assert_int_eq(traffic_tcp_header(f, n, &t), 0);
    ck_assert_uint_eq(t.seq, 7);
    ck_assert_uint_eq(t.ack, 0x89abcdefu);
    ck_assert_uint_eq(t.window, 23456);
    ck_assert_uint_eq(t.flags, 0x10);
    ck_assert_uint_eq(t.plen, 0);
    // a data segment's header reads back too, and a truncated frame is refused
    uint8_t d[2000];
    const size_t m = traffic_build_tcp(d, 1448, &fl, 1000, 1);
    ck_assert_int_eq(traffic_tcp_header(d, m, &t), 0);
    ck_assert_uint_eq(t.seq, 1000);
    ck_assert_uint_eq(t.plen, 1448);
    ck_assert_uint_eq(t.flags, 0x18);
    ck_assert_int_eq(traffic_tcp_header(d, m - 1, &t), -1);
    f[23] = 17;  // UDP
    ck_assert_int_eq(traffic_tcp_header(f, n, &t), -1);
}
END_TEST

Suite* suite_tcp(void)
{
    Suite* s = suite_create("tcp");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_ack_frame_round_trip);
    tcase_add_test(tc, test_send_limit_holds_new_data);
    tcase_add_test(tc, test_icmp_echo_round_trip);
    tcase_add_test(tc, test_receiver_ack_policy);
    tcase_add_test(tc, test_slow_start_doubles_per_round);
    tcase_add_test(tc, test_window_grows_only_when_used);
    tcase_add_test(tc, test_cubic_curve_after_loss);
    tcase_add_test(tc, test_reno_friendly_region_at_short_rtt);
    tcase_add_test(tc, test_fast_retransmit_repairs_one_loss);
    tcase_add_test(tc, test_rto_after_outage);
    tcase_add_test(tc, test_bulk_stream_fills_bottleneck);
    tcase_add_test(tc, test_hystart_ends_slow_start_on_delay);
    suite_add_tcase(s, tc);
    return s;
}
