#include "mem/noc.h"
#include "mem/dram.h"
#include <algorithm>

namespace models::mem {

static const param_desc k_noc_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(noc_config, __VA_ARGS__)
#include "mem/noc_params.def"
#undef P
};
const param_table noc_param_table = {"noc", "AXI fabric (NIC-301) between bus masters and DRAM", k_noc_rows,
                                     sizeof k_noc_rows / sizeof k_noc_rows[0]};

const stat_desc noc_stat_rows[] = {
#define S(...) FEC_STAT_ROW(noc_stats, __VA_ARGS__)
#include "mem/noc_stats.def"
#undef S
};
const size_t noc_stat_count = sizeof noc_stat_rows / sizeof noc_stat_rows[0];

noc::noc(sc_core::sc_module_name nm, const noc_config& cfg)
    : sc_module(nm), masters("masters"), mem_side("mem_side"), m_cfg(cfg), m_clk(cfg.clock_hz),
      m_xfer(m_clk, cfg.port_bytes_per_cycle)
{
    masters.register_b_transport(this, &noc::b_transport);
}

void noc::end_of_elaboration()
{
    m_ports.assign(masters.size(), timeline(m_horizon));
}

void noc::set_horizon(tick_t h)
{
    m_horizon = h;
    for (auto& p : m_ports)
        p.set_horizon(h);
}

tick_t noc::access(unsigned port, tlm::tlm_generic_payload& gp, const mem_ext& x, tick_t t)
{
    const tick_t at = enter(port, gp.get_data_length(), x.master, t);
    tick_t done;
    if (m_dram) {
        done = m_dram->access(gp, x, at);
    } else {
        sc_core::sc_time d = from_ps(at - now_ps());
        mem_side->b_transport(gp, d);
        done = now_ps() + to_ps(d);
    }
    if (gp.is_read())
        done += m_clk.cycles(m_cfg.latency_cycles);
    return done;
}

tick_t noc::write(unsigned port, uint64_t pa, const uint8_t* data, unsigned len, uint8_t master, tick_t t)
{
    if (!m_dram) {  // through the socket: a payload after all
        mem_txn tx;
        tx.set(tlm::TLM_WRITE_COMMAND, pa, const_cast<uint8_t*>(data), len);
        tx.ext.master = master;
        tx.ext.posted = true;
        return access(port, tx.gp, tx.ext, t);
    }
    return m_dram->write(pa, data, len, master, enter(port, len, master, t));
}

void noc::write_run(unsigned port, slot_run at, unsigned len, uint8_t master)
{
    at.busy = m_xfer.ps(len);
    port_line(port).book_run(at);
    count_transactions(at.n, len, master);
    at.start += m_clk.cycles(m_cfg.latency_cycles);  // each reaches DRAM a latency after taking the port
    m_dram->write_run(at, len, master);
}

void noc::add_ports(size_t n) { m_ports.resize(n, timeline(m_horizon)); }

tick_t noc::write_path_busy_until(unsigned port) const
{
    const tick_t p = port < m_ports.size() ? m_ports[port].busy_until() : 0;
    return std::max(p, m_dram ? m_dram->busy_until() : 0);
}

bool noc::direct_write_window(uint64_t* lo, uint64_t* hi) const
{
    if (!m_dram)
        return false;
    m_dram->observed_window(lo, hi);
    return true;
}

void noc::write_slots(unsigned port, const tick_t* t, uint64_t n, unsigned len, uint8_t master)
{
    const tick_t xfer = m_xfer.ps(len);
    timeline& tl = port_line(port);
    for (uint64_t j = 0; j < n; j++)
        tl.book(t[j], xfer);
    count_transactions(n, len, master);
    m_dram->write_slots(t, n, m_clk.cycles(m_cfg.latency_cycles), len, master);
}

void noc::write_timing(unsigned len, tick_t* xfer, tick_t* channel, tick_t* done_after)
{
    *xfer = m_xfer.ps(len);
    *channel = m_dram ? m_dram->service_time(len) : 0;
    *done_after = m_clk.cycles(m_cfg.latency_cycles) + (m_dram ? m_dram->write_time(len) : 0);
}

void noc::b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay)
{
    const tick_t t = now_ps() + to_ps(delay);
    delay = from_ps(access((unsigned)port, gp, t) - now_ps());
}

} // namespace models::mem
