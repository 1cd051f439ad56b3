// drivers/khost/stress.h: the `stress -m` memory hog (docs/sources.md §5).
//
// Each worker runs on its own core and loops: fault in every page of a
// vm_bytes footprint (kernel work, then the page is zeroed with full-line
// stores), read the touched bytes back, free (munmap work per page). Zeroing
// goes to the PL310 as full-line writes without L1 allocation (the Cortex-A9
// write-streaming mode for consecutive full-line writes), so it allocates and
// evicts L2 lines and fills the DRAM channel: that is how it slows the RX
// core. The footprint lies past the backed DRAM window (timing only).
// A worker on a core of its own runs as a SystemC thread, loosely timed with
// a quantum keeper, ahead of the cores by lookahead_quanta: the cores
// interact with it only through shared resources (PL310 ports and in-flight
// transfers, DRAM), and a core that ran ahead of the hog would find its
// traffic missing. A worker whose core also runs network work (the owner
// sets it in task_workers) is not started here: the owner runs its
// program() step by step as a task of that core, time-shared with ksoftirqd
// or the application by the core's scheduler. Does not model: glibc, TLB
// misses, migration between cores.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <functional>
#include <memory>
#include <vector>
#include "drivers/khost/khost_config.h"
#include "common/time.h"
#include "common/params.h"
#include "common/stats.h"
#include "cache/hierarchy.h"
#include "mem/mem_ext.h"

namespace khost {

using models::clock_domain;
using models::param_table;
using models::stat_desc;
using models::tick_t;

struct stress_stats {
#define S FEC_STAT_MEMBER
#include "drivers/khost/stress_stats.def"
#undef S
};
extern const stat_desc stress_stat_rows[];
extern const size_t stress_stat_count;

// One worker's program (stress.c hogvm as the kernel runs it), one step at a
// time: a page fault with its page zeroing, one read-back of a touched byte,
// or the end-of-pass free. The caller supplies the time and the memory path.
class hog_program {
public:
    hog_program(const stress_config& cfg, unsigned worker, stress_stats& stats);

    // Performs an access at absolute time t; returns when it completes.
    using mem_fn = std::function<tick_t(tlm::tlm_command cmd, uint64_t pa, unsigned len, bool full_line, tick_t t)>;
    struct step_result {
        tick_t end;     // when the step's work is done (core busy until then)
        bool pass_end;  // the step ended a pass (munmap: the worker synchronises)
    };
    step_result step(tick_t t, const mem_fn& mem);
    // The next step is the read-back (user mode) rather than kernel work.
    bool next_is_user() const { return m_phase == phase::check; }
    // Time its steps took since the last reset, ps: read-back (%usr) and the
    // rest (%sys: faults, zeroing, munmap work).
    tick_t user_ps() const { return m_user_ps; }
    tick_t sys_ps() const { return m_sys_ps; }
    void reset_accounting() { m_user_ps = m_sys_ps = 0; }
    // The page zeroing (a whole-line write) goes to the PL310 as one
    // aggregate booking (stress.model=aggregate) rather than as a burst.
    bool aggregate() const { return m_cfg.model == stress_model::aggregate; }

private:
    enum class phase { touch, check, free };
    const stress_config& m_cfg;
    stress_stats& m_stats;
    const clock_domain m_clk;
    const uint64_t m_pages, m_base, m_meta_base;
    uint64_t m_meta;
    phase m_phase = phase::touch;
    uint64_t m_off = 0;
    tick_t m_user_ps = 0, m_sys_ps = 0;
};

class stressor : public sc_core::sc_module {
public:
    // One initiator per worker, each bound to the PL310's cpu_side.
    sc_core::sc_vector<tlm_utils::simple_initiator_socket<stressor>> mem_side;

    stressor(sc_core::sc_module_name nm, const stress_config& cfg);
    const stress_stats& stats() const { return m_stats; }
    void reset_stats()
    {
        m_stats = {};
        for (auto& p : m_prog)
            p->reset_accounting();
    }
    const stress_config& config() const { return m_cfg; }
    // Worker i's program, for an owner that runs it as a task (task_workers).
    hog_program& program(unsigned i) { return *m_prog.at(i); }
    // Busy time (user + sys) of worker i, one with a core of its own, up to
    // SystemC time, ps: what it has accounted less the part of its run-ahead
    // beyond now (it works without a gap, so run-ahead is busy time). For
    // samplers.
    tick_t busy_ps_now(unsigned i) const
    {
        const hog_program& p = *m_prog.at(i);
        const tick_t t = sc_core::sc_time_stamp().value(), end = m_port.at(i) ? m_port[i]->local_end : 0;
        const tick_t booked = p.user_ps() + p.sys_ps(), ahead = end > t ? end - t : 0;
        return booked > ahead ? booked - ahead : 0;
    }
    // Bind every worker's initiator to the PL310's cpu_side (beside the L1s).
    void bind(models::cache::pl310& l2)
    {
        for (auto& s : mem_side)
            s.bind(l2.cpu_side);
        m_l2 = &l2;  // the aggregate page zeroing calls it directly
    }

private:
    // A worker thread's transaction and memory function. They live with the
    // module, not on the thread's stack: the thread never returns, and what
    // its stack held would never be freed.
    struct worker_port {
        models::mem::mem_txn tx;
        hog_program::mem_fn mem;
        tick_t local_end = 0;  // the worker's own time: the end of its last step, ps
    };
    void worker(unsigned i);

    const stress_config m_cfg;
    models::cache::pl310* m_l2 = nullptr;  // set by bind()
    stress_stats m_stats{};
    std::vector<std::unique_ptr<hog_program>> m_prog;
    std::vector<std::unique_ptr<worker_port>> m_port;  // per worker; null for task workers
};

// The workers placed in a memory system: their clock is the cores', worker
// 0's footprint starts past the backed DRAM window. Throws
// std::invalid_argument when the footprints do not fit in dram.size or the
// worker cores do not exist.
stress_config stress_placed(const stress_config& s, const models::cache::hierarchy_config& h);

} // namespace khost
