#include "mem/dram.h"
#include "common/log.h"

namespace models::mem {

static const param_desc k_dram_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(dram_config, __VA_ARGS__)
#include "mem/dram_params.def"
#undef P
};
const param_table dram_param_table = {"dram", "DDR channel behind the MMDC (latency, bandwidth, contention)",
                                      k_dram_rows, sizeof k_dram_rows / sizeof k_dram_rows[0]};

const stat_desc dram_stat_rows[] = {
#define S(...) FEC_STAT_ROW(dram_stats, __VA_ARGS__)
#include "mem/dram_stats.def"
#undef S
};
const size_t dram_stat_count = sizeof dram_stat_rows / sizeof dram_stat_rows[0];

dram::dram(sc_core::sc_module_name nm, const dram_config& cfg, phys_mem& mem)
    : sc_module(nm), bus("bus"), m_cfg(cfg), m_mem(mem), m_clk(cfg.clock_hz),
      m_service(m_clk, cfg.bytes_per_cycle, cfg.overhead_cycles)
{
    bus.register_b_transport(this, &dram::b_transport);
}

tick_t dram::access(tlm::tlm_generic_payload& gp, const mem_ext& x, tick_t t)
{
    const unsigned len = gp.get_data_length();
    const uint64_t pa = gp.get_address();
    gp.set_response_status(m_mem.contains(pa) ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (gp.is_write())
        return write(pa, gp.get_data_ptr(), len, x.master, t);
    const tick_t svc = m_service.ps(len);
    const tick_t start = m_channel.book(t, svc);
    m_stats.busy_ps += svc;
    m_stats.queue_ps += start - t;
    if (x.master == MASTER_ENET)
        m_stats.dma_bytes += len;
    else
        m_stats.cpu_bytes += len;
    m_mem.dram_read(pa, gp.get_data_ptr(), len);
    const tick_t done = start + m_clk.cycles(m_cfg.latency_cycles) + svc;
    m_stats.reads++;
    m_stats.bytes_read += len;
    m_stats.read_latency_ps += done - t;
    SIM_TRACE(TRACE_DRAM, name(), "rd pa=0x%llx len=%u master=%u wait=%llups", (unsigned long long)pa, len, x.master,
              (unsigned long long)(start - t));
    return done;
}

void dram::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay)
{
    const tick_t t = now_ps() + to_ps(delay);
    delay = from_ps(access(gp, t) - now_ps());
}

} // namespace models::mem
