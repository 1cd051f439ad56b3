#include "sim/soc.h"
#include <chrono>
#include <string>

namespace sim {

using namespace models;

static cache::hierarchy_config seeded(const soc_config& c)
{
    cache::hierarchy_config h = c.mem;
    h.cores = c.cpu.cores;
    h.cpu_hz = c.cpu.clock_hz;
    h.quantum_ps = c.scenario.quantum_ps;
    h.l1.seed = c.scenario.seed;
    h.l2.seed = c.scenario.seed;
    return h;
}

soc::soc(const soc_config& cfg) : m_cfg(cfg), m_mem(seeded(cfg)) {}

soc::~soc() = default;

void soc::reset_stats()
{
    for (auto& l : m_mem.l1)
        l->reset_stats();
    m_mem.l2.reset_stats();
    m_mem.noc.reset_stats();
    m_mem.dram.reset_stats();
    m_mem.stress->reset_stats();
}

run_summary soc::run()
{
    const auto w0 = std::chrono::steady_clock::now();
    if (m_cfg.scenario.warmup_ps) {
        sc_core::sc_start(from_ps(m_cfg.scenario.warmup_ps));
        reset_stats();
    }
    sc_core::sc_start(from_ps(m_cfg.scenario.duration_ps));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    run_summary s;
    s.scenario = m_cfg.scenario.id;
    s.seed = m_cfg.scenario.seed;
    s.sim_time_s = (double)m_cfg.scenario.duration_ps / PS_PER_S;
    s.wall_time_s = wall;
    s.realtime_factor = wall > 0 ? (double)(m_cfg.scenario.duration_ps + m_cfg.scenario.warmup_ps) / PS_PER_S / wall : 0;
    for (unsigned c = 0; c < m_cfg.cpu.cores; c++)
        s.cpu.push_back({c, 0, 0, 0, 0, 100});
    return s;
}

void soc::trace(sc_core::sc_trace_file*) const {}

void soc::visit_stats(const stat_visitor& v) const
{
    for (const auto& l : m_mem.l1)
        stats_visit(&l->stats(), cache::l1_stat_rows, cache::l1_stat_count, std::string(l->name()) + ".", v);
    stats_visit(&m_mem.l2.stats(), cache::l2_stat_rows, cache::l2_stat_count, "l2.", v);
    stats_visit(&m_mem.noc.stats(), mem::noc_stat_rows, mem::noc_stat_count, "noc.", v);
    stats_visit(&m_mem.dram.stats(), mem::dram_stat_rows, mem::dram_stat_count, "dram.", v);
    stats_visit(&m_mem.stress->stats(), mem::stress_stat_rows, mem::stress_stat_count, "stress.", v);
}

} // namespace sim
