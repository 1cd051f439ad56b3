#include "mem/stressor.h"
#include "common/log.h"

namespace models::mem {

static const param_desc k_stress_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(stress_config, __VA_ARGS__)
#include "mem/stress_params.def"
#undef P
};
const param_table stress_param_table = {"stress", "memory hog on other cores (stress -m)", k_stress_rows,
                                        sizeof k_stress_rows / sizeof k_stress_rows[0]};

const stat_desc stress_stat_rows[] = {
#define S(...) FEC_STAT_ROW(stress_stats, __VA_ARGS__)
#include "mem/stress_stats.def"
#undef S
};
const size_t stress_stat_count = sizeof stress_stat_rows / sizeof stress_stat_rows[0];

stressor::stressor(sc_core::sc_module_name nm, const stress_config& cfg)
    : sc_module(nm), mem_side("mem_side", cfg.workers), m_cfg(cfg)
{
    if (!cfg.enabled)
        return;
    for (unsigned i = 0; i < cfg.workers; i++)
        sc_core::sc_spawn([this, i] { worker(i); }, sc_core::sc_gen_unique_name("worker"));
}

void stressor::worker(unsigned i)
{
    const clock_domain clk(m_cfg.clock_hz);
    const uint64_t page = 4096, line = 32;
    const uint64_t base = m_cfg.base + i * ((m_cfg.vm_bytes + page - 1) / page * page);
    const uint64_t pages = (m_cfg.vm_bytes + page - 1) / page;
    const uint64_t stride = m_cfg.vm_stride;
    const uint64_t meta_base = m_cfg.base + m_cfg.workers * pages * page;
    uint64_t meta = 0x9E3779B97F4A7C15ull * (i + 1);  // fixed sequence: deterministic
    if (m_cfg.start_ps)
        sc_core::wait(from_ps(m_cfg.start_ps));
    tlm_utils::tlm_quantumkeeper qk;
    qk.reset();
    mem_txn tx;
    tx.ext.master = (uint8_t)(MASTER_CPU0 + m_cfg.core + i);
    auto call = [&](tlm::tlm_command cmd, uint64_t pa, unsigned len, bool full) {
        tx.set(cmd, pa, nullptr, len);
        tx.ext.full_line = full;
        tx.ext.posted = false;
        sc_core::sc_time d = qk.get_local_time();
        const tick_t t0 = now_ps() + to_ps(d);
        mem_side[i]->b_transport(tx.gp, d);
        return now_ps() + to_ps(d) - t0;
    };
    // Run ahead of the cores by at least one quantum (see stressor.h): sync
    // only when the local time exceeds lookahead + 1 quanta.
    const sc_core::sc_time ahead = tlm::tlm_global_quantum::instance().get() * (double)(1 + m_cfg.lookahead_quanta);
    auto need_sync = [&] { return qk.get_local_time() > ahead; };
    for (;;) {
        // Touch: every stride byte; a new page faults and is zeroed first.
        uint64_t last_page = ~0ull;
        for (uint64_t off = 0; off < pages * page; off += stride) {
            const uint64_t pg = off / page;
            if (pg == last_page)
                continue;
            last_page = pg;
            qk.inc(from_ps(clk.cycles(m_cfg.fault_cycles)));
            // Kernel metadata the fault walks: dependent reads of cold lines
            // (spread over a region twice the footprint, past all footprints).
            for (unsigned k = 0; k < m_cfg.fault_misses; k++) {
                meta = meta * 6364136223846793005ull + 1442695040888963407ull;
                const uint64_t span = 2 * pages * page;
                const uint64_t pa = meta_base + ((meta >> 16) % span & ~(line - 1));
                qk.inc(from_ps(call(tlm::TLM_READ_COMMAND, pa, (unsigned)line, false)));
            }
            const tick_t mem = call(tlm::TLM_WRITE_COMMAND, base + pg * page, (unsigned)page, true);
            const tick_t issue = clk.cycles(m_cfg.line_store_cycles * (page / line));
            qk.inc(from_ps(mem > issue ? mem : issue));
            m_stats.zero_ps += mem;
            m_stats.pages++;
            m_stats.bytes_zeroed += page;
            if (need_sync())
                qk.sync();
        }
        // Check: read every touched byte back.
        for (uint64_t off = 0; off < pages * page; off += stride) {
            const uint64_t pa = base + (off & ~(line - 1));
            qk.inc(from_ps(clk.cycles(m_cfg.check_cycles) + call(tlm::TLM_READ_COMMAND, pa, (unsigned)line, false)));
            m_stats.checks++;
            if (need_sync())
                qk.sync();
        }
        qk.inc(from_ps(clk.cycles(m_cfg.free_cycles) * pages));
        m_stats.passes++;
        qk.sync();
    }
}

} // namespace models::mem
