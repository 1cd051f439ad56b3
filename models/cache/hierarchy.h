// models/cache/hierarchy.h: the i.MX6Q memory system wired as on the chip:
// per-core L1s (SCU-coherent) -> PL310 -> AXI fabric -> DRAM, with the
// memory hog's workers on the PL310 beside the cores. Other bus masters (the
// ENET uDMA) bind to noc.masters. Owned by whoever elaborates (sim/, tests,
// benches); construct before sc_start.
#pragma once
#include <memory>
#include <vector>
#include "cache/dma_maint.h"
#include "cache/l1.h"
#include "cache/pl310.h"
#include "mem/dram.h"
#include "mem/noc.h"
#include "mem/phys_mem.h"
#include "mem/stressor.h"

namespace models::cache {

struct hierarchy_config {
    unsigned cores = 4;              // Cortex-A9 cores (i.MX6Q: 4)
    double cpu_hz = 996e6;           // core clock, Hz
    tick_t quantum_ps = PS_PER_US;   // global quantum of temporal decoupling
    l1_config l1;
    l2_config l2;
    mem::noc_config noc;
    mem::dram_config dram;
    mem::stress_config stress;
};

class hierarchy {
public:
    explicit hierarchy(const hierarchy_config& cfg);

    const hierarchy_config cfg;
    mem::phys_mem mem;
    mem::dram dram;
    mem::noc noc;
    pl310 l2;
    scu domain;
    std::vector<std::unique_ptr<l1_cache>> l1;
    std::unique_ptr<mem::stressor> stress;

    cpu_caches caches(unsigned core) { return cpu_caches{*l1.at(core), l2}; }
};

} // namespace models::cache
