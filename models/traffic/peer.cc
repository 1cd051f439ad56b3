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
    : sc_module(nm), m_cfg(cfg), m_src(src), m_rx(receiver_config(cfg, mss)), m_next_ping(cfg.ping_start_ps)
{
    // From the desktop (the traffic source's addresses) to the board.
    for (traffic_flow* f : {&m_tcp_flow, &m_ping_flow}) {
        mac_of(link.dst_mac, f->dst_mac);
        mac_of(link.src_mac, f->src_mac);
        f->src_ip = link.src_ip;
        f->dst_ip = link.dst_ip;
    }
    m_tcp_flow.src_port = k_peer_tcp_port;
    m_tcp_flow.dst_port = k_board_tcp_port;
    m_frame.resize(TRAFFIC_ICMP_L2L4_HDR + 1500);
    src.enable_injection();
    SC_THREAD(run);
}

uint64_t link_peer::unwrap(uint32_t seq) const
{
    const uint64_t base = m_rx.rcv_nxt();
    return base + (uint64_t)(int64_t)(int32_t)(seq - (uint32_t)base);
}

void link_peer::from_board(const enet::eth_frame& f)
{
    const size_t len = f.len - enet::FCS_BYTES;
    const tick_t end = f.start_ps + (enet::PREAMBLE_BYTES + f.len) * f.byte_ps;
    traffic_tcp_info t;
    if (traffic_tcp_header(f.data, len, &t) == 0) {
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
        tick_t next = never;
        if (!m_arrivals.empty())
            next = m_arrivals.front().end;
        if (m_ack_pending)
            next = std::min(next, m_ack_at);
        else if (m_rx.delack_deadline())
            next = std::min(next, m_rx.delack_deadline());
        if (m_cfg.ping)
            next = std::min(next, m_next_ping);
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
    return m_stats;
}

void link_peer::reset_stats()
{
    m_stats = peer_stats{};
    m_rx_base = m_rx.stats();
    m_reset_at = now_ps();
}

void link_peer::visit_stats(const std::string& prefix, const stat_visitor& v) const
{
    stats_visit(&stats(), peer_stat_rows, peer_stat_count, prefix, v);
}

} // namespace models::traffic
