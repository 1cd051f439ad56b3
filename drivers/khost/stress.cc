#include "drivers/khost/stress.h"
#include "common/log.h"
#include <stdexcept>
#include "common/trace_events.h"

namespace khost {

using namespace models;
using namespace models::mem;

static const param_desc k_stress_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(stress_config, __VA_ARGS__)
#include "drivers/khost/stress_params.def"
#undef P
};
const param_table stress_param_table = {"stress", "memory hog on other cores (stress -m)", k_stress_rows,
                                        sizeof k_stress_rows / sizeof k_stress_rows[0]};

const stat_desc stress_stat_rows[] = {
#define S(...) FEC_STAT_ROW(stress_stats, __VA_ARGS__)
#include "drivers/khost/stress_stats.def"
#undef S
};
const size_t stress_stat_count = sizeof stress_stat_rows / sizeof stress_stat_rows[0];

hog_program::hog_program(const stress_config& cfg, unsigned worker, stress_stats& stats)
    : m_cfg(cfg), m_stats(stats), m_clk(cfg.clock_hz), m_pages((cfg.vm_bytes + 4095) / 4096),
      m_base(cfg.base + worker * (m_pages * 4096)), m_meta_base(cfg.base + cfg.workers * m_pages * 4096),
      m_meta(0x9E3779B97F4A7C15ull * (worker + 1))  // fixed sequence: deterministic
{
}

hog_program::step_result hog_program::step(tick_t t, const mem_fn& mem)
{
    const uint64_t page = 4096, line = 32, span = m_pages * page;
    const tick_t t0 = t;
    switch (m_phase) {
    case phase::touch: {
        // Every stride byte; a new page faults and is zeroed first.
        const uint64_t pg = m_off / page;
        t += m_clk.cycles(m_cfg.fault_cycles);
        // Kernel metadata the fault walks: dependent reads of cold lines
        // (spread over a region twice the footprint, past all footprints).
        for (unsigned k = 0; k < m_cfg.fault_misses; k++) {
            m_meta = m_meta * 6364136223846793005ull + 1442695040888963407ull;
            t = mem(tlm::TLM_READ_COMMAND, m_meta_base + ((m_meta >> 16) % (2 * span) & ~(line - 1)),
                    (unsigned)line, false, t);
        }
        const tick_t zero = mem(tlm::TLM_WRITE_COMMAND, m_base + pg * page, (unsigned)page, true, t) - t;
        const tick_t issue = m_clk.cycles(m_cfg.line_store_cycles * (page / line));
        t += zero > issue ? zero : issue;
        m_stats.zero_ps += zero;
        m_stats.pages++;
        m_stats.bytes_zeroed += page;
        m_sys_ps += t - t0;
        // The next stride byte on another page (stride >= one page).
        m_off += m_cfg.vm_stride;
        if (m_off >= span) {
            m_off = 0;
            m_phase = phase::check;
        }
        return {t, false};
    }
    case phase::check: {
        // Read every touched byte back.
        const tick_t done = mem(tlm::TLM_READ_COMMAND, m_base + (m_off & ~(line - 1)), (unsigned)line, false, t);
        t = done + m_clk.cycles(m_cfg.check_cycles);
        m_stats.checks++;
        m_user_ps += t - t0;
        m_off += m_cfg.vm_stride;
        if (m_off >= span) {
            m_off = 0;
            m_phase = phase::free;
        }
        return {t, false};
    }
    case phase::free:
        break;
    }
    t += m_clk.cycles(m_cfg.free_cycles) * m_pages;
    m_stats.passes++;
    m_sys_ps += t - t0;
    m_phase = phase::touch;
    return {t, true};
}

stressor::stressor(sc_core::sc_module_name nm, const stress_config& cfg)
    : sc_module(nm), mem_side("mem_side", cfg.workers), m_cfg(cfg)
{
    if (!cfg.enabled)
        return;
    for (unsigned i = 0; i < cfg.workers; i++) {
        m_prog.emplace_back(new hog_program(m_cfg, i, m_stats));
        m_port.emplace_back();
        if (cfg.task_workers >> i & 1)
            continue;
        worker_port* p = new worker_port;
        m_port.back().reset(p);
        p->tx.ext.master = (uint8_t)(MASTER_CPU0 + m_cfg.core + i);
        const bool aggregate = m_prog.back()->aggregate();
        p->mem = [this, i, p, aggregate](tlm::tlm_command cmd, uint64_t pa, unsigned len, bool full, tick_t t) {
            if (aggregate && full && cmd == tlm::TLM_WRITE_COMMAND)
                return m_l2->zero_aggregate(pa, len, t, p->tx.ext.master);
            p->tx.set(cmd, pa, nullptr, len);
            p->tx.ext.full_line = full;
            p->tx.ext.posted = false;
            sc_core::sc_time d = from_ps(t - now_ps());
            mem_side[i]->b_transport(p->tx.gp, d);
            return now_ps() + to_ps(d);
        };
        sc_core::sc_spawn([this, i] { worker(i); }, sc_core::sc_gen_unique_name("worker"));
    }
}

void stressor::worker(unsigned i)
{
    hog_program& prog = *m_prog[i];
    if (m_cfg.start_ps)
        sc_core::wait(from_ps(m_cfg.start_ps));
    tlm_utils::tlm_quantumkeeper qk;
    qk.reset();
    const hog_program::mem_fn& mem = m_port[i]->mem;
    // Run ahead of the cores by at least one quantum (see stressor.h): sync
    // only when the local time exceeds lookahead + 1 quanta, and at the end
    // of every pass.
    const sc_core::sc_time ahead = tlm::tlm_global_quantum::instance().get() * (double)(1 + m_cfg.lookahead_quanta);
    tick_t pass_start = now_ps();
    for (;;) {
        const tick_t t = now_ps() + to_ps(qk.get_local_time());
        const hog_program::step_result r = prog.step(t, mem);
        m_port[i]->local_end = r.end;
        qk.inc(from_ps(r.end - t));
        // The timeline: the worker's work on its core as spans of at most 100 us
        // (a pass, 100 MiB touched, takes hundreds of ms).
        if (g_trace && (r.pass_end || r.end - pass_start >= 100 * PS_PER_US)) {
            g_trace->span(te_track::cpu, m_cfg.core + i, pass_start, r.end,
                          g_trace->intern(r.pass_end ? "stress -m (end of pass)" : "stress -m"));
            pass_start = r.end;
        }
        if (r.pass_end || qk.get_local_time() > ahead)
            qk.sync();
    }
}

stress_config stress_placed(const stress_config& cfg, const cache::hierarchy_config& c)
{
    stress_config s = cfg;
    s.clock_hz = c.cpu_hz;
    s.base = 0x10000000 + c.dram.backed;
    if (s.enabled) {
        // Footprints, then the region the faults metadata reads fall in (2 x).
        const uint64_t need = c.dram.backed + (uint64_t)s.workers * ((s.vm_bytes + 4095) / 4096 * 4096) * (s.fault_misses ? 3 : 1);
        if (need > c.dram.size)
            throw std::invalid_argument("stress: workers * vm_bytes does not fit in dram.size past dram.backed");
        if (s.core + s.workers > c.cores)
            throw std::invalid_argument("stress: worker cores (core + workers) exceed the number of cores");
    }
    return s;
}

} // namespace khost
