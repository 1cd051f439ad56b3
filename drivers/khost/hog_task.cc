#include "drivers/khost/hog_task.h"

namespace khost {

using namespace models;

hog_task::hog_task(hog_program& prog, cache::pl310& l2, cpu::core& c, tick_t start)
    : m_prog(prog), m_l2(l2), m_core(c), m_start(start)
{
    mode = cpu::ctx::sys;
    m_tx.ext.master = (uint8_t)(mem::MASTER_CPU0 + c.id());
    const bool aggregate = prog.aggregate();
    m_mem = [this, aggregate](tlm::tlm_command cmd, uint64_t pa, unsigned len, bool full, tick_t t) {
        if (aggregate && full && cmd == tlm::TLM_WRITE_COMMAND)
            return m_l2.zero_aggregate(pa, len, t, m_tx.ext.master);
        m_tx.set(cmd, pa, nullptr, len);
        m_tx.ext.full_line = full;
        m_tx.ext.posted = false;
        m_tx.ext.uncached = false;
        return m_l2.access(m_tx.gp, t);
    };
}

void hog_task::step(cpu::core& c)
{
    const tick_t t = c.now();
    const hog_program::step_result r = m_prog.step(t, m_mem);
    c.charge_ps(r.end - t, cpu::CAT_OTHER);
    mode = m_prog.next_is_user() ? cpu::ctx::user : cpu::ctx::sys;
}

} // namespace khost
