#include "drivers/khost/app.h"
#include "drivers/khost/board_stack.h"
#include "drivers/khost/boot.h"
#include "drivers/shim/shim.h"
#include "drivers/shim/simhost.h"

namespace khost {

using namespace models;

static const param_desc k_app_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(app_config, __VA_ARGS__)
#include "drivers/khost/app_params.def"
#undef P
};
const param_table app_param_table = {"app", "receiving application (iperf3 -s): recvmsg loop and per-datagram work",
                                     k_app_rows, sizeof k_app_rows / sizeof k_app_rows[0]};

const stat_desc app_stat_rows[] = {
#define S(...) FEC_STAT_ROW(app_stats, __VA_ARGS__)
#include "drivers/khost/app_stats.def"
#undef S
};
const size_t app_stat_count = sizeof app_stat_rows / sizeof app_stat_rows[0];

app_task::app_task(const app_config& cfg) : m_cfg(cfg)
{
    mode = cpu::ctx::sys;
    traffic_seq_init(&m_seq);
}

// Not runnable: its recvmsg finds the queue empty and it sleeps until
// sk_data_ready wakes it (kernel::socket_wake).
bool app_task::runnable() const
{
    if (m_tcp ? m_tcp->tcp_rx_readable() || m_tcp->tcp_rx_timer_due() : socket_queued() > 0)
        return true;
    if (!m_asleep) {
        m_asleep = true;
        m_sleeps++;
    }
    return false;
}

void app_task::step(cpu::core& c)
{
    if (!m_buf)
        m_buf = simhost_alloc(m_cfg.buffer_bytes, 64, 0);
    if (m_tcp) {
        step_tcp(c);
        return;
    }
    uint64_t ready_ns = 0;
    const long n = socket_recvmsg(m_buf, m_cfg.buffer_bytes, &ready_ns);
    if (n < 0)
        return;
    // A datagram queued in another core's future is not there yet for us.
    c.stall_until(ready_ns * PS_PER_NS, cpu::CAT_STACK);
    m_stats.datagrams++;
    m_stats.bytes += (uint64_t)n;
    m_stats.latency_ps += c.now() - ready_ns * PS_PER_NS;
    const size_t len = (size_t)n < m_cfg.buffer_bytes ? (size_t)n : m_cfg.buffer_bytes;
    // The check reads what this core sees: the user buffer, via the caches.
    simhost_access(m_buf, len, 0);
    uint32_t seq = 0;
    const int v = traffic_verify_payload((const uint8_t*)m_buf, len, &seq);
    if (v == TRAFFIC_OK) {
        m_stats.verified++;
        traffic_seq_note(&m_seq, seq);
    } else if (m_cfg.foreign_payloads) {
        m_stats.unverifiable++;
    } else if (v == TRAFFIC_SHORT) {
        m_stats.short_payload++;
    } else {
        m_stats.corrupted++;
    }
    const cpu::ctx prev = c.set_ctx(cpu::ctx::user);
    c.charge(m_cfg.datagram_cycles, cpu::CAT_STACK);
    c.set_ctx(prev);
}

void app_task::step_tcp(cpu::core& c)
{
    if (m_tcp->tcp_rx_timer_due())
        m_tcp->tcp_rx_on_timer();
    uint64_t off = 0;
    tick_t ready = 0;
    const size_t n = m_tcp->tcp_recvmsg(m_buf, m_cfg.buffer_bytes, &off, &ready);
    if (!n)
        return;
    m_stats.datagrams++;
    m_stats.bytes += n;
    m_stats.latency_ps += c.now() - ready;
    // the check reads what this core sees: the user buffer, via the caches
    simhost_access(m_buf, n, 0);
    if (traffic_verify_stream((const uint8_t*)m_buf, n, (uint32_t)off))
        m_stats.verified++;
    else
        m_stats.corrupted++;
    const cpu::ctx prev = c.set_ctx(cpu::ctx::user);
    c.charge(m_cfg.datagram_cycles, cpu::CAT_STACK);
    c.set_ctx(prev);
}

const app_stats& app_task::stats()
{
    m_stats.sleeps = m_sleeps - m_base.sleeps;
    m_stats.duplicated = m_seq.duplicated - m_base.duplicated;
    m_stats.reordered = m_seq.reordered - m_base.reordered;
    m_stats.lost = m_seq.lost - m_base.lost;
    return m_stats;
}

void app_task::reset_stats()
{
    m_stats = {};
    m_base.duplicated = m_seq.duplicated;
    m_base.reordered = m_seq.reordered;
    m_base.lost = m_seq.lost;
    m_base.sleeps = m_sleeps;
}

} // namespace khost
