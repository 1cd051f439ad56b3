// models/traffic/peer.h: the link partner's own endpoints, beside its
// traffic source and sink: the desktop that the board's TCP stream goes to
// (iperf3 -s: a TCP receiver, models/net/tcp.h, whose ACKs go back to the
// board through the traffic source) and a ping (ICMP echo requests to the
// board, round-trip times of the replies, as ping reports them).
//
// Timing: a segment counts as received at its end on the wire; an ACK the
// receiver wants at once goes ack_delay later and acknowledges everything
// received by then (the desktop's NIC interrupt moderation and GRO fold the
// segments of one interrupt into one ACK); a delayed ACK goes at the
// receiver's timer. A ping's round-trip time runs from its send time (the
// request's scheduled time) to the reply's end on the wire, plus
// ping_turnaround.
//
// Does not model: the desktop's own CPU limits, its SACK blocks and
// timestamps, window updates without data, a TCP stream from the desktop to
// the board (the board's receive side), or ping's own timeout and loss
// report (a reply never seen counts as sent and not received).
#pragma once
#include <deque>
#include <map>
#include <systemc>
#include <vector>
#include "traffic/traffic.h"
#include "net/tcp.h"

namespace models::traffic {

struct peer_stats {
#define S FEC_STAT_MEMBER
#include "traffic/peer_stats.def"
#undef S
};
extern const stat_desc peer_stat_rows[];
extern const size_t peer_stat_count;

class link_peer : public sc_core::sc_module {
public:
    // src: the link partner's traffic source (it sends the ACKs and
    // requests; enable_injection is called here); mss: the stream's segment
    // size (the receiver's "full-sized segment").
    link_peer(sc_core::sc_module_name nm, const peer_config& cfg, const traffic_config& link, traffic_source& src,
              uint32_t mss);
    SC_HAS_PROCESS(link_peer);

    // A frame the board sent (from the sink, FCS good), at its start.
    void from_board(const enet::eth_frame& f);
    void visit_stats(const std::string& prefix, const stat_visitor& v) const;
    void reset_stats();
    const peer_stats& stats() const;
    const net::tcp_receiver& receiver() const { return m_rx; }

private:
    void run();
    void send_ack(tick_t now, bool by_timer);
    void send_ping(tick_t now);
    uint64_t unwrap(uint32_t seq) const;

    const peer_config m_cfg;
    traffic_source& m_src;
    traffic_flow m_tcp_flow{}, m_ping_flow{};
    net::tcp_receiver m_rx;
    struct arrival {
        tick_t end;
        uint32_t seq, len;
    };
    std::deque<arrival> m_arrivals;  // segments on the wire, in order of their ends
    bool m_ack_pending = false;
    tick_t m_ack_at = 0;
    tick_t m_next_ping;
    uint16_t m_ping_seq = 0, m_ip_id = 0;
    std::map<uint16_t, tick_t> m_outstanding;  // echo requests not answered: sequence -> send time
    tick_t m_reset_at = 0;
    mutable peer_stats m_stats{};
    net::tcp_receiver_stats m_rx_base{};  // the receiver's counts at the last reset
    std::vector<uint8_t> m_frame;
    sc_core::sc_event m_ev;
};

} // namespace models::traffic
