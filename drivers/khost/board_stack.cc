#include "drivers/khost/board_stack.h"
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include "drivers/khost/boot.h"
#include "drivers/khost/tx.h"
#include "drivers/shim/simhost.h"
#include "drivers/shim/v6/fecsim_v6.h"
#include "common/log.h"

namespace khost {

using namespace models;

static const param_desc k_qdisc_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(net::qdisc_config, __VA_ARGS__)
#include "drivers/khost/qdisc_params.def"
#undef P
};
const param_table qdisc_param_table = {"qdisc", "The board's transmit qdisc in front of the driver (fq_codel or pfifo_fast)",
                                       k_qdisc_rows, sizeof k_qdisc_rows / sizeof k_qdisc_rows[0]};

const stat_desc board_stack_stat_rows[] = {
#define S(...) FEC_STAT_ROW(board_stack_stats, __VA_ARGS__)
#include "drivers/khost/board_stack_stats.def"
#undef S
};
const size_t board_stack_stat_count = sizeof board_stack_stat_rows / sizeof board_stack_stat_rows[0];

static const unsigned k_net_tx_softirq = 2;  // NET_TX_SOFTIRQ
static const uint32_t k_spin_poll_cycles = 100;  // one poll of a held spinlock (as drivers/khost/simhost.cc)
static const uint32_t k_flow_tcp = 0x7C9A11u, k_flow_icmp = 0x1C3Bu;  // the flows' hashes (any distinct values)
// An skb's truesize while the qdisc holds it (the shim reports the real one
// once the driver has it): the bytes and the sk_buff and skb_shared_info
// (SKB_TRUESIZE on 32-bit ARM: ~ 512 B of overhead).
static const uint32_t k_skb_overhead = 512;

static uint16_t be16(const uint8_t* p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t be32(const uint8_t* p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

board_stack::board_stack(const stack_tx_config& cfg, const tx_v6_port& port, const std::vector<cpu::core*>& cores,
                         uint64_t board_mac)
    : m_cfg(cfg), m_port(port), m_q(cfg.qdisc)
{
    if (!port.xmit)
        throw std::invalid_argument("the board's transmit stack needs a kernel tree's driver");
    m_port.set_wake(&board_stack::woken, this);
    m_port.set_wmem(&board_stack::wmem, this);
    for (cpu::core* c : cores)
        c->set_softirq_handler(k_net_tx_softirq, [this] { net_tx_action(); });
    for (int i = 0; i < 6; i++)
        m_icmp_flow.src_mac[i] = (uint8_t)(board_mac >> (8 * (5 - i)));
    m_frame.resize(TRAFFIC_TCP_L2L4_HDR + 65536);
}

void board_stack::set_app(void (*woken)(void*), void (*wmem)(void*, long), void* ctx, cpu::core* c)
{
    m_app_woken = woken;
    m_app_wmem = wmem;
    m_app_ctx = ctx;
    m_app_core = c;
}

// ------------------------------------------------------------ qdisc and driver

void board_stack::raise_net_tx()
{
    if (cpu::core* c = cpu::core::current())
        c->raise_softirq(k_net_tx_softirq);
    else
        net_tx_action();
}

void board_stack::woken(void* self)
{
    auto* s = static_cast<board_stack*>(self);
    s->m_stopped = false;
    if (s->m_q.qlen())
        s->raise_net_tx();
}

void board_stack::wmem(void* self, unsigned sock, long delta)
{
    auto* s = static_cast<board_stack*>(self);
    if (sock != SOCK_APP)
        return;
    if (delta > 0)
        s->m_last_truesize = (uint64_t)delta;
    if (delta < 0 && (uint64_t)-delta > s->m_app_wmem_bytes) {
        sim_log(log_level::error, "stack", "driver-held charge %llu B less %ld B: an skb freed twice or never charged",
                (unsigned long long)s->m_app_wmem_bytes, -delta);
        s->m_app_wmem_bytes = 0;
    } else {
        s->m_app_wmem_bytes += delta;
    }
    if (s->m_tcp) {
        // tcp_wfree: a throttled socket gets its TSQ handler run
        if (delta < 0 && s->m_tsq_throttled) {
            s->m_tsq_throttled = false;
            s->m_tsq_pending = true;
            s->raise_net_tx();
        }
    } else if (s->m_app_wmem) {
        s->m_app_wmem(s->m_app_ctx, delta);
    }
}

void board_stack::net_tx_action()
{
    m_stats.net_tx_actions++;
    qdisc_run();
    if (m_tsq_pending) {
        m_tsq_pending = false;
        if (m_owned) {  // tcp_tsq_handler: the owner runs it at release_sock
            m_tsq_deferred = true;
        } else {
            spin_bh();
            m_bh_locked = true;
            tcp_push();
            m_bh_locked = false;
        }
    }
}

bool board_stack::send(const fecsim_v6_tx_req& r, uint32_t flow, uint32_t segs)
{
    const uint64_t id = m_next_id++;
    held& h = m_held[id];
    h.frame.assign(r.frame, r.frame + r.len);
    h.head_len = r.head_len;
    h.frag_bytes = r.frag_bytes;
    h.gso_size = r.gso_size;
    h.csum = r.csum_offload != 0;
    h.sock = r.sock;
    h.truesize = r.len + k_skb_overhead;
    // qdisc_pkt_len_init: a GSO skb's headers count once per segment
    const uint32_t hdr = r.gso_size ? TRAFFIC_TCP_L2L4_HDR : 0;
    net::qdisc_pkt p{id, flow, r.len + (segs > 1 ? (segs - 1) * hdr : 0), (uint32_t)h.truesize, 0, 0};
    if (h.sock == SOCK_APP) {
        m_app_qdisc_bytes += h.truesize;
        if (!m_tcp && m_app_wmem)  // the application's sk_wmem_alloc counts it from here
            m_app_wmem(m_app_ctx, (long)h.truesize);
    }
    m_dropped.clear();
    m_q.enqueue(p, now(), &m_dropped);  // its verdict: whether p is among m_dropped
    bool self_dropped = false;
    for (const net::qdisc_pkt& d : m_dropped) {
        self_dropped |= d.id == id;
        release(d.id);
    }
    // __dev_xmit_skb: the qdisc runs if the queue is not stopped now (the
    // driver's own bit, read again: a wake this stack did not see, such as
    // a restart after the link came up, is found here)
    m_stopped = false;
    qdisc_run();
    return !self_dropped;
}

tick_t board_stack::now() const
{
    cpu::core* c = cpu::core::current();
    return c ? c->now() : now_ps();
}

void board_stack::release(uint64_t id)
{
    auto it = m_held.find(id);
    if (it == m_held.end())
        return;
    if (it->second.sock == SOCK_APP) {
        m_app_qdisc_bytes -= std::min(m_app_qdisc_bytes, it->second.truesize);
        if (!m_tcp && m_app_wmem)
            m_app_wmem(m_app_ctx, -(long)it->second.truesize);
    }
    m_held.erase(it);
}

// __qdisc_run: packets to the driver until the qdisc is empty or the
// driver's queue stops; a refused packet is requeued (dev_requeue_skb) and
// waits for the wake.
void board_stack::qdisc_run()
{
    if (m_in_run)  // the driver woke the queue from inside a send: the loop goes on
        return;
    m_in_run = true;
    while (!m_stopped) {
        // dequeue_skb: nothing is taken while the driver's queue is stopped
        if (m_port.stopped && m_q.qlen() && m_port.stopped()) {
            m_stopped = true;
            break;
        }
        net::qdisc_pkt p;
        m_dropped.clear();
        const bool got = m_q.dequeue(now(), &p, &m_dropped);
        for (const net::qdisc_pkt& d : m_dropped)
            release(d.id);
        if (!got)
            break;
        auto it = m_held.find(p.id);
        if (it == m_held.end())
            continue;
        const held& h = it->second;
        fecsim_v6_tx_req r{};
        r.frame = h.frame.data();
        r.len = (unsigned)h.frame.size();
        r.head_len = h.head_len;
        r.frag_bytes = h.frag_bytes;
        r.gso_size = h.gso_size;
        r.csum_offload = h.csum;
        r.sock = h.sock;
        const int rc = m_port.xmit(&r);
        if (rc == FECSIM_V6_TX_STOPPED) {
            m_q.requeue(p);
            m_stopped = true;
            m_stats.driver_busy++;
            break;
        }
        if (rc == FECSIM_V6_TX_NOMEM)
            m_stats.nomem++;
        release(p.id);
    }
    m_in_run = false;
}

// ------------------------------------------------------------ TCP

void board_stack::tcp_open(const net::tcp_config& tc, const traffic_flow& flow, const tx_config& tx)
{
    m_tcp.reset(new net::tcp_sender(tc));
    m_tcp->set_send_limit(0);
    m_flow = flow;
    m_tx = tx;
}

void board_stack::tcp_write(uint64_t end)
{
    m_written = end;
    m_tcp->set_send_limit(end);
    tcp_push();
}

uint64_t board_stack::pacing_rate() const
{
    const tick_t srtt = m_tcp->srtt();
    if (!srtt)
        return ~(uint64_t)0 >> 1;  // sk_pacing_rate before the first RTT sample: unlimited
    // tcp_update_pacing_rate: 200 % of cwnd * mss / srtt in slow start
    // (below half ssthresh), else 120 %
    const uint32_t cwnd = m_tcp->cwnd();
    const uint64_t ratio = cwnd < m_tcp->ssthresh() / 2 ? 200 : 120;
    const uint64_t segs = std::max<uint64_t>(cwnd, (m_tcp->in_flight() + m_tx.mss - 1) / m_tx.mss);
    const double r = (double)m_tx.mss * ratio / 100.0 * (double)segs * 1e12 / (double)srtt;
    return (uint64_t)r;
}

uint32_t board_stack::tso_segs() const
{
    if (!(m_features & FECSIM_V6_TX_TSO))
        return 1;
    // tcp_tso_autosize: ~1 ms at the pacing rate, plus gso_max_size >> (min_rtt_us >> 9)
    uint64_t bytes = pacing_rate() >> 10;
    const tick_t min_rtt = m_tcp->cc().delay_min();
    if (min_rtt) {
        const uint64_t r = (min_rtt / PS_PER_US) >> 9;
        if (r < 32)
            bytes += m_cfg.gso_max_bytes >> r;
    }
    bytes = std::min<uint64_t>(bytes, m_cfg.gso_max_bytes);
    uint32_t segs = std::max<uint32_t>((uint32_t)(bytes / m_tx.mss), m_cfg.min_tso_segs);
    const uint32_t dev_max = (m_features >> 8) & 0xFFFF;
    if (dev_max)
        segs = std::min(segs, dev_max);
    // the skb's length stays within sk_gso_max_size
    return std::max(1u, std::min(segs, (m_cfg.gso_max_bytes - TRAFFIC_TCP_L2L4_HDR) / m_tx.mss));
}

// tcp_small_queue_check: the stream's skbs in the qdisc and driver
// (sk_wmem_alloc) above max(2 truesize, ~1 ms at the pacing rate), capped
// by tcp_limit_output_bytes, hold it back unless at most one skb is unacked.
bool board_stack::tsq_throttled() const
{
    uint64_t limit = std::max<uint64_t>(2 * m_last_truesize, pacing_rate() >> 10);
    limit = std::min<uint64_t>(limit, m_cfg.limit_output_bytes);
    if (m_app_wmem_bytes + m_app_qdisc_bytes <= limit)
        return false;
    return m_tcp->in_flight() > (uint64_t)tso_segs() * m_tx.mss;
}

void board_stack::tcp_push()
{
    if (!m_tcp)
        return;
    if (!m_features && m_port.features)
        m_features = m_port.features();
    cpu::core* c = cpu::core::current();
    for (;;) {
        if (tsq_throttled()) {
            if (!m_tsq_throttled)
                m_stats.tcp_tsq_throttled++;
            m_tsq_throttled = true;
            break;
        }
        const uint32_t segs_max = tso_segs();
        net::tcp_unit u;
        if (!m_tcp->next_unit(now(), segs_max * m_tx.mss, &u))
            break;
        if (c)
            c->charge(m_cfg.xmit_cycles, cpu::CAT_STACK);
        // built and handed to send() with no simulated time between: another
        // core's send cannot come in between and reuse m_frame
        const size_t len = traffic_build_tcp(m_frame.data(), u.len, &m_flow, (uint32_t)u.seq, m_ip_id);
        const uint32_t segs = (u.len + m_tx.mss - 1) / m_tx.mss;
        m_ip_id = (uint16_t)(m_ip_id + segs);
        fecsim_v6_tx_req r{};
        r.frame = m_frame.data();
        r.len = (unsigned)len;
        // tcp_sendmsg puts the payload in page fragments: the head holds the headers
        r.head_len = m_tx.head_bytes ? m_tx.head_bytes
                                     : (m_features & FECSIM_V6_TX_SG) ? TRAFFIC_TCP_L2L4_HDR : 0;
        r.frag_bytes = m_tx.frag_bytes;
        r.gso_size = segs > 1 ? m_tx.mss : 0;
        r.csum_offload = m_tx.csum_offload && (m_features & FECSIM_V6_TX_CSUM);
        r.sock = SOCK_APP;
        m_stats.tcp_skbs++;
        if (!send(r, k_flow_tcp, segs)) {
            m_tcp->unsend(u, now());
            m_stats.tcp_qdisc_drops++;
            break;
        }
    }
    arm_timer();
}

void board_stack::arm_timer()
{
    const tick_t d = m_tcp->rto_deadline();
    if (!d || !m_app_core)
        return;
    if (m_timer_posted && m_timer_posted <= d && m_timer_posted >= now())
        return;
    m_timer_posted = d;
    m_app_core->wake_at(d);
}

void board_stack::tcp_on_timer()
{
    m_timer_posted = 0;
    if (!m_tcp->rto_deadline() || now() < m_tcp->rto_deadline())
        return;
    m_tcp->on_rto(now());
    m_stopped = false;  // a queue a lost wake left stopped is tried again
    qdisc_run();
    tcp_push();
}

// tcp_v4_do_rcv of an ACK: tcp_ack, then what the window allows goes out
// (tcp_data_snd_check), and a writer waiting for room is woken.
void board_stack::tcp_ack(uint32_t ack32, uint16_t window)
{
    if (cpu::core* c = cpu::core::current())
        c->charge(m_cfg.ack_cycles, cpu::CAT_STACK);
    const uint64_t una = m_tcp->snd_una();
    const uint64_t ack = net::tcp_unwrap(una, ack32);
    m_tcp->on_ack(ack, (uint64_t)window << TRAFFIC_PEER_WSCALE, now());
    m_stats.tcp_acks++;
    tcp_push();
    if (m_app_woken && m_app_wait)
        m_app_woken(m_app_ctx);
}

// lock_sock: a softirq working on the socket on another core is waited for
// (the socket's spinlock), polling at the kernel's spinlock cost.
void board_stack::spin_bh()
{
    cpu::core* c = cpu::core::current();
    while (m_bh_locked && c) {
        c->charge(k_spin_poll_cycles, cpu::CAT_STACK);
        c->sync();
    }
}

void board_stack::sock_lock()
{
    spin_bh();
    m_owned = true;
}

// release_sock: the backlog (__release_sock), then tcp_release_cb's
// deferred TSQ work.
void board_stack::sock_release()
{
    for (size_t i = 0; i < m_backlog.size(); i++)  // ACKs arriving meanwhile join it: the socket is still held
        tcp_ack(m_backlog[i].ack, m_backlog[i].window);
    m_backlog.clear();
    m_owned = false;
    if (m_tsq_deferred) {
        m_tsq_deferred = false;
        tcp_push();
    }
}

bool board_stack::tcp_room(uint64_t sndbuf) const
{
    return m_written - m_tcp->snd_una() < sndbuf;
}

// ------------------------------------------------------------ receive

int board_stack::l4_receive(const uint8_t* ip, size_t len)
{
    const size_t ihl = (size_t)(ip[0] & 0xF) * 4;
    cpu::core* c = cpu::core::current();
    if (ip[9] == 6) {
        if (!m_tcp || len < ihl + 20)
            return 0;
        const uint8_t* th = ip + ihl;
        if (be16(th) != m_flow.dst_port || be16(th + 2) != m_flow.src_port || be32(ip + 12) != m_flow.dst_ip ||
            !(th[13] & 0x10))
            return 0;
        if (m_owned) {  // tcp_v4_rcv: sk_add_backlog while the user holds the socket
            m_backlog.push_back(backlogged{be32(th + 8), be16(th + 14)});
            m_stats.tcp_backlogged++;
            return 1;
        }
        spin_bh();
        m_bh_locked = true;
        tcp_ack(be32(th + 8), be16(th + 14));
        m_bh_locked = false;
        return 1;
    }
    int type;
    uint16_t id, seq;
    size_t dlen;
    const uint8_t* eth = ip - TRAFFIC_ETH_HDR;
    if (traffic_icmp_echo(eth, TRAFFIC_ETH_HDR + len, &type, &id, &seq, &dlen) != 0 ||
        type != TRAFFIC_ICMP_ECHO_REQUEST)
        return 0;
    m_stats.icmp_echo_requests++;
    if (c)
        c->charge(m_cfg.icmp_cycles, cpu::CAT_STACK);
    // icmp_reply: to the sender, from the address it asked
    std::memcpy(m_icmp_flow.dst_mac, eth + 6, 6);
    std::memcpy(m_icmp_flow.src_mac, eth, 6);
    m_icmp_flow.src_ip = be32(ip + 16);
    m_icmp_flow.dst_ip = be32(ip + 12);
    // m_frame: built and handed to send() with no simulated time between
    const size_t n = traffic_build_icmp_echo(m_frame.data(), &m_icmp_flow, TRAFFIC_ICMP_ECHO_REPLY, id, seq, dlen,
                                             m_icmp_ip_id++);
    if (!n)
        return 0;
    fecsim_v6_tx_req r{};
    r.frame = m_frame.data();
    r.len = (unsigned)n;
    r.sock = SOCK_ICMP;
    m_stats.icmp_echo_replies++;
    send(r, k_flow_icmp, 1);
    return 1;
}

// ------------------------------------------------------------ the receiving socket

static const uint16_t k_rx_port = 5201, k_rx_peer_port = 40000;  // iperf3 -s here, the desktop's -c (models/traffic/peer.cc)
static const uint32_t k_flow_tcp_rx = 0x5EC0A1u;
static const uint32_t k_gro_max_bytes = 65536;  // GRO_LEGACY_MAX_SIZE: an aggregate's IP datagram
static const unsigned k_gro_max_segs = 18;      // the head and MAX_SKB_FRAGS (17) page fragments
static const uint8_t k_gro_flush_flags = 0x01 | 0x02 | 0x04 | 0x08 | 0x20;  // FIN SYN RST PSH URG

void board_stack::tcp_rx_open(cpu::core* c)
{
    net::tcp_receiver_config rc;
    rc.mss = m_cfg.mss;
    rc.rwnd_bytes = m_cfg.rcvbuf / 2;
    m_rcv.reset(new net::tcp_receiver(rc));
    m_rx_core = c;
    m_rx_flow.src_port = k_rx_port;
    m_rx_flow.dst_port = k_rx_peer_port;
}

// dev_gro_receive .. tcp_gro_receive for a frame of the stream: its headers
// read, then merged with the segments held for this instance when it
// continues them (the next byte, no longer than the first segment, room
// left in 64 KiB and the fragments), else those go up first; PSH, another
// flag that ends a burst, or a short segment sends the aggregate up at once.
int board_stack::gro_receive(void* napi, void* skb, const uint8_t* ip, size_t len, unsigned truesize, bool csum_ok)
{
    if (!m_rcv || len < 40)
        return 0;
    // the headers as GRO reads them (a read makes the CPU's view of what the device wrote current)
    const uint8_t* eth = ip - TRAFFIC_ETH_HDR;
    simhost_access(eth, TRAFFIC_ETH_HDR + 20, 0);
    const size_t ihl = (size_t)(ip[0] & 0xF) * 4;
    const size_t tot = be16(ip + 2);
    if ((ip[0] >> 4) != 4 || ip[9] != 6 || ihl < 20 || tot > len || tot < ihl + 20 || (be16(ip + 6) & 0x3FFF))
        return 0;  // not TCP, short, or a fragment: ip_rcv's checks and counters (GRO_NORMAL)
    const uint8_t* th = ip + ihl;
    simhost_access(ip + 20, ihl, 0);  // options, if any, and the TCP header's first 20 bytes
    const size_t doff = (size_t)(th[12] >> 4) * 4;
    if (be16(th + 2) != k_rx_port || be16(th) != k_rx_peer_port || doff < 20 || ihl + doff >= tot)
        return 0;  // not the stream, or no payload
    if (doff > 20)
        simhost_access(th + 20, doff - 20, 0);
    // the ACKs' addresses: the segment's, swapped
    std::memcpy(m_rx_flow.dst_mac, eth + 6, 6);
    std::memcpy(m_rx_flow.src_mac, eth, 6);
    m_rx_flow.src_ip = be32(ip + 16);
    m_rx_flow.dst_ip = be32(ip + 12);
    if (!csum_ok) {  // GRO checks what the device did not (skb_gro_checksum_validate): it reads the segment
        simhost_access(th + doff, tot - ihl - doff, 0);
        int ip_ok = 0, l4_ok = 0;
        if (traffic_ipv4_checks(ip - TRAFFIC_ETH_HDR, TRAFFIC_ETH_HDR + tot, &ip_ok, &l4_ok) != 0 || !ip_ok || !l4_ok)
            return 0;
    }
    cpu::core* c = cpu::core::current();
    if (c)
        c->charge(m_cfg.gro_segment_cycles, cpu::CAT_STACK);
    m_stats.tcp_rx_segs++;
    const uint32_t plen = (uint32_t)(tot - ihl - doff);
    rx_seg sg{skb, th + doff, net::tcp_unwrap(m_rcvq_end, be32(th + 4)), plen, truesize, 0};
    auto it = std::find_if(m_gro.begin(), m_gro.end(), [&](const gro_held& g) { return g.napi == napi; });
    if (it == m_gro.end()) {
        m_gro.push_back(gro_held{napi, {}, 0, 0});
        it = m_gro.end() - 1;
    }
    if (!it->segs.empty()) {
        const rx_seg& last = it->segs.back();
        if (sg.seq != last.seq + last.len || plen > it->mss || it->segs.size() >= k_gro_max_segs ||
            ihl + doff + it->bytes + plen >= k_gro_max_bytes)
            gro_deliver(*it);
    }
    if (it->segs.empty())
        it->mss = plen;
    it->segs.push_back(sg);
    it->bytes += plen;
    if ((th[13] & k_gro_flush_flags) || plen < it->mss)
        gro_deliver(*it);
    return 1;
}

void board_stack::gro_flush(void* napi)
{
    for (gro_held& g : m_gro)
        if (g.napi == napi && !g.segs.empty())
            gro_deliver(g);
}

// An aggregate up the stack (ip_rcv .. tcp_rcv_established), on the core of
// the softirq: its segments to the receive queue, or the out-of-order queue
// beyond a hole; an ACK now or the delayed-ACK timer; the reader woken.
void board_stack::gro_deliver(gro_held& g)
{
    cpu::core* c = cpu::core::current();
    if (c)
        c->charge(m_cfg.rx_frame_cycles, cpu::CAT_STACK);
    m_stats.tcp_rx_gro_units++;
    const tick_t t = now();
    const uint64_t seq = g.segs.front().seq;
    uint64_t bytes = 0;
    unsigned kept = 0;  // segments that joined the out-of-order map
    for (rx_seg& sg : g.segs) {
        bytes += sg.len;
        sg.ready = t;
        m_rmem += sg.truesize;
        if (sg.seq + sg.len <= m_rcvq_end) {
            m_stats.tcp_rx_dup_segs++;
            rx_free(sg);
            continue;
        }
        // tcp_measure_rcv_mss: the payload / truesize ratio of full segments
        if (sg.len >= m_cfg.mss) {
            m_ratio_len = sg.len;
            m_ratio_true = sg.truesize;
        }
        auto at = m_ofo.find(sg.seq);
        if (at != m_ofo.end()) {  // a retransmission of what the queue holds: keep the longer
            const rx_seg old = at->second;
            if (old.len >= sg.len) {
                m_stats.tcp_rx_dup_segs++;
                rx_free(sg);
                continue;
            }
            at->second = sg;
            m_stats.tcp_rx_dup_segs++;
            rx_free(old);
        } else {
            m_ofo.emplace(sg.seq, sg);
        }
        kept++;
    }
    g.segs.clear();
    g.bytes = 0;
    const bool ack_now = m_rcv->on_segment(seq, (uint32_t)bytes, t);
    // what now continues the stream moves to the receive queue
    while (!m_ofo.empty() && m_ofo.begin()->first <= m_rcvq_end) {
        rx_seg sg = m_ofo.begin()->second;
        m_ofo.erase(m_ofo.begin());
        if (sg.seq + sg.len <= m_rcvq_end) {
            m_stats.tcp_rx_dup_segs++;
            rx_free(sg);
            continue;
        }
        const uint64_t skip = m_rcvq_end - sg.seq;
        sg.payload += skip;
        sg.seq += skip;
        sg.len -= (uint32_t)skip;
        rx_queue(sg);
    }
    if (seq > m_rcvq_end)  // the aggregate is beyond a hole: all of it waits
        m_stats.tcp_rx_ofo_segs += kept;
    m_stats.tcp_rx_rmem_max = std::max(m_stats.tcp_rx_rmem_max, m_rmem);
    if (m_rcvq_end != m_rcv->rcv_nxt())
        sim_log(log_level::error, "stack", "TCP receive queue ends at %llu, the receiver at %llu",
                (unsigned long long)m_rcvq_end, (unsigned long long)m_rcv->rcv_nxt());
    if (ack_now)
        rx_send_ack(false);
    else
        rx_arm_timer();
    if (!m_rcvq.empty())
        simhost_socket_wake();
}

void board_stack::rx_queue(const rx_seg& s)
{
    m_rcvq.push_back(s);
    m_rcvq_end = s.seq + s.len;
}


void board_stack::rx_free(const rx_seg& s)
{
    m_rmem -= std::min<uint64_t>(m_rmem, s.truesize);
    v6_skb_consume(s.skb);
}

// __tcp_select_window: the free buffer times scaling_ratio, the right edge
// never moved back (tcp_select_window).
uint64_t board_stack::rx_window() const
{
    return rx_win_from_space(m_cfg.rcvbuf > m_rmem ? m_cfg.rcvbuf - m_rmem : 0);
}

void board_stack::rx_send_ack(bool by_timer)
{
    cpu::core* c = cpu::core::current();
    if (c)
        c->charge(m_cfg.xmit_cycles, cpu::CAT_STACK);
    const uint64_t nxt = m_rcv->rcv_nxt();
    m_rcv_edge = std::max(m_rcv_edge, nxt + rx_window());
    const uint64_t wnd = std::min<uint64_t>((m_rcv_edge - nxt) >> TRAFFIC_PEER_WSCALE, 0xFFFF);
    // m_frame: built and handed to send() with no simulated time between
    const size_t n = traffic_build_tcp_ack(m_frame.data(), &m_rx_flow, 1, (uint32_t)nxt, (uint16_t)wnd, m_rx_ip_id++);
    fecsim_v6_tx_req r{};
    r.frame = m_frame.data();
    r.len = (unsigned)n;
    r.sock = SOCK_TCP_RX;
    m_rcv->ack_sent(now(), by_timer);
    m_stats.tcp_rx_acks++;
    if (by_timer)
        m_stats.tcp_rx_delayed_acks++;
    send(r, k_flow_tcp_rx, 1);
}

void board_stack::rx_arm_timer()
{
    const tick_t d = m_rcv->delack_deadline();
    if (!d || !m_rx_core || (m_delack_posted && m_delack_posted <= d && m_delack_posted >= now()))
        return;
    m_delack_posted = d;
    m_rx_core->wake_at(d);
}

bool board_stack::tcp_rx_timer_due() const
{
    const tick_t d = m_rcv ? m_rcv->delack_deadline() : 0;
    return d && m_rx_core && d <= m_rx_core->now();
}

void board_stack::tcp_rx_on_timer()
{
    m_delack_posted = 0;
    if (tcp_rx_timer_due())
        rx_send_ack(true);
}

void board_stack::held_skbs(std::vector<const void*>& out) const
{
    for (const gro_held& g : m_gro)
        for (const rx_seg& sg : g.segs)
            out.push_back(sg.skb);
    for (const rx_seg& sg : m_rcvq)
        out.push_back(sg.skb);
    for (const auto& [seq, sg] : m_ofo)
        out.push_back(sg.skb);
}

// tcp_recvmsg: the queued bytes in order, up to len (a reader that asks for
// at least one byte returns with what is there); emptied skbs freed; then
// tcp_cleanup_rbuf's window update when the window the desktop knows has
// fallen to half the most it can be and the free buffer now doubles it.
size_t board_stack::tcp_recvmsg(void* buf, size_t len, uint64_t* offset, tick_t* ready)
{
    if (m_rcvq.empty())
        return 0;
    cpu::core* c = cpu::core::current();
    *offset = m_rcvq.front().seq;
    *ready = m_rcvq.front().ready;
    if (c) {
        c->stall_until(*ready, cpu::CAT_STACK);  // queued in another core's future: not there yet for this one
        c->charge(m_cfg.recv_cycles, cpu::CAT_STACK);
    }
    size_t done = 0;
    while (done < len && !m_rcvq.empty()) {
        rx_seg& sg = m_rcvq.front();
        const uint32_t n = (uint32_t)std::min<size_t>(sg.len, len - done);
        v6_skb_copy(sg.payload, (uint8_t*)buf + done, n);
        done += n;
        sg.payload += n;
        sg.seq += n;
        sg.len -= n;
        if (sg.len)
            break;
        const rx_seg gone = sg;
        m_rcvq.pop_front();
        rx_free(gone);
    }
    m_stats.tcp_rx_reads++;
    m_stats.tcp_rx_bytes_read += done;
    const uint64_t nxt = m_rcv->rcv_nxt();
    const uint64_t now_wnd = m_rcv_edge > nxt ? m_rcv_edge - nxt : 0;
    const uint64_t clamp = rx_win_from_space(m_cfg.rcvbuf);
    if (2 * now_wnd <= clamp && rx_window() >= 2 * now_wnd) {
        m_stats.tcp_rx_window_updates++;
        rx_send_ack(false);
    }
    return done;
}

// ------------------------------------------------------------ the stack's hook

static board_stack* g_stack;

void board_stack_install(board_stack* s) { g_stack = s; }

} // namespace khost

extern "C" int simhost_l4_receive(const void* ip, size_t len)
{
    return khost::g_stack ? khost::g_stack->l4_receive((const uint8_t*)ip, len) : 0;
}

extern "C" int simhost_gro_receive(void* napi, void* skb, const void* ip, size_t len, unsigned truesize, int csum_ok)
{
    return khost::g_stack ? khost::g_stack->gro_receive(napi, skb, (const uint8_t*)ip, len, truesize, csum_ok != 0)
                          : 0;
}

extern "C" void simhost_gro_flush(void* napi)
{
    if (khost::g_stack)
        khost::g_stack->gro_flush(napi);
}

namespace khost {

// ------------------------------------------------------------ statistics

void board_stack::visit_stats(const stat_visitor& v) const
{
    stats_visit(&m_stats, board_stack_stat_rows, board_stack_stat_count, "stack.", v);
    const net::qdisc_stats& q = m_q.stats();
    v("qdisc.enqueued", q.enqueued, "packets offered to the qdisc", "count");
    v("qdisc.dequeued", q.dequeued, "packets the qdisc handed to the driver", "count");
    v("qdisc.requeues", q.requeues, "packets the driver refused, back at the qdisc's head", "count");
    v("qdisc.drops_overlimit", q.drops_overlimit, "packets dropped at enqueue (pfifo_fast tail drop, fq_codel over its limit)", "count");
    v("qdisc.drops_codel", q.drops_codel, "packets CoDel dropped at dequeue (fq_codel)", "count");
    v("qdisc.backlog_max_pkts", q.backlog_max_pkts, "most packets the qdisc held", "count");
    v("qdisc.sojourn_ps_sum", q.sojourn_ps_sum, "time the dequeued packets waited in the qdisc, summed", "ps");
    v("qdisc.sojourn_ps_max", q.sojourn_ps_max, "longest wait in the qdisc", "ps");
    if (m_tcp) {
        const net::tcp_sender_stats& t = m_tcp->stats();
        v("tcp.bytes_out", t.bytes_out - m_tcp_base.bytes_out, "stream bytes handed down, retransmissions included", "B");
        v("tcp.retrans_segs", t.retrans_segs - m_tcp_base.retrans_segs, "segments retransmitted", "count");
        v("tcp.fast_retrans", t.fast_retrans - m_tcp_base.fast_retrans, "recoveries entered on duplicate ACKs", "count");
        v("tcp.rto_events", t.rto_events - m_tcp_base.rto_events, "retransmission timeouts", "count");
        v("tcp.cwr_events", t.cwr_events - m_tcp_base.cwr_events, "window reductions on a qdisc drop", "count");
        v("tcp.cwnd", m_tcp->cwnd(), "congestion window at the end", "segments");
        v("tcp.srtt_ns", m_tcp->srtt() / PS_PER_NS, "smoothed RTT at the end", "ns");
    }
}

void board_stack::reset_stats()
{
    m_stats = board_stack_stats{};
    m_q.reset_stats();
    if (m_tcp)
        m_tcp_base = m_tcp->stats();
}

} // namespace khost
