// models/cache/hierarchy_config.h: configuration of the whole memory system
// (models/cache/hierarchy.h): cores, clock, quantum and the [l1], [l2], [noc]
// and [dram] groups. Plain: no SystemC.
#pragma once
#include "cache/l1_config.h"
#include "cache/l2_config.h"
#include "common/ticks.h"
#include "mem/dram_config.h"
#include "mem/noc_config.h"

namespace models::cache {

struct hierarchy_config {
    unsigned cores = 4;              // Cortex-A9 cores (i.MX6Q: 4)
    double cpu_hz = 996e6;           // core clock, Hz
    tick_t quantum_ps = PS_PER_US;   // global quantum of temporal decoupling
    l1_config l1;
    l2_config l2;
    mem::noc_config noc;
    mem::dram_config dram;
};

} // namespace models::cache
