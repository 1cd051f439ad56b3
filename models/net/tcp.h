// models/net/tcp.h: the TCP endpoints of a bulk stream (iperf3 TCP), as
// state machines without SystemC: a sender with Linux's CUBIC congestion
// control and HyStart, RFC 6298 retransmission timing with Linux's 200-ms
// floor, fast retransmit and NewReno recovery, and a receiver with Linux's
// acknowledgement policy (an ACK for every second full-sized segment, at
// once for out-of-order data, else after the delayed-ACK timeout). Sequence
// numbers are 64-bit stream offsets (no wrap); windows count bytes; time is
// in ps. The caller moves the segments and ACKs and calls the timers when
// their deadlines come: the board's stack (drivers/khost) for the board's
// end, the link partner (models/traffic) for the desktop's.
//
// Behaviour and constants: Linux 6.12 net/ipv4/tcp_cubic.c, tcp_cong.c,
// tcp_input.c, tcp_output.c, include/net/tcp.h; RFC 9438 (CUBIC), RFC 6298
// (RTO), RFC 6582 (NewReno), RFC 6928 (initial window); docs/sources.md §13.
//
// Not modelled (docs/design.md §6): SACK and RACK-TLP (losses are repaired
// one per round trip, as NewReno), PRR (the window falls to ssthresh at once
// on entering recovery), window scaling limits (the receive window is a
// byte count), timestamps, the SYN handshake (the stream starts established
// with the initial window), ECN, and pacing (CUBIC does not ask for it and
// fq_codel does not pace).
#pragma once
#include <cstdint>
#include <deque>
#include "common/ticks.h"

namespace models::net {

struct tcp_config {
    uint32_t mss = 1448;                  // payload bytes of a full-sized segment
    uint32_t init_cwnd = 10;              // segments (TCP_INIT_CWND, RFC 6928)
    uint32_t init_ssthresh = 0x7fffffff;  // segments: "infinite" (TCP_INFINITE_SSTHRESH)
    uint32_t cwnd_clamp = 0x7fffffff;     // segments
    uint32_t dupthresh = 3;               // duplicate ACKs that mean a loss (tcp_reordering)
    tick_t rto_min_ps = 200 * 1000 * PS_PER_US;   // TCP_RTO_MIN (HZ/5)
    tick_t rto_init_ps = 1000 * 1000 * PS_PER_US; // TCP_TIMEOUT_INIT (RFC 6298 2.1)
    tick_t rto_max_ps = 120ull * PS_PER_S;        // TCP_RTO_MAX
    // CUBIC (tcp_cubic.c module parameters)
    double cubic_c = 0.4;                 // bic_scale 41 * 10 / 1024: segments per s^3
    uint32_t cubic_beta = 717;            // /1024: the window kept on a loss
    bool fast_convergence = true;
    bool tcp_friendliness = true;
    bool hystart = true;
    uint32_t hystart_low_window = 16;     // segments: HyStart looks only above this window
    tick_t hystart_ack_delta_ps = 2000 * PS_PER_US;  // ACKs closer than this form a train
};

// CUBIC as tcp_cubic.c computes it, with the window in whole segments and
// the cubic function in double precision (the kernel's fixed point rounds
// K to 1/1024 s and the target to a segment; the update is recomputed on
// every ACK here rather than at most once a jiffy).
class cubic {
public:
    explicit cubic(const tcp_config& cfg) : m_cfg(cfg) {}
    // Slow start, then CUBIC growth, for `acked` newly acknowledged segments
    // at `now`, when the sender was window-limited (tcp_is_cwnd_limited).
    void cong_avoid(uint32_t& cwnd, uint32_t& cwnd_cnt, uint32_t ssthresh, uint32_t acked, tick_t now);
    // The slow-start threshold after a loss (cubictcp_recalc_ssthresh): ends
    // the epoch and remembers W_max (less with fast convergence).
    uint32_t recalc_ssthresh(uint32_t cwnd);
    // A retransmission timeout: all state but the configuration forgotten
    // (cubictcp_state(TCP_CA_Loss)).
    void reset();
    // An RTT sample of newly acknowledged data (cubictcp_acked): the minimum
    // delay and, in slow start, HyStart's two detectors; may lower ssthresh
    // to cwnd to end slow start. snd_una/snd_nxt delimit HyStart's rounds.
    void on_rtt(tick_t rtt, tick_t now, uint32_t cwnd, uint32_t& ssthresh, uint64_t snd_una, uint64_t snd_nxt);
    uint32_t last_max_cwnd() const { return (uint32_t)m_last_max; }
    tick_t delay_min() const { return m_delay_min; }
    bool hystart_found() const { return m_found; }

private:
    void hystart_reset(tick_t now, uint64_t snd_nxt);
    const tcp_config m_cfg;
    double m_last_max = 0;      // W_max, segments
    double m_origin = 0;        // W at t = K
    double m_k_s = 0;           // K, s
    tick_t m_epoch = 0;         // start of the epoch (0: none)
    bool m_in_epoch = false;
    uint32_t m_ack_cnt = 0;     // segments acked in the epoch, for the Reno estimate
    uint32_t m_tcp_cwnd = 0;    // the Reno-friendly window estimate
    tick_t m_delay_min = 0;
    // HyStart
    bool m_found = false;
    bool m_round_open = false;
    uint64_t m_end_seq = 0;
    tick_t m_round_start = 0, m_last_ack = 0;
    tick_t m_curr_rtt = 0;
    uint32_t m_sample_cnt = 0;
};

// A 32-bit sequence or acknowledgement number as the 64-bit stream offset
// nearest `near` (the numbers in flight are within 2^31 of it).
inline uint64_t tcp_unwrap(uint64_t near, uint32_t seq)
{
    return near + (uint64_t)(int64_t)(int32_t)(seq - (uint32_t)near);
}

struct tcp_sender_stats {
    uint64_t segs_out = 0;       // segments (MSS units) transmitted, retransmissions included
    uint64_t bytes_out = 0;      // payload bytes transmitted, retransmissions included
    uint64_t retrans_segs = 0;   // segments retransmitted
    uint64_t fast_retrans = 0;   // recoveries entered on duplicate ACKs
    uint64_t rto_events = 0;     // retransmission timeouts
    uint64_t cwr_events = 0;     // window reductions on local congestion (qdisc drop)
    uint64_t dupacks = 0;        // duplicate ACKs received
    uint64_t acks = 0;           // ACKs received
    uint64_t hystart_exits = 0;  // slow starts HyStart ended
};

// One unit handed down (a TSO/GSO skb of one or more segments).
struct tcp_unit {
    uint64_t seq;     // stream offset of its first byte
    uint32_t len;     // payload bytes
    bool retrans;     // a retransmission
};

class tcp_sender {
public:
    explicit tcp_sender(const tcp_config& cfg);
    // Payload bytes the windows let go out now: min(cwnd, receive window)
    // less the bytes in flight; retransmissions come first (next_unit).
    uint64_t window_bytes() const;
    // The next unit to transmit at `now`, of at most max_len bytes (a whole
    // number of segments unless the window leaves less): a retransmission
    // if one is due, else new data (the application always has more: a bulk
    // sender). False when the windows allow nothing.
    bool next_unit(tick_t now, uint32_t max_len, tcp_unit* out);
    // New data ends at stream offset `end` (what the application has
    // written); without a call the application always has more.
    void set_send_limit(uint64_t end) { m_limit = end; }
    // A unit next_unit gave was not sent after all (the qdisc dropped it:
    // NET_XMIT_DROP): it is taken back and the window reduced as by
    // tcp_enter_cwr.
    void unsend(const tcp_unit& u, tick_t now);
    // An acknowledgement: cumulative ack (stream offset), the peer's
    // advertised window in bytes, at `now`.
    void on_ack(uint64_t ack, uint64_t rwnd, tick_t now);
    // The retransmission timer: its deadline (0: not armed) and its expiry.
    tick_t rto_deadline() const { return m_rto_deadline; }
    void on_rto(tick_t now);

    uint32_t cwnd() const { return m_cwnd; }
    uint32_t ssthresh() const { return m_ssthresh; }
    uint64_t snd_una() const { return m_una; }
    uint64_t snd_nxt() const { return m_nxt; }
    uint64_t in_flight() const { return m_nxt - m_una; }
    tick_t srtt() const { return m_srtt; }
    tick_t rto() const { return m_rto; }
    bool in_recovery() const { return m_recovery; }
    const cubic& cc() const { return m_cc; }
    const tcp_sender_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = tcp_sender_stats{}; }

private:
    struct sent {
        uint64_t seq;
        uint32_t len;
        tick_t at;
        bool retrans;  // Karn: no RTT sample from a retransmitted unit
    };
    uint32_t segs(uint64_t bytes) const { return (uint32_t)((bytes + m_cfg.mss - 1) / m_cfg.mss); }
    void rtt_sample(tick_t rtt);
    void arm_rto(tick_t now);
    void cwnd_validate(bool limited);

    const tcp_config m_cfg;
    cubic m_cc;
    uint32_t m_cwnd, m_cwnd_cnt = 0, m_ssthresh;
    uint64_t m_una = 0, m_nxt = 0, m_rwnd;
    uint64_t m_limit = ~(uint64_t)0;  // end of the data written (set_send_limit)
    uint64_t m_max_packets_out = 0;   // most segments in flight in the current window
    bool m_cwnd_limited = false;      // the window, not the application, held sending back in it
    uint64_t m_usage_seq = 0;         // snd_nxt when those two were recorded
    uint32_t m_dupacks = 0;
    bool m_recovery = false;
    uint64_t m_recover = 0;           // snd_nxt when recovery began (RFC 6582)
    uint64_t m_retx_next = 0;         // retransmission due from here (< m_retx_end)
    uint64_t m_retx_end = 0;
    uint32_t m_inflate = 0;           // segments the window is inflated by in recovery
    uint64_t m_high = 0;              // highest offset sent before the latest timeout
    tick_t m_srtt = 0, m_rttvar = 0, m_rto;
    unsigned m_backoff = 0;
    tick_t m_rto_deadline = 0;
    std::deque<sent> m_sent;          // units in flight, oldest first
    tcp_sender_stats m_stats;
};

struct tcp_receiver_stats {
    uint64_t segs_in = 0;       // segments (MSS units) received
    uint64_t bytes_in = 0;      // in-order payload bytes delivered
    uint64_t ooo_segs = 0;      // segments that arrived out of order (beyond a hole)
    uint64_t dup_segs = 0;      // segments entirely below rcv_nxt
    uint64_t acks_out = 0;      // ACKs sent
    uint64_t delayed_acks = 0;  // of them, sent by the delayed-ACK timer
};

struct tcp_receiver_config {
    uint32_t mss = 1448;
    uint64_t rwnd_bytes = 3u << 20;                 // advertised window: a bulk receiver's buffer
    tick_t delack_ps = 40 * 1000 * PS_PER_US;       // TCP_DELACK_MIN (HZ/25): 40 ms
    uint32_t quickacks = 16;                        // TCP_MAX_QUICKACKS: first segments ACKed at once
};

// A receiving endpoint. Out-of-order data is kept (as the out-of-order
// queue does) and counted; every call returns whether an ACK must go now.
class tcp_receiver {
public:
    explicit tcp_receiver(const tcp_receiver_config& cfg) : m_cfg(cfg) {}
    // A segment of len payload bytes at stream offset seq, at `now`: true if
    // an ACK is due at once (then call ack_sent).
    bool on_segment(uint64_t seq, uint32_t len, tick_t now);
    // The delayed-ACK timer: deadline (0: not armed); at it, send an ACK.
    tick_t delack_deadline() const { return m_delack; }
    void ack_sent(tick_t now, bool by_timer);
    uint64_t rcv_nxt() const { return m_nxt; }
    uint64_t rwnd() const { return m_cfg.rwnd_bytes; }
    const tcp_receiver_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = tcp_receiver_stats{}; }

private:
    const tcp_receiver_config m_cfg;
    uint64_t m_nxt = 0;
    uint64_t m_acked = 0;                 // rcv_nxt at the last ACK sent (rcv_wup)
    std::deque<std::pair<uint64_t, uint64_t>> m_ooo;  // [start, end) ranges beyond rcv_nxt, sorted
    uint32_t m_quick;
    bool m_quick_init = false;
    tick_t m_delack = 0;
    tcp_receiver_stats m_stats;
};

} // namespace models::net
