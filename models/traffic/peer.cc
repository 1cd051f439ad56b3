#include "traffic/peer.h"
#include <algorithm>
#include <cmath>
#include "common/log.h"

namespace models::traffic {

static const param_desc k_peer_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(peer_config, __VA_ARGS__)
#include "traffic/peer_params.def"
#undef P
};
const param_table peer_param_table = {"peer", "The link partner's own endpoints: the TCP receiver of the board's stream (iperf3 -s) and ping",
                                      k_peer_rows, sizeof k_peer_rows / sizeof k_peer_rows[0]};

const stat_desc peer_stat_rows[] = {
#define S(...) FEC_STAT_ROW(peer_stats, __VA_ARGS__)
#include "traffic/peer_stats.def"
#undef S
};
const size_t peer_stat_count = sizeof peer_stat_rows / sizeof peer_stat_rows[0];

static const uint16_t k_ping_id = 0x4650;  // ping's identifier (its process id)
static const uint16_t k_board_tcp_port = 5201, k_peer_tcp_port = 5001;  // drivers/khost/tx.cc
static const uint16_t k_peer_send_port = 40000;  // the desktop's iperf3 -c: an ephemeral port (drivers/khost/board_stack.cc)
static const uint32_t k_gso_max = 65536;          // the desktop's TSO skbs: at most 64 KiB

static net::tcp_receiver_config receiver_config(const peer_config& c, uint32_t mss)
{
    net::tcp_receiver_config r;
    r.mss = mss;
    r.rwnd_bytes = c.rwnd_bytes;
    r.delack_ps = c.delack_ps;
    return r;
}

static void mac_of(uint64_t v, uint8_t* out)
{
    for (int i = 0; i < 6; i++)
        out[i] = (uint8_t)(v >> (8 * (5 - i)));
}

link_peer::link_peer(sc_core::sc_module_name nm, const peer_config& cfg, const traffic_config& link,
                     traffic_source& src, uint32_t mss)
    : sc_module(nm), m_cfg(cfg), m_src(src), m_rx(receiver_config(cfg, mss)), m_next_ping(cfg.ping_start_ps), m_mss(mss)
{
    // From the desktop (the traffic source's addresses) to the board.
    for (traffic_flow* f : {&m_tcp_flow, &m_ping_flow, &m_snd_flow}) {
        mac_of(link.dst_mac, f->dst_mac);
        mac_of(link.src_mac, f->src_mac);
        f->src_ip = link.src_ip;
        f->dst_ip = link.dst_ip;
    }
    m_tcp_flow.src_port = k_peer_tcp_port;
    m_tcp_flow.dst_port = k_board_tcp_port;
    m_snd_flow.src_port = k_peer_send_port;
    m_snd_flow.dst_port = k_board_tcp_port;
    if (cfg.tcp_send) {
        net::tcp_config tc;
        tc.mss = mss;
        m_snd.reset(new net::tcp_sender(tc));
    }
    m_frame.resize(TRAFFIC_TCP_L2L4_HDR + 65536);
    src.enable_injection();
    SC_THREAD(run);
}

uint64_t link_peer::unwrap(uint32_t seq) const
{
    return net::tcp_unwrap(m_rx.rcv_nxt(), seq);
}

void link_peer::from_board(const enet::eth_frame& f)
{
    const size_t len = f.len - enet::FCS_BYTES;
    const tick_t end = f.start_ps + (enet::PREAMBLE_BYTES + f.len) * f.byte_ps;
    traffic_tcp_info t;
    if (traffic_tcp_header(f.data, len, &t) == 0) {
        const uint16_t dport = (uint16_t)((uint32_t)f.data[36] << 8 | f.data[37]);
        if (m_snd && dport == k_peer_send_port && (t.flags & TRAFFIC_TCP_ACK)) {
            m_acks.push_back(ack_in{end + m_cfg.ack_delay_ps, t.ack, t.window});
            m_ev.notify(from_ps(m_acks.back().at - now_ps()));
            return;
        }
        if (t.plen && ((uint32_t)f.data[36] << 8 | f.data[37]) == k_peer_tcp_port) {
            m_arrivals.push_back(arrival{end, t.seq, (uint32_t)t.plen});
            m_ev.notify(from_ps(end - now_ps()));
        }
        return;
    }
    int type;
    uint16_t id, seq;
    size_t dlen;
    if (traffic_icmp_echo(f.data, len, &type, &id, &seq, &dlen) != 0 || type != TRAFFIC_ICMP_ECHO_REPLY ||
        id != k_ping_id)
        return;
    auto it = m_outstanding.find(seq);
    if (it == m_outstanding.end() || dlen != m_cfg.ping_bytes || !traffic_icmp_data_ok(f.data, len)) {
        m_stats.ping_bad++;
        return;
    }
    const tick_t sent_at = it->second;
    m_outstanding.erase(it);
    if (sent_at < m_reset_at)
        return;
    const uint64_t rtt_ns = (end + m_cfg.ping_turnaround_ps - sent_at) / PS_PER_NS;
    m_stats.ping_received++;
    if (!m_stats.rtt_min_ns || rtt_ns < m_stats.rtt_min_ns)
        m_stats.rtt_min_ns = rtt_ns;
    m_stats.rtt_max_ns = std::max(m_stats.rtt_max_ns, rtt_ns);
    m_stats.rtt_sum_ns += rtt_ns;
    const uint64_t us = (rtt_ns + 500) / 1000;
    m_stats.rtt_sq_sum_us2 += us * us;
}

void link_peer::send_ack(tick_t now, bool by_timer)
{
    const uint64_t wnd = std::min<uint64_t>(m_rx.rwnd() >> TRAFFIC_PEER_WSCALE, 0xFFFF);
    const size_t n = traffic_build_tcp_ack(m_frame.data(), &m_tcp_flow, 0, (uint32_t)m_rx.rcv_nxt(), (uint16_t)wnd,
                                           m_ip_id++);
    m_src.inject(m_frame.data(), (uint32_t)n, now);
    m_rx.ack_sent(now, by_timer);
    m_ack_pending = false;
}

void link_peer::send_ping(tick_t now)
{
    const uint16_t seq = ++m_ping_seq;
    const size_t n = traffic_build_icmp_echo(m_frame.data(), &m_ping_flow, TRAFFIC_ICMP_ECHO_REQUEST, k_ping_id, seq,
                                             m_cfg.ping_bytes, m_ip_id++);
    m_src.inject(m_frame.data(), (uint32_t)n, now);
    m_outstanding[seq] = now;
    m_stats.ping_sent++;
}

// The desktop's stream: tcp_write_xmit's units, as the windows allow, into
// its qdisc while the stream's bytes there and in the NIC are under
// send_queue_bytes (one unit may go over, as TSQ lets the skb that crosses
// the limit through); from the qdisc, segments (its NIC's TSO) to the line
// while the NIC holds under nic_queue_bytes (BQL). Ping and ACKs go to the
// NIC directly: fq_codel serves a sparse flow before the bulk stream.
void link_peer::push(tick_t now)
{
    m_queue_wait = 0;
    if (!m_snd || now < m_cfg.tcp_start_ps)
        return;
    const uint32_t unit_max = (k_gso_max - TRAFFIC_TCP_L2L4_HDR) / m_mss * m_mss;
    for (;;) {
        if (m_qdisc_bytes + m_src.inject_queued_bytes() >= m_cfg.send_queue_bytes)
            break;
        net::tcp_unit u;
        if (!m_snd->next_unit(now, unit_max, &u))
            break;
        for (uint32_t off = 0; off < u.len; off += m_mss) {
            const uint32_t n = std::min(m_mss, u.len - off);
            m_qdisc.push_back(segment{u.seq + off, n});
            m_qdisc_bytes += n + TRAFFIC_TCP_L2L4_HDR;
        }
    }
    const uint64_t wnd = std::min<uint64_t>(m_rx.rwnd() >> TRAFFIC_PEER_WSCALE, 0xFFFF);
    while (!m_qdisc.empty() && m_src.inject_queued_bytes() < m_cfg.nic_queue_bytes) {
        const segment sg = m_qdisc.front();
        m_qdisc.pop_front();
        m_qdisc_bytes -= sg.len + TRAFFIC_TCP_L2L4_HDR;
        // PSH on the segment that holds the end of one of iperf3's writes
        const uint64_t w = m_cfg.send_write_bytes;
        const bool psh = (sg.seq + sg.len) / w != sg.seq / w || (sg.seq + sg.len) % w == 0;
        const uint8_t flags = (uint8_t)(TRAFFIC_TCP_ACK | (psh ? TRAFFIC_TCP_PSH : 0));
        const size_t len = traffic_build_tcp_seg(m_frame.data(), sg.len, &m_snd_flow, (uint32_t)sg.seq, 1, flags,
                                                 (uint16_t)wnd, m_ip_id++);
        m_src.inject(m_frame.data(), (uint32_t)len, now);
    }
    // look again when what the NIC holds has started on the line
    if (!m_qdisc.empty())
        m_queue_wait = now + std::max<uint64_t>(m_src.inject_queued_bytes(), 1) * m_src.byte_ps();
}

void link_peer::run()
{
    const tick_t never = ~(tick_t)0;
    for (;;) {
        const tick_t now = now_ps();
        while (!m_arrivals.empty() && m_arrivals.front().end <= now) {
            const arrival a = m_arrivals.front();
            m_arrivals.pop_front();
            if (m_rx.on_segment(unwrap(a.seq), a.len, a.end) && !m_ack_pending) {
                m_ack_pending = true;
                m_ack_at = a.end + m_cfg.ack_delay_ps;
            }
        }
        if (m_ack_pending && m_ack_at <= now)
            send_ack(now, false);
        else if (!m_ack_pending && m_rx.delack_deadline() && m_rx.delack_deadline() <= now)
            send_ack(now, true);
        if (m_cfg.ping && now >= m_next_ping) {
            send_ping(now);
            m_next_ping += m_cfg.ping_interval_ps;
        }
        if (m_snd) {
            bool acked = false;
            while (!m_acks.empty() && m_acks.front().at <= now) {
                const ack_in a = m_acks.front();
                m_acks.pop_front();
                m_snd->on_ack(net::tcp_unwrap(m_snd->snd_una(), a.ack), (uint64_t)a.window << TRAFFIC_PEER_WSCALE, a.at);
                m_stats.acks_in++;
                acked = true;
            }
            if (m_snd->rto_deadline() && m_snd->rto_deadline() <= now) {
                m_snd->on_rto(now);
                acked = true;
            }
            if (acked || now >= m_cfg.tcp_start_ps)
                push(now);
        }
        tick_t next = never;
        if (!m_arrivals.empty())
            next = m_arrivals.front().end;
        if (m_ack_pending)
            next = std::min(next, m_ack_at);
        else if (m_rx.delack_deadline())
            next = std::min(next, m_rx.delack_deadline());
        if (m_cfg.ping)
            next = std::min(next, m_next_ping);
        if (m_snd) {
            if (!m_acks.empty())
                next = std::min(next, m_acks.front().at);
            if (m_snd->rto_deadline())
                next = std::min(next, m_snd->rto_deadline());
            if (m_queue_wait)
                next = std::min(next, m_queue_wait);
            if (now < m_cfg.tcp_start_ps)
                next = std::min(next, m_cfg.tcp_start_ps);
        }
        if (next == never)
            wait(m_ev);
        else
            wait(from_ps(std::max(next, now) - now), m_ev);
    }
}

const peer_stats& link_peer::stats() const
{
    const net::tcp_receiver_stats& r = m_rx.stats();
    m_stats.tcp_segments = r.segs_in - m_rx_base.segs_in;
    m_stats.tcp_bytes = r.bytes_in - m_rx_base.bytes_in;
    m_stats.tcp_ooo = r.ooo_segs - m_rx_base.ooo_segs;
    m_stats.tcp_dups = r.dup_segs - m_rx_base.dup_segs;
    m_stats.acks = r.acks_out - m_rx_base.acks_out;
    m_stats.delayed_acks = r.delayed_acks - m_rx_base.delayed_acks;
    if (m_snd) {
        const net::tcp_sender_stats& t = m_snd->stats();
        m_stats.tx_segments = t.segs_out - m_snd_base.segs_out;
        m_stats.tx_bytes = t.bytes_out - m_snd_base.bytes_out;
        m_stats.tx_retrans_segs = t.retrans_segs - m_snd_base.retrans_segs;
        m_stats.tx_rto_events = t.rto_events - m_snd_base.rto_events;
        m_stats.tx_fast_retrans = t.fast_retrans - m_snd_base.fast_retrans;
        m_stats.tx_cwnd = m_snd->cwnd();
    }
    return m_stats;
}

void link_peer::reset_stats()
{
    m_stats = peer_stats{};
    m_rx_base = m_rx.stats();
    if (m_snd)
        m_snd_base = m_snd->stats();
    m_reset_at = now_ps();
}

void link_peer::visit_stats(const std::string& prefix, const stat_visitor& v) const
{
    stats_visit(&stats(), peer_stat_rows, peer_stat_count, prefix, v);
}

} // namespace models::traffic
