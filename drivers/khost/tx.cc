#include "drivers/khost/tx.h"
#include "drivers/shim/shim.h"

namespace khost {

using namespace models;

static const param_desc k_tx_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(tx_config, __VA_ARGS__)
#include "drivers/khost/tx_params.def"
#undef P
};
const param_table tx_param_table = {"tx", "sending application (iperf3 -c -u): UDP datagrams into the driver",
                                    k_tx_rows, sizeof k_tx_rows / sizeof k_tx_rows[0]};

const stat_desc tx_stat_rows[] = {
#define S(...) FEC_STAT_ROW(tx_stats, __VA_ARGS__)
#include "drivers/khost/tx_stats.def"
#undef S
};
const size_t tx_stat_count = sizeof tx_stat_rows / sizeof tx_stat_rows[0];

tx_task::tx_task(const tx_config& cfg, cpu::core& c, void** ndev)
    : m_cfg(cfg), m_core(c), m_ndev(ndev), m_next(cfg.start_ps), m_interval((tick_t)(1e12 / cfg.rate_fps + 0.5)),
      m_frame(cfg.frame_bytes)
{
    mode = cpu::ctx::sys;
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
    c.wake_at(m_next);
}

bool tx_task::runnable() const
{
    return *m_ndev && (!m_cfg.count || m_stats.attempts < m_cfg.count) && m_core.now() >= m_next;
}

void tx_task::step(cpu::core& c)
{
    const cpu::ctx prev = c.set_ctx(cpu::ctx::user);
    c.charge(m_cfg.datagram_cycles, cpu::CAT_STACK);
    c.set_ctx(prev);
    const size_t len = traffic_build_frame(m_frame.data(), m_cfg.frame_bytes, &m_flow, m_seq++);
    m_stats.attempts++;
    c.charge(m_cfg.send_cycles, cpu::CAT_STACK);
    // The MAC appends the FCS (TC): hand over the frame without it.
    if (len >= 4 && shim_dev_xmit(*m_ndev, m_frame.data(), len - 4) == 0)
        m_stats.sent++;
    else
        m_stats.refused++;
    m_next += m_interval;
    if (!m_cfg.count || m_stats.attempts < m_cfg.count)
        c.wake_at(m_next);
}

} // namespace khost
