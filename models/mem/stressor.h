// models/mem/stressor.h: the `stress -m` memory hog (hw-facts 5).
//
// Each worker runs on its own core and loops: fault in every page of a
// vm_bytes footprint (kernel work, then the page is zeroed with full-line
// stores), read the touched bytes back, free (munmap work per page). Zeroing
// goes to the PL310 as full-line writes without L1 allocation (the Cortex-A9
// write-streaming mode for consecutive full-line writes), so it allocates and
// evicts L2 lines and fills the DRAM channel: that is how it slows the RX
// core. The footprint lies past the backed DRAM window (timing only).
// Runs loosely timed with a quantum keeper, ahead of the cores by
// lookahead_quanta: the cores interact with the hog only through shared
// resources (PL310 ports and in-flight transfers, DRAM), and a core that ran
// ahead of the hog would find its traffic missing. Does not model: glibc, TLB misses,
// the scheduler (the workers have their cores to themselves).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <memory>
#include <vector>
#include "common/params.h"
#include "common/stats.h"
#include "mem/mem_ext.h"

namespace models::mem {

struct stress_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "mem/stress_params.def"
#undef P
    double clock_hz = 996e6;  // core clock, Hz; set by elaboration from [cpu] clock
    uint64_t base = 0;        // first byte of worker 0's footprint (past the backed window)
};
extern const param_table stress_param_table;

struct stress_stats {
#define S FEC_STAT_MEMBER
#include "mem/stress_stats.def"
#undef S
};
extern const stat_desc stress_stat_rows[];
extern const size_t stress_stat_count;

class stressor : public sc_core::sc_module {
public:
    // One initiator per worker, each bound to the PL310's cpu_side.
    sc_core::sc_vector<tlm_utils::simple_initiator_socket<stressor>> mem_side;

    stressor(sc_core::sc_module_name nm, const stress_config& cfg);
    const stress_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }

private:
    void worker(unsigned i);

    const stress_config m_cfg;
    stress_stats m_stats{};
};

} // namespace models::mem
