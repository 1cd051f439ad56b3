#include "cache/hierarchy.h"
#include <stdexcept>
#include <string>
#include <tlm_utils/tlm_quantumkeeper.h>

namespace models::cache {

static l1_config core_l1(const hierarchy_config& c)
{
    l1_config l = c.l1;
    l.clock_hz = c.cpu_hz;
    return l;
}

static mem::stress_config placed_stress(const hierarchy_config& c)
{
    mem::stress_config s = c.stress;
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

hierarchy::hierarchy(const hierarchy_config& c)
    : cfg(c), mem(c.dram.phys()), dram("dram", c.dram, mem), noc("noc", c.noc), l2("l2", c.l2, mem)
{
    time_setup();
    tlm_utils::tlm_quantumkeeper::set_global_quantum(from_ps(c.quantum_ps));
    const tick_t horizon = std::max<tick_t>(4 * c.quantum_ps, 10 * PS_PER_US);
    dram.set_horizon(horizon);
    noc.set_horizon(horizon);
    l2.set_horizon(horizon);
    const l1_config lc = core_l1(c);
    for (unsigned i = 0; i < c.cores; i++) {
        l1.emplace_back(new l1_cache(("l1_" + std::to_string(i)).c_str(), lc, i, mem, domain));
        l1.back()->mem_side.bind(l2.cpu_side);
    }
    stress.reset(new mem::stressor("stress", placed_stress(c)));
    for (auto& s : stress->mem_side)
        s.bind(l2.cpu_side);
    l2.mem_side.bind(noc.masters);  // port 0 of the fabric
    noc.mem_side.bind(dram.bus);
    // The hot paths call the bound targets directly (same semantics).
    for (auto& c : l1)
        c->set_direct(&l2);
    l2.set_direct(&noc, 0);
    noc.set_direct(&dram);
}

} // namespace models::cache
