// models/cache/hierarchy.h: the i.MX6Q memory system wired as on the chip:
// per-core L1s (SCU-coherent) -> PL310 -> AXI fabric -> DRAM. Further
// initiators beside the cores (the stress -m workers, drivers/khost/stress.h)
// bind to l2.cpu_side after construction; other bus masters (the ENET uDMA)
// bind to noc.masters. Owned by whoever elaborates (sim/, tests,
// benches); construct before sc_start.
#pragma once
#include <memory>
#include <vector>
#include "cache/hierarchy_config.h"
#include "cache/l1.h"
#include "cache/pl310.h"
#include "mem/dram.h"
#include "mem/noc.h"
#include "mem/phys_mem.h"

namespace models::cache {

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
};

} // namespace models::cache
