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
// With tcp_send, the desktop also sends a stream to the board (iperf3 -c
// there, the board's receive side): a TCP sender (models/net/tcp.h, CUBIC)
// whose segments wait in the desktop's qdisc, at most send_queue_bytes of
// them there and in its NIC (TCP Small Queues), and go to the traffic
// source while the NIC holds under nic_queue_bytes (BQL); its ping and ACKs
// go to the NIC directly (fq_codel serves sparse flows first). An ACK from
// the board takes effect ack_delay after its end on the wire.
//
// Does not model: the desktop's own CPU limits, its SACK blocks and
// timestamps, window updates without data, or ping's own timeout and loss
// report (a reply never seen counts as sent and not received).
#pragma once
#include <deque>
#include <map>
#include <memory>
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
    // The desktop's sender (tcp_send; null otherwise).
    const net::tcp_sender* sender() const { return m_snd.get(); }

private:
    void run();
    void send_ack(tick_t now, bool by_timer);
    void send_ping(tick_t now);
    void push(tick_t now);  // the desktop's stream: what the windows and its queue allow
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
    // the desktop's stream to the board (tcp_send)
    std::unique_ptr<net::tcp_sender> m_snd;
    traffic_flow m_snd_flow{};
    uint32_t m_mss;
    struct ack_in {
        tick_t at;  // when it takes effect
        uint32_t ack;
        uint16_t window;
    };
    std::deque<ack_in> m_acks;
    struct segment {
        uint64_t seq;
        uint32_t len;
    };
    std::deque<segment> m_qdisc;  // the stream's segments in the desktop's qdisc
    uint64_t m_qdisc_bytes = 0;   // their bytes (headers included)
    tick_t m_queue_wait = 0;      // segments wait for the NIC: look again then
    net::tcp_sender_stats m_snd_base{};
    mutable peer_stats m_stats{};
    net::tcp_receiver_stats m_rx_base{};  // the receiver's counts at the last reset
    std::vector<uint8_t> m_frame;
    sc_core::sc_event m_ev;
};

} // namespace models::traffic
