#include "cpu/core.h"
#include "common/log.h"
#include "common/trace_events.h"
#include <tlm>

namespace models::cpu {

const stat_desc cpu_stat_rows[] = {
#define S(...) FEC_STAT_ROW(cpu_stats, __VA_ARGS__)
#include "cpu/cpu_stats.def"
#undef S
};
const size_t cpu_stat_count = sizeof cpu_stat_rows / sizeof cpu_stat_rows[0];

core* core::s_current = nullptr;
tick_t core::s_run_until = 0;

core::core(sc_core::sc_module_name nm, const cpu_config& cfg, unsigned id, cache::l1_cache& l1)
    : sc_module(nm), irq("irq"), m_cfg(cfg), m_id(id), m_l1(l1), m_clk(cfg.clock_hz), m_ksoftirqd(*this)
{
    m_tasks.push_back(&m_ksoftirqd);
    if (cfg.sched.tick_hz) {
        m_softirq_handlers[TIMER_SOFTIRQ] = [this] {
            m_stats.timer_softirqs++;
            charge(m_cfg.sched.timer_softirq_cycles, CAT_BACKGROUND);
        };
        m_softirq_handlers[RCU_SOFTIRQ] = [this] {
            m_stats.rcu_softirqs++;
            charge(m_cfg.sched.rcu_softirq_cycles, CAT_BACKGROUND);
        };
    }
    if (cfg.sched.bg_irq_hz && id == cfg.sched.bg_irq_core)
        m_next_bg = PS_PER_S / cfg.sched.bg_irq_hz;
    set_bg_due();
    SC_HAS_PROCESS(core);
    SC_THREAD(main);
    SC_METHOD(irq_changed);
    sensitive << irq;
    dont_initialize();
    SC_METHOD(irq_watch);
    sensitive << m_irq_watch;
    dont_initialize();
}

void core::reset_stats()
{
    m_stats = {};
    for (auto& x : m_ctx_ps)
        x = 0;
    for (auto& x : m_cat_ps)
        x = 0;
    for (auto& x : m_irq_moved_ps)
        x = 0;
    m_ksoftirqd.run_ps = m_ksoftirqd.interrupted_ps = 0;
    for (task* t : m_tasks)
        t->run_ps = t->interrupted_ps = 0;
    const tick_t ahead = run_ahead_ps();
    m_ctx_ps[(int)m_ctx] += ahead;
    m_current_since = now() - ahead;
    m_acct_mark = std::max(m_acct_mark, now_ps());
}

tick_t core::run_ahead_ps() const
{
    const tick_t t = now_ps();
    return now() > t ? now() - t : 0;
}

void core::end_region()
{
    settle();
    const tick_t ahead = run_ahead_ps();
    tick_t& in = m_ctx_ps[(int)m_ctx];
    in -= std::min(in, ahead);
    if (m_running)
        m_running->run_ps -= std::min(m_running->run_ps, ahead);
}

void core::account_external(ctx x, tick_t ps)
{
    tick_t& idle = m_ctx_ps[(int)ctx::idle];
    const tick_t moved = std::min(ps, idle);
    idle -= moved;
    m_ctx_ps[(int)x] += moved;
}

const cpu_stats& core::stats()
{
    m_stats.irq_ps = m_ctx_ps[(int)ctx::irq];
    m_stats.softirq_ps = m_ctx_ps[(int)ctx::softirq];
    m_stats.sys_ps = m_ctx_ps[(int)ctx::sys];
    m_stats.user_ps = m_ctx_ps[(int)ctx::user];
    m_stats.idle_ps = m_ctx_ps[(int)ctx::idle];
    // /proc/stat's view. Without irq time accounting the kernel samples the
    // context at each tick (kernel/sched/cputime.c, account_process_tick),
    // and a tick cannot fall inside a hardirq (interrupts are off there): it
    // waits for the handler's end and books the context that follows. Over
    // many ticks at a phase unrelated to the traffic that is, in
    // expectation, the measured split with each hardirq's time moved to
    // the context after it; that expectation is what is booked (a model
    // whose traffic is as periodic as its tick would alias a literal
    // sampler). Idle is measured either way (NO_HZ_IDLE, fs/proc/stat.c).
    const bool measured = m_cfg.sched.irq_time_accounting;
    m_stats.acct_user_ps = m_stats.user_ps + (measured ? 0 : m_irq_moved_ps[(int)ctx::user]);
    m_stats.acct_sys_ps = m_stats.sys_ps + (measured ? 0 : m_irq_moved_ps[(int)ctx::sys]);
    m_stats.acct_irq_ps = measured ? m_stats.irq_ps : 0;
    m_stats.acct_softirq_ps = m_stats.softirq_ps + (measured ? 0 : m_irq_moved_ps[(int)ctx::softirq]);
    m_stats.acct_idle_ps = m_stats.idle_ps + (measured ? 0 : m_irq_moved_ps[(int)ctx::idle]);
    const tick_t p = m_clk.period_ps;
    m_stats.cat_driver = m_cat_ps[CAT_DRIVER] / p;
    m_stats.cat_desc = m_cat_ps[CAT_DESC] / p;
    m_stats.cat_mmio = m_cat_ps[CAT_MMIO] / p;
    m_stats.cat_dma_sync = m_cat_ps[CAT_DMA_SYNC] / p;
    m_stats.cat_copy = m_cat_ps[CAT_COPY] / p;
    m_stats.cat_stack = m_cat_ps[CAT_STACK] / p;
    m_stats.cat_alloc = m_cat_ps[CAT_ALLOC] / p;
    m_stats.cat_other = m_cat_ps[CAT_OTHER] / p;
    m_stats.cat_background = m_cat_ps[CAT_BACKGROUND] / p;
    return m_stats;
}

void core::log_contexts(bool on)
{
    m_ctx_log_on = on;
    m_ctx_log.clear();
    m_ctx_at = m_ctx;
}

ctx core::context_at(tick_t t)
{
    while (!m_ctx_log.empty() && m_ctx_log.front().first <= t) {
        m_ctx_at = m_ctx_log.front().second;
        m_ctx_log.pop_front();
    }
    return m_ctx_at;
}

tick_t core::busy_ps_now() const
{
    tick_t busy = 0;
    for (int x = 0; x < 5; x++)
        if (x != (int)ctx::idle)
            busy += m_ctx_ps[x];
    const tick_t t = now_ps(), ahead = now() > t ? now() - t : 0;
    return busy > ahead ? busy - ahead : 0;
}

void core::resume()
{
    s_current = this;
    m_base = now_ps();
    m_local = 0;
    m_lag = 0;
    set_budget();
}

void core::set_budget()
{
    // Run ahead at most to the next global-quantum boundary.
    m_sync_budget = m_quantum ? (m_base / m_quantum + 1) * m_quantum - m_base : 0;
}

void core::stall_until(tick_t t, cat c)
{
    const tick_t n = now();
    if (t > n)
        charge_ps(t - n, c);
}

void core::sync()
{
    check_lockup();
    if (m_local + m_lag) {
        s_current = nullptr;  // other processes run now: nobody's code is ours
        m_waits++;
        sc_core::wait(from_ps(m_local + m_lag));
    }
    resume();
}

void core::catch_up()
{
    if (m_local && now() <= s_run_until &&
        to_ps(sc_core::sc_time_to_pending_activity()) > m_lag + m_local) {
        check_lockup();
        // The state sync() would leave, but with the wait owed (m_lag).
        m_base += m_local;
        m_lag += m_local;
        m_local = 0;
        m_waits_saved++;
        set_budget();
        return;
    }
    sync();
}

void core::settle_lag()
{
    if (!m_lag)
        return;
    s_current = nullptr;
    m_waits++;
    sc_core::wait(from_ps(m_lag));
    s_current = this;
    m_lag = 0;
}

void core::lockup()
{
    const tick_t stuck = now() - m_work_start;
    m_work_start = now();  // if the handler returns, fire again one lockup_ps later
    if (m_lockup) {
        s_current = nullptr;  // if it throws, this core's code does not run on
        m_lockup(*this, stuck);
        s_current = this;
    }
}

std::vector<const task*> core::tasks() const
{
    std::vector<const task*> v{&m_ksoftirqd};
    for (const task* t : m_tasks)
        if (t != &m_ksoftirqd)
            v.push_back(t);
    return v;
}

void core::set_current(task* t)
{
    if (m_running)
        m_running->run_ps += now() - m_current_since;
    m_current_since = now();
    m_running = t;
}

void core::settle()
{
    if (m_running) {
        m_running->run_ps += now() - m_current_since;
        m_current_since = now();
    }
    // Time between the last charged instant and SystemC time was idle (or is
    // being accounted by a running context, which is already ahead).
    if (m_ctx == ctx::idle && now_ps() > m_acct_mark) {
        m_ctx_ps[(int)ctx::idle] += now_ps() - m_acct_mark;
        m_acct_mark = now_ps();
    }
}

void core::set_softirq_handler(unsigned nr, std::function<void()> h)
{
    if (nr >= NR_SOFTIRQS)
        throw std::invalid_argument("softirq number out of range");
    m_softirq_handlers[nr] = std::move(h);
}

void core::raise_softirq(unsigned nr)
{
    m_softirq_pending |= 1u << nr;
    // Outside interrupt context nobody runs softirqs on exit: wake ksoftirqd.
    if (!m_in_irq && !m_in_softirq && !m_ksoftirqd.woken) {
        m_ksoftirqd.woken = true;
        m_stats.ksoftirqd_wakeups++;
    }
}

void core::irq_changed()
{
    m_irq_level = irq.read();
    if (m_irq_level) {
        const tick_t lat = m_clk.cycles(m_cfg.irq_latency_cycles);
        m_irq_raised_ps = now_ps();
        post_wake(m_irq_raised_ps + lat);
    }
}

void core::irq_watch()
{
    const tick_t late = now_ps() - m_irq_raised_ps;
    if (!m_irq_level || m_in_irq || !m_irq_handler || !m_idle_waiting ||
        late <= m_clk.cycles(m_cfg.irq_latency_cycles))
        return;
    models::sim_log(models::log_level::error, name(),
                    "interrupt line asserted %.3f us ago while the core waits in idle: a lost wake-up in the core "
                    "model; the core is woken now",
                    (double)late / PS_PER_US);
    post_wake(now_ps());
}

// The wake-ups due by now leave m_wakes for m_last_due (the latest of them:
// all the idle loop asks of them is whether one came after its last look).
// Returns the earliest one still to come, NEVER if none.
tick_t core::settle_wakes()
{
    const tick_t n = now_ps();
    tick_t next = NEVER;
    size_t k = 0;
    for (tick_t t : m_wakes)
        if (t > n) {
            m_wakes[k++] = t;
            next = std::min(next, t);
        } else if (m_last_due == NEVER || t > m_last_due) {
            m_last_due = t;
        }
    m_wakes.resize(k);
    return next;
}

void core::post_wake(tick_t at_ps)
{
    const tick_t n = now_ps();
    settle_wakes();
    m_wakes.push_back(std::max(at_ps, n));
    m_wake.notify(from_ps(m_wakes.back() - n));
}

// A wake-up due at or after look_ps (when the idle loop last looked at the
// interrupt line and the tasks) and no later than now: it has fired, or fires
// in this time step, without the core waiting for it.
bool core::wake_fired_since(tick_t look_ps)
{
    settle_wakes();
    return m_last_due != NEVER && m_last_due >= look_ps;
}

// After a wake-up: the ones due by now are seen, and the earliest one still
// to come is notified again (sc_event kept only the earliest pending).
void core::renotify_wakes()
{
    const tick_t next = settle_wakes();
    m_last_due = NEVER;
    if (next != NEVER)
        m_wake.notify(from_ps(next - now_ps()));
}

template <typename F> void core::hardirq(const char* name, cat c, F&& body)
{
    const ctx prev = m_ctx;
    const cat pc = set_cat(c);
    enter(ctx::irq);
    m_in_irq = true;
    const tick_t t_irq = now();
    charge(m_cfg.irq_entry_cycles / 2, c);
    body();
    charge(m_cfg.irq_entry_cycles - m_cfg.irq_entry_cycles / 2, c);
    m_in_irq = false;
    const tick_t t_hardirq_end = now();
    if (g_trace)
        g_trace->span(te_track::cpu, m_id, t_irq, now(), g_trace->intern(name));
    // irq_exit: softirqs run here unless we interrupted one, or ksoftirqd has
    // them (4cd13c21b207).
    // "We interrupted one" is a softirq run in progress: ksoftirqd between two
    // runs is a task like any other (it may just have found nothing pending).
    const bool inline_softirq =
        !m_in_softirq && m_softirq_pending && !(m_cfg.sched.ksoftirqd_defers && m_ksoftirqd.woken);
    if (inline_softirq) {
        m_stats.softirq_inline++;
        do_softirq(false);
    }
    m_irq_moved_ps[(int)(inline_softirq ? ctx::softirq : prev)] += t_hardirq_end - t_irq;
    if (m_running)
        m_running->interrupted_ps += now() - t_irq;
    enter(prev);
    set_cat(pc);
}

void core::do_irq()
{
    hardirq("hardirq", CAT_DRIVER, [this] {
        m_stats.irqs++;
        if (m_irq_handler)
            m_irq_handler();
    });
}

void core::tick_restart()
{
    // tick_nohz_restart_sched_tick: the tick hrtimer forwarded past now, on
    // the jiffy grid shared by all cores (no skew_tick).
    const tick_t period = PS_PER_S / m_cfg.sched.tick_hz;
    m_next_tick = (now() / period + 1) * period;
    set_bg_due();
}

void core::do_background()
{
    const tick_t n = now();
    if (n >= m_next_tick) {
        // Hardirqs wait for a preemption point (up to a NAPI poll here, where
        // the board's tick would interrupt the poll): every tick that fell
        // due meanwhile is taken there, one after the other, so that a busy
        // core takes HZ ticks a second at any HZ.
        m_next_tick += PS_PER_S / m_cfg.sched.tick_hz;
        set_bg_due();
        hardirq("tick", CAT_BACKGROUND, [this] {
            m_stats.ticks++;
            charge(m_cfg.sched.tick_cycles, CAT_BACKGROUND);
            raise_softirq(TIMER_SOFTIRQ);  // 5.4: due on every tick of a busy core (docs/sources.md §11)
            if (m_cfg.sched.rcu_softirq_interval && ++m_tick_seq % m_cfg.sched.rcu_softirq_interval == 0)
                raise_softirq(RCU_SOFTIRQ);
        });
        return;
    }
    m_next_bg += PS_PER_S / m_cfg.sched.bg_irq_hz;  // likewise
    set_bg_due();
    hardirq("background irq", CAT_BACKGROUND, [this] {
        m_stats.bg_irqs++;
        charge(m_cfg.sched.bg_irq_cycles, CAT_BACKGROUND);
    });
}

void core::preempt_point()
{
    if (m_irq_level && !m_in_irq && m_irq_handler)
        do_irq();
    while (background_due())
        do_background();
}

void core::do_softirq(bool from_ksoftirqd)
{
    const ctx prev = m_ctx;
    enter(ctx::softirq);
    m_stats.softirq_runs++;
    if (from_ksoftirqd)
        m_stats.ksoftirqd_runs++;
    const tick_t start = now();
    m_in_softirq = true;
    unsigned restart = m_cfg.sched.softirq_max_restart;
    for (;;) {
        const uint32_t p = m_softirq_pending;
        m_softirq_pending = 0;
        for (unsigned nr = 0; nr < NR_SOFTIRQS; nr++)
            if ((p >> nr) & 1 && m_softirq_handlers[nr])
                m_softirq_handlers[nr]();
        if (!m_softirq_pending)
            break;
        if (now() - start < m_cfg.sched.softirq_max_time_ps && --restart) {
            preempt_point();
            continue;
        }
        if (!m_ksoftirqd.woken) {
            m_ksoftirqd.woken = true;
            m_stats.ksoftirqd_wakeups++;
            if (g_trace)
                g_trace->instant(te_track::cpu, m_id, now(), g_trace->intern("wake ksoftirqd"));
        }
        break;
    }
    m_in_softirq = false;
    if (g_trace)
        g_trace->span(te_track::cpu, m_id, start, now(), g_trace->intern("softirq"), g_trace->intern("rounds"),
                      (int64_t)(m_cfg.sched.softirq_max_restart - restart + 1));
    enter(prev);
}

void core::ksoftirqd_task::step(core& c)
{
    if (c.m_softirq_pending)
        c.do_softirq(true);
    if (!c.m_softirq_pending)
        woken = false;
}

void core::wake(tick_t at, bool ipi)
{
    if (s_current)
        s_current->settle_lag();  // the notification below is relative to SystemC time
    m_stats.wakeups++;
    if (ipi && m_ctx == ctx::idle && !m_running)
        m_ipi_pending = true;
    if (g_trace)
        g_trace->instant(te_track::cpu, m_id, at, g_trace->intern("wakeup"));
    post_wake(at + m_clk.cycles(m_cfg.sched.wakeup_cycles));
}

task* core::pick_task()
{
    const tick_t n = now();
    if (m_running && m_running->runnable() && n - m_slice_start < m_cfg.sched.sched_slice_ps)
        return m_running;
    for (size_t k = 1; k <= m_tasks.size(); k++) {
        task* t = m_tasks[(m_rr + k) % m_tasks.size()];
        if (t->runnable()) {
            m_rr = (m_rr + k) % m_tasks.size();
            return t;
        }
    }
    return nullptr;
}

void core::main()
{
    m_quantum = to_ps(tlm::tlm_global_quantum::instance().get());
    resume();
    m_acct_mark = now_ps();
    if (m_boot) {
        enter(ctx::sys);
        unit_of_work(m_boot);
        sync();
    }
    if (m_cfg.sched.tick_hz)
        tick_restart();
    for (;;) {
        s_current = this;
        // SystemC time of this look at the line and the tasks; deciding to
        // idle can take synchronisations (charges) after it.
        const tick_t look_ps = now_ps();
        if (m_irq_level && !m_in_irq && m_irq_handler) {
            unit_of_work([this] { do_irq(); });
            continue;
        }
        if (background_due()) {
            unit_of_work([this] { do_background(); });
            continue;
        }
        task* t = pick_task();
        if (t) {
            if (t != m_running) {
                if (m_running) {
                    enter(ctx::sys);
                    charge(m_cfg.sched.ctx_switch_cycles, CAT_DRIVER);
                    m_stats.ctx_switches++;
                } else if (m_from_idle) {
                    m_from_idle = false;
                    m_stats.idle_exits++;
                    if (m_cfg.sched.idle_exit_cycles) {
                        enter(ctx::sys);
                        charge(m_cfg.sched.idle_exit_cycles, CAT_DRIVER);
                    }
                }
                set_current(t);
                m_slice_start = now();
            }
            enter(t->mode);
            const tick_t t0 = now();
            unit_of_work([this, t] { t->step(*this); });
            if (g_trace && now() > t0)
                g_trace->span(te_track::cpu, m_id, t0, now(), g_trace->intern(t->name()));
            continue;
        }
        if (m_running) {
            m_stats.blocks++;
            if (m_cfg.sched.block_cycles) {
                enter(ctx::sys);
                charge(m_cfg.sched.block_cycles, CAT_DRIVER);
            }
        }
        if (m_softirq_pending && !m_ksoftirqd.woken) {
            // Guard: raised softirqs with neither a softirq run nor ksoftirqd
            // to run them would wait for the next interrupt (or for ever).
            models::sim_log(models::log_level::error, name(),
                            "softirqs 0x%x pending as the core goes idle, with ksoftirqd asleep: a lost softirq in "
                            "the core model; ksoftirqd is woken now",
                            m_softirq_pending);
            m_ksoftirqd.woken = true;
            m_stats.ksoftirqd_wakeups++;
            continue;
        }
        set_current(nullptr);
        m_from_idle = true;
        enter(ctx::idle);
        m_next_tick = NEVER;  // NO_HZ_IDLE: the idle core's tick is stopped
        set_bg_due();
        sync();
        m_acct_mark = now_ps();
        s_current = nullptr;
        if (!wake_fired_since(look_ps)) {
            // sc_event keeps only its earliest notification: a wake-up that
            // fired while the core was busy took the later ones with it.
            const tick_t next = settle_wakes();
            if (next != NEVER)
                m_wake.notify(from_ps(next - now_ps()));
            m_idle_waiting = true;
            if (m_irq_level && m_irq_handler)  // the guard looks once the latency has passed
                m_irq_watch.notify(from_ps(2 * m_clk.cycles(m_cfg.irq_latency_cycles) + PS_PER_US));
            if (m_next_bg != NEVER)  // the background interrupt wakes the idle core
                sc_core::wait(from_ps(m_next_bg > now_ps() ? m_next_bg - now_ps() : 0), m_wake);
            else
                sc_core::wait(m_wake);
            m_idle_waiting = false;
        }
        renotify_wakes();
        resume();
        m_ctx_ps[(int)ctx::idle] += now_ps() - m_acct_mark;
        m_acct_mark = now_ps();
        if (m_cfg.sched.tick_hz)
            tick_restart();
        if (m_ipi_pending) {
            m_ipi_pending = false;
            m_stats.ipis++;
            if (m_cfg.sched.ipi_cycles) {
                const cat pc = set_cat(CAT_DRIVER);
                enter(ctx::irq);
                charge(m_cfg.sched.ipi_cycles, CAT_DRIVER);
                m_irq_moved_ps[(int)ctx::idle] += m_clk.cycles(m_cfg.sched.ipi_cycles);
                enter(ctx::idle);
                set_cat(pc);
            }
        }
    }
}

} // namespace models::cpu
