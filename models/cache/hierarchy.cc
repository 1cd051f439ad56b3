#include "cache/hierarchy.h"
#include <string>
#include <tlm_utils/tlm_quantumkeeper.h>

namespace models::cache {

static l1_config core_l1(const hierarchy_config& c)
{
    l1_config l = c.l1;
    l.clock_hz = c.cpu_hz;
    return l;
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
    l2.mem_side.bind(noc.masters);  // port 0 of the fabric
    noc.mem_side.bind(dram.bus);
    // The hot paths call the bound targets directly (same semantics).
    for (auto& c : l1)
        c->set_direct(&l2);
    l2.set_direct(&noc, 0);
    noc.set_direct(&dram);
}

} // namespace models::cache
