#include "drivers/khost/tx.h"
#include "drivers/khost/board_stack.h"
#include <algorithm>
#include <stdexcept>
#include "drivers/shim/shim.h"
#include "drivers/shim/v6/fecsim_v6.h"
#include "common/log.h"

namespace khost {

using namespace models;

static const param_desc k_tx_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(tx_config, __VA_ARGS__)
#include "drivers/khost/tx_params.def"
#undef P
};
const param_table tx_param_table = {"tx", "sending application (iperf3 -c -u, or a TCP stream): UDP datagrams or TCP sends into the driver",
                                    k_tx_rows, sizeof k_tx_rows / sizeof k_tx_rows[0]};

const stat_desc tx_stat_rows[] = {
#define S(...) FEC_STAT_ROW(tx_stats, __VA_ARGS__)
#include "drivers/khost/tx_stats.def"
#undef S
};
const size_t tx_stat_count = sizeof tx_stat_rows / sizeof tx_stat_rows[0];

static const stat_desc k_txq_rows[] = {
#define S(...) FEC_STAT_ROW(fecsim_v6_tx_stats, __VA_ARGS__)
#include "drivers/shim/v6/tx_stats.def"
#undef S
};

static const uint32_t k_proto_tcp = 1;      // tx.protocol's second choice (open loop)
static const uint32_t k_proto_cubic = 2;    // tcp_cubic: ACK-clocked through the board's stack
static const uint64_t k_tcp_wmem_max = 4u << 20;
static const uint32_t k_flow_app = 0x5EC7u;  // the sender's flow hash in the qdisc (any value but the stack's own)  // net.ipv4.tcp_wmem[2]: the autotuned send buffer's ceiling
static const uint32_t k_max_skb_frags = 17;  // MAX_SKB_FRAGS of the shim's 6.x skbuff.h

bool tx_task::tcp_cubic() const { return m_cfg.protocol == k_proto_cubic; }

tx_task::tx_task(const tx_config& cfg, cpu::core& c, void** ndev, const tx_v6_port& port, board_stack* stack)
    : m_cfg(cfg), m_core(c), m_ndev(ndev), m_port(port), m_stack(stack), m_next(cfg.start_ps),
      m_interval((tick_t)(1e12 / cfg.rate_fps + 0.5))
{
    mode = cpu::ctx::sys;
    if (!m_port.xmit && (cfg.protocol != 0 || cfg.head_bytes || cfg.sndbuf))
        throw std::invalid_argument(std::string(cfg.protocol == k_proto_tcp     ? "tx.protocol=tcp"
                                                : cfg.protocol == k_proto_cubic ? "tx.protocol=tcp_cubic"
                                                : cfg.head_bytes            ? "tx.head_bytes"
                                                                            : "tx.sndbuf") +
                                    " needs a kernel tree's driver (driver.tree): fecsim's own driver's transmit "
                                    "path takes linear UDP datagrams");
    // What the stack would never hand a driver (the shim stops on it too).
    const bool tcp = cfg.protocol == k_proto_tcp || cfg.protocol == k_proto_cubic;
    const uint32_t send = cfg.send_bytes ? cfg.send_bytes : cfg.mss;
    const uint32_t headers = tcp ? TRAFFIC_TCP_L2L4_HDR : TRAFFIC_L2L4_HDR;
    const uint32_t len = tcp ? headers + send : cfg.frame_bytes - TRAFFIC_FCS;
    if (cfg.head_bytes && cfg.head_bytes < headers)
        throw std::invalid_argument("tx.head_bytes=" + std::to_string(cfg.head_bytes) +
                                    " is shorter than the frame's headers (" + std::to_string(headers) +
                                    " B): the stack keeps them in the linear head");
    if (cfg.head_bytes && cfg.head_bytes < len &&
        (len - cfg.head_bytes + cfg.frag_bytes - 1) / cfg.frag_bytes > k_max_skb_frags)
        throw std::invalid_argument("tx.head_bytes=" + std::to_string(cfg.head_bytes) + " and tx.frag_bytes=" +
                                    std::to_string(cfg.frag_bytes) + " leave more than MAX_SKB_FRAGS (" +
                                    std::to_string(k_max_skb_frags) + ") page fragments for a " +
                                    std::to_string(len) + "-B frame");
    if (tcp && send > cfg.mss && !cfg.csum_offload)
        throw std::invalid_argument("tx.send_bytes=" + std::to_string(send) + " > tx.mss makes GSO skbs, which need "
                                    "tx.csum_offload=true (TSO implies checksum offload)");
    // From the board (its address, 192.168.0.1) to the link partner (02:00:00:00:00:02).
    const uint8_t peer[6] = {0x02, 0, 0, 0, 0, 0x02};
    for (int i = 0; i < 6; i++) {
        m_flow.src_mac[i] = (uint8_t)(cfg.board_mac >> (8 * (5 - i)));
        m_flow.dst_mac[i] = peer[i];
    }
    m_flow.src_ip = 0xC0A80001u;
    m_flow.dst_ip = 0xC0A80002u;
    m_flow.src_port = 5201;
    m_flow.dst_port = 5001;
    m_frame.resize(tcp ? TRAFFIC_TCP_L2L4_HDR + send : cfg.frame_bytes);
    if (m_stack)
        m_stack->set_app(&tx_task::woken, &tx_task::wmem, this, &c);
    if (tcp_cubic()) {
        if (!m_stack)
            throw std::logic_error("tx.protocol=tcp_cubic without the board's transmit stack");
        net::tcp_config tc;
        tc.mss = cfg.mss;
        m_stack->tcp_open(tc, m_flow, cfg);
    }
    c.wake_at(m_next);
}

// tx.protocol=tcp_cubic: ACKs freed send-buffer room while the writer
// waited for it (board_stack::app_waits).
void tx_task::woken(void* self)
{
    auto* t = static_cast<tx_task*>(self);
    if (!t->tcp_cubic())
        return;
    cpu::core* c = cpu::core::current();
    t->m_stack->app_waits(false);
    t->m_core.wake(c ? c->now() : now_ps());
}

// The socket's charge (board_stack::app_wmem, already updated) changed by
// delta. A sender waiting for send-buffer space (sock_wait_for_wmem) runs
// again once the charge is below sk_sndbuf.
void tx_task::wmem(void* self, long delta)
{
    auto* t = static_cast<tx_task*>(self);
    if (delta >= 0 || !t->m_cfg.sndbuf)
        return;
    const uint64_t now_b = t->m_stack->app_wmem();
    if (now_b >= t->m_cfg.sndbuf || now_b + (uint64_t)-delta < t->m_cfg.sndbuf)
        return;  // still full, or was not
    cpu::core* c = cpu::core::current();
    const tick_t at = c ? c->now() : now_ps();
    t->m_next = std::max(t->m_next, at);
    t->m_core.wake(at);
}

bool tx_task::sndbuf_full() const { return m_cfg.sndbuf && m_stack && m_stack->app_wmem() >= m_cfg.sndbuf; }

bool tx_task::runnable() const
{
    if (!*m_ndev && !m_port.xmit)
        return false;
    if (tcp_cubic()) {
        const tick_t t = m_stack->tcp_timer();
        if (t && m_core.now() >= t)
            return true;
        const uint64_t sndbuf = m_cfg.sndbuf ? m_cfg.sndbuf : k_tcp_wmem_max;
        if (m_core.now() < m_next || (m_cfg.count && m_stats.attempts >= m_cfg.count))
            return false;
        if (m_stack->tcp_room(sndbuf))
            return true;
        m_stack->app_waits(true);  // sk_stream_wait_memory
        return false;
    }
    if (sndbuf_full())  // blocked in sendmsg until TX completion frees space
        return false;
    return (!m_cfg.count || m_stats.attempts < m_cfg.count) && m_core.now() >= m_next;
}

size_t tx_task::build(uint32_t* payload)
{
    if (m_cfg.protocol == k_proto_tcp) {
        const uint32_t n = m_cfg.send_bytes ? m_cfg.send_bytes : m_cfg.mss;
        const size_t len = traffic_build_tcp(m_frame.data(), n, &m_flow, m_seq, m_ip_id);
        m_ip_id = (uint16_t)(m_ip_id + (n + m_cfg.mss - 1) / m_cfg.mss);  // one IP id a segment
        m_seq += n;
        *payload = n;
        return len;
    }
    const size_t len = traffic_build_frame(m_frame.data(), m_cfg.frame_bytes, &m_flow, m_seq++);
    *payload = (uint32_t)(len >= TRAFFIC_L2L4_HDR + TRAFFIC_FCS ? len - TRAFFIC_L2L4_HDR - TRAFFIC_FCS : 0);
    return len >= TRAFFIC_FCS ? len - TRAFFIC_FCS : 0;  // the MAC appends the FCS (TC)
}

// iperf3 -c: write() after write() of write_bytes while the send buffer has
// room (the stack sends them as the window allows, from the ACKs' softirq);
// the retransmission timer fires here too.
void tx_task::step_stream(cpu::core& c)
{
    const tick_t t = m_stack->tcp_timer();
    if (t && c.now() >= t) {  // tcp_write_timer: the socket held, as by lock_sock
        m_stack->sock_lock();
        m_stack->tcp_on_timer();
        m_stack->sock_release();
        return;
    }
    const cpu::ctx prev = c.set_ctx(cpu::ctx::user);
    c.charge(m_cfg.datagram_cycles, cpu::CAT_STACK);
    c.set_ctx(prev);
    c.charge(m_cfg.send_cycles, cpu::CAT_STACK);
    m_stats.attempts++;
    m_stats.sent++;
    m_stats.bytes += m_cfg.write_bytes;
    m_written += m_cfg.write_bytes;
    m_stack->sock_lock();
    m_stack->tcp_write(m_written);
    m_stack->sock_release();
}

void tx_task::step(cpu::core& c)
{
    if (tcp_cubic()) {
        step_stream(c);
        return;
    }
    const cpu::ctx prev = c.set_ctx(cpu::ctx::user);
    c.charge(m_cfg.datagram_cycles, cpu::CAT_STACK);
    c.set_ctx(prev);
    uint32_t payload;
    const size_t len = build(&payload);
    m_stats.attempts++;
    c.charge(m_cfg.send_cycles, cpu::CAT_STACK);
    if (m_stack) {
        // __dev_queue_xmit: into the qdisc, which runs to the driver while
        // its queue takes them; a packet the qdisc drops is lost to the
        // sender (ENOBUFS for NET_XMIT_DROP, or none for NET_XMIT_CN)
        fecsim_v6_tx_req r{};
        r.frame = m_frame.data();
        r.len = (unsigned)len;
        r.head_len = m_cfg.head_bytes;
        r.frag_bytes = m_cfg.frag_bytes;
        const uint32_t n = m_cfg.send_bytes ? m_cfg.send_bytes : m_cfg.mss;
        const bool gso = m_cfg.protocol == k_proto_tcp && n > m_cfg.mss;
        r.gso_size = gso ? m_cfg.mss : 0;
        r.csum_offload = m_cfg.csum_offload;
        r.sock = SOCK_APP;
        if (m_stack->send(r, k_flow_app, gso ? (n + m_cfg.mss - 1) / m_cfg.mss : 1)) {
            m_stats.sent++;
            m_stats.bytes += payload;
        } else {
            m_stats.refused++;
        }
    } else if (len && shim_dev_xmit(*m_ndev, m_frame.data(), len) == 0) {
        m_stats.sent++;
        m_stats.bytes += payload;
    } else {
        m_stats.refused++;
    }
    // Timer-driven: the next send at the next tick. A tree driver's sender
    // that waited for send-buffer room does not catch up in a burst.
    m_next += m_interval;
    if (m_port.xmit && m_next < c.now())
        m_next = c.now();
    if (!m_cfg.count || m_stats.attempts < m_cfg.count)
        c.wake_at(m_next);
}

void tx_task::reset_stats()
{
    m_stats = {};
    if (m_port.reset)
        m_port.reset();
}

void tx_task::visit_queue_stats(const stat_visitor& v) const
{
    if (m_port.stats)
        stats_visit(m_port.stats(), k_txq_rows, sizeof k_txq_rows / sizeof k_txq_rows[0], "txq.", v);
}

} // namespace khost
