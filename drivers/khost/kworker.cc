#include "drivers/khost/kworker.h"
#include <stdexcept>
#include "common/ticks.h"
#include "common/time.h"

namespace khost {

kworker_task* kworker_task::s_instance = nullptr;

kworker_task::kworker_task(models::cpu::core& c) : m_core(c)
{
    if (s_instance)
        throw std::logic_error("kworker_task: one per run");
    s_instance = this;
    mode = models::cpu::ctx::sys;
    sc_core::sc_spawn([this] { timer_thread(); }, sc_core::sc_gen_unique_name("kworker_timer"));
}

void kworker_task::timer_thread()
{
    for (;;) {
        sc_core::wait(m_timer);
        const uint64_t now = models::now_ps();
        if (m_at_ps == UINT64_MAX)
            continue;
        if (m_at_ps <= now)
            m_core.wake(now);
        else
            m_timer.notify(models::from_ps(m_at_ps - now));
    }
}

kworker_task::~kworker_task() { s_instance = nullptr; }

bool kworker_task::runnable() const { return m_fn && m_core.now() >= m_at_ps; }

void kworker_task::step(models::cpu::core&)
{
    m_at_ps = UINT64_MAX;  // the runner asks again for what is still pending
    m_runs++;
    m_fn();
}


void kworker_task::run_at(uint64_t at_ns)
{
    const uint64_t ps = at_ns * models::PS_PER_NS;
    if (ps >= m_at_ps)
        return;
    m_at_ps = ps;
    if (models::cpu::core* c = models::cpu::core::current())
        c->settle_lag();  // the notification below is relative to SystemC time
    const uint64_t now = models::now_ps();
    m_timer.notify(ps > now ? models::from_ps(ps - now) : sc_core::SC_ZERO_TIME);
}

} // namespace khost
