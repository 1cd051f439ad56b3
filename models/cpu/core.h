// models/cpu/core.h: a Cortex-A9 core running Linux contexts: hardirq,
// softirq (inline at irq exit or in ksoftirqd) and tasks.
//
// Models: one SystemC thread per core that runs, in priority order, pending
// hardirqs, softirqs at irq exit (unless ksoftirqd is runnable and
// ksoftirqd_defers, as with commit 4cd13c21b207), and runnable tasks
// round-robin with a CFS-like slice; __do_softirq's 10-restart / 2 ms limits
// and the hand-over to ksoftirqd (the policy is cpu_config::sched, which
// elaboration takes from the kernel's [kernel] group); per-context time accounting (mpstat's
// %irq %soft %sys %usr %idle) and per-category cycle accounting. Code runs
// ahead of SystemC time (temporal decoupling, tlm_quantumkeeper) and
// synchronises at quantum ends and at every interaction with another agent.
// Hardirqs preempt at preemption points (between softirq handlers, between
// NAPI polls, between task steps), not inside a function.
// Background activity (sched.tick_hz, sched.bg_irq_hz): the scheduler tick
// of a non-idle core at HZ, aligned to jiffy boundaries on every core, stopped
// while the core is idle (NO_HZ_IDLE) and restarted at the next boundary when
// it wakes; each tick raises TIMER_SOFTIRQ and every rcu_softirq_interval-th
// RCU_SOFTIRQ, run like NET_RX (at irq exit, in an interrupted __do_softirq's
// next round, or by ksoftirqd); a periodic device interrupt on one core, which
// also wakes it from idle. Both are hardirqs at preemption points, booked as
// the ENET interrupt is.
// Does not model: interrupt nesting, priorities between tasks, RT, the tick
// on an idle core whose cpuidle governor keeps it, migration.
#pragma once
#include <algorithm>
#include <deque>
#include <functional>
#include <systemc>
#include <vector>
#include "cache/l1.h"
#include "common/stats.h"
#include "cpu/cpu_config.h"

namespace models::cpu {

struct cpu_stats {
#define S FEC_STAT_MEMBER
#include "cpu/cpu_stats.def"
#undef S
};
extern const stat_desc cpu_stat_rows[];
extern const size_t cpu_stat_count;

// Accounting context of the running code.
enum class ctx : uint8_t { irq, softirq, sys, user, idle };

// Cost categories (same numbering as SIMHOST_CAT_* in drivers/shim/simhost.h;
// CAT_OTHER, work outside the network path such as a memory-hog worker
// sharing the core, and CAT_BACKGROUND, the kernel's background activity
// (ticks, TIMER and RCU softirqs, background interrupts), have no
// driver-side name).
enum cat : uint8_t { CAT_DRIVER, CAT_DESC, CAT_MMIO, CAT_DMA_SYNC, CAT_COPY, CAT_STACK, CAT_ALLOC, CAT_OTHER, CAT_BACKGROUND, CAT_COUNT };

// Softirq numbers used here (include/linux/interrupt.h): handlers run in this order.
enum softirq_nr : unsigned { TIMER_SOFTIRQ = 1, NET_TX_SOFTIRQ = 2, NET_RX_SOFTIRQ = 3, RCU_SOFTIRQ = 9, NR_SOFTIRQS = 10 };

class core;

// A schedulable task. step() does one unit of work on `c` (charging its
// time) and returns; the core calls it while runnable() and the slice lasts.
class task {
public:
    virtual ~task() = default;
    virtual const char* name() const = 0;
    virtual bool runnable() const = 0;
    virtual void step(core& c) = 0;
    ctx mode = ctx::sys;  // accounting context of its steps
    // Time this task was its core's current task, ps, hardirqs and softirqs
    // that interrupted it included (the scheduler's sum_exec_runtime, what
    // top shows without CONFIG_IRQ_TIME_ACCOUNTING), and the part of it in
    // those interrupts (irq time accounting takes it out). Reset with the
    // core's statistics.
    tick_t run_ps = 0, interrupted_ps = 0;
};

class core : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> irq;  // level-sensitive interrupt line (bound on the irq core only)

    core(sc_core::sc_module_name nm, const cpu_config& cfg, unsigned id, cache::l1_cache& l1);

    unsigned id() const { return m_id; }
    cache::l1_cache& l1() { return m_l1; }
    const cpu_config& config() const { return m_cfg; }
    const clock_domain& clock() const { return m_clk; }

    // --- Time. Only code running on this core's thread may call these. ---
    tick_t now() const { return m_base + m_local; }
    void charge_ps(tick_t ps, cat c)
    {
        account(ps, c);
        if (m_local >= m_sync_budget) {
            if (!m_atomic)
                catch_up();
            else
                check_lockup();
        }
    }
    void charge(uint64_t cycles, cat c) { charge_ps(m_clk.cycles(cycles), c); }
    // charge_ps, telling whether other processes ran meanwhile (a
    // synchronisation wait): what a store's hook needs to know of its charge.
    bool charge_ps_waited(tick_t ps, cat c)
    {
        account(ps, c);
        if (m_local >= m_sync_budget) [[unlikely]] {
            if (m_atomic) {
                check_lockup();
                return false;
            }
            const uint64_t w = m_waits;
            catch_up();
            return m_waits != w;
        }
        return false;
    }
    // The same without the synchronisation check: for work that must stay
    // atomic with what the caller does next (the store a memory hook
    // precedes); the next charge_ps() makes up the check.
    void charge_ps_deferred(tick_t ps, cat c) { account(ps, c); }
    // Bring SystemC time to this core's time (before interacting with another agent).
    void sync();
    // The same outcome as sync() for interactions that carry their own time
    // (memory accesses and maintenance at now(), the quantum boundary): when
    // no other process has anything to do up to this core's time and the run
    // does not end before it, nobody can observe or change what the core
    // touches in between, so SystemC time is left behind and the context
    // switch saved. Not for what reads SystemC time (register accesses,
    // event notifications): those sync().
    void catch_up();
    // The time the current sc_start() runs to (ps, absolute); catch_up()
    // never leaves SystemC time behind past it. 0 (the default): it always
    // syncs.
    static void set_run_until(tick_t t) { s_run_until = t; }
    // Code on this core's thread that reads SystemC time or notifies an
    // event calls this first: SystemC time is then where sync() would have
    // left it at the core's last synchronisation point (m_base).
    void settle_lag();
    // Synchronisation waits this core made, and those catch_up() left out
    // (how the simulation ran, not what the hardware did: for sim.log).
    uint64_t sync_waits() const { return m_waits; }
    uint64_t sync_waits_saved() const { return m_waits_saved; }
    // Advance this core's time to t (no work done: stalled), if t is later.
    void stall_until(tick_t t, cat c);
    // While inside, the core does not yield (a spinlock is held): no other
    // agent can run in the critical section. Nests.
    void atomic_enter() { m_atomic++; }
    void atomic_leave()
    {
        if (--m_atomic == 0 && m_local >= m_sync_budget)
            catch_up();
    }

    // --- Where the core's code is. The instrumentation hooks keep it (the
    // last basic block entered and the stack of function entries); the
    // kernel host reads it to name the code of a fault or a lockup. ---
    struct code_trace {
        static constexpr unsigned max_depth = 32;
        const void* pc = nullptr;                  // last basic block entered
        const void* frames[max_depth] = {};        // function entries, outermost first
        unsigned depth = 0;                        // may exceed max_depth: deeper frames not kept
    };
    code_trace& trace() { return m_trace; }
    // Soft-lockup watchdog: h runs on this core's thread when one unit of
    // work (a hardirq with the softirqs at its exit, one softirq run of
    // ksoftirqd, one task step, the boot) has run for more than
    // sched.lockup_ps of this core's time without returning to the
    // scheduler; stuck_ps is how long. h is expected to throw; if it
    // returns, the watchdog fires again one lockup_ps later.
    void set_lockup_handler(std::function<void(core&, tick_t stuck_ps)> h) { m_lockup = std::move(h); }
    cat current_cat() const { return m_cat; }
    cat set_cat(cat c) { cat o = m_cat; m_cat = c; return o; }
    ctx current_ctx() const { return m_ctx; }
    // The scheduler's current task (nullptr: none yet).
    const task* running() const { return m_running; }
    ctx set_ctx(ctx x) { ctx o = m_ctx; enter(x); return o; }
    bool in_softirq() const { return m_ctx == ctx::softirq; }
    // The context the core is in at its own time, which runs ahead of
    // SystemC time.
    ctx context() const { return m_ctx; }
    // For samplers: with log_contexts(true) the core keeps its context
    // changes (at its own times) until context_at(t) consumes them; t must
    // not decrease between calls. context_at(t) is the context at time t.
    void log_contexts(bool on);
    ctx context_at(tick_t t);

    // --- Interrupts and softirqs. ---
    void set_irq_handler(std::function<void()> h) { m_irq_handler = std::move(h); }
    void set_softirq_handler(unsigned nr, std::function<void()> h);
    void raise_softirq(unsigned nr);
    // Run pending hardirqs now if any (called at preemption points).
    void preempt_point();

    // --- Tasks. ---
    void add_task(task* t) { m_tasks.push_back(t); }
    // This core's tasks (ksoftirqd first).
    std::vector<const task*> tasks() const;
    // Wake a task of this core from any core; `at` is the waker's time.
    // ipi: the waker woke a sleeping task and sent the reschedule IPI; an
    // idle core takes it (sched.ipi_cycles) before it runs the task.
    void wake(tick_t at, bool ipi = false);
    // Timer: look for runnable tasks at absolute time t (hrtimer expiry; no
    // extra latency is added).
    void wake_at(tick_t t) { post_wake(t); }
    // Code to run once on this core at time 0 before scheduling (driver probe/open).
    void set_boot(std::function<void()> b) { m_boot = std::move(b); }

    const cpu_stats& stats();
    // Busy time (every context but idle) up to SystemC time, ps: what the
    // core has booked, less the part of its run-ahead that lies beyond now.
    // Run-ahead is busy time but for the scheduler's own look at its tasks
    // (a few cycles of kernel code charged as idle when nothing is
    // runnable), so between resets this may step back by those cycles; for
    // samplers (not from this core's thread).
    tick_t busy_ps_now() const;
    // Starts a region at SystemC time: the run-ahead past it, booked before
    // the reset, is booked again to the context the core is in at its own
    // time (and to the running task), so the region counts all of its time.
    void reset_stats();
    // Close the accounting up to SystemC time (idle until now) before a dump.
    void settle();
    // Ends a region at SystemC time: settle(), then the run-ahead past it is
    // taken out of the context the core is in at its own time (and out of
    // the running task), so the region counts none of the time after it.
    // The contexts then sum to the region's length (within the run-ahead of
    // a context switch inside it, a few ns).
    void end_region();
    // Work this core did that its own thread did not run (a memory-hog worker
    // given the core to itself runs as a thread of the stressor): moves up to
    // ps of idle time to context x. Call after settle().
    void account_external(ctx x, tick_t ps);

    // The core whose thread is running (the instrumentation hooks' target).
    static core* current() { return s_current; }
    // No core's code runs any more (a fault stopped it): kernel code called
    // from now on, outside every core thread, costs nothing.
    static void clear_current() { s_current = nullptr; }

private:
    void main();
    void irq_changed();
    void do_irq();
    // One hardirq: entry, body, exit with the softirqs at irq exit, booked
    // in context irq (category c) and, for the tick's view, to the context
    // that follows it.
    template <typename F> void hardirq(const char* name, cat c, F&& body);
    // The background events: the scheduler tick or the background interrupt, whichever is due.
    static constexpr tick_t NEVER = ~(tick_t)0;
    bool background_due() const { return !m_in_irq && now() >= m_bg_due; }
    void do_background();
    void tick_restart();  // (re)start the tick at the next jiffy boundary after now()
    void set_bg_due() { m_bg_due = std::min(m_next_tick, m_next_bg); }
    void irq_exit();
    void do_softirq(bool from_ksoftirqd);
    task* pick_task();
    void resume();
    void set_budget();  // m_sync_budget from m_base  // after any wait(): re-read SystemC time
    static constexpr tick_t NO_WORK = ~(tick_t)0;
    void check_lockup()
    {
        if (m_work_start != NO_WORK && m_cfg.sched.lockup_ps && now() - m_work_start > m_cfg.sched.lockup_ps)
            lockup();
    }
    void lockup();
    // ps of work in context m_ctx and category c, on the core's own time.
    void account(tick_t ps, cat c)
    {
        m_local += ps;
        m_ctx_ps[(int)m_ctx] += ps;
        m_cat_ps[c] += ps;
    }
    // Runs fn as one unit of work of the soft-lockup watchdog (nested units belong to the outer one).
    template <typename F> void unit_of_work(F&& fn)
    {
        const bool outer = m_work_start == NO_WORK;
        if (outer)
            m_work_start = now();
        fn();
        if (outer)
            m_work_start = NO_WORK;
    }

    class ksoftirqd_task : public task {
    public:
        explicit ksoftirqd_task(core& c) : m_core(c) { mode = ctx::softirq; }
        const char* name() const override { return "ksoftirqd"; }
        bool runnable() const override { return woken; }
        void step(core& c) override;
        bool woken = false;

    private:
        core& m_core;
    };

    const cpu_config m_cfg;
    const unsigned m_id;
    cache::l1_cache& m_l1;
    clock_domain m_clk;
    tick_t m_base = 0;         // SystemC time at the last synchronisation point (less m_lag), ps
    tick_t m_local = 0;        // run-ahead of this core beyond m_base, ps
    tick_t m_lag = 0;          // SystemC time is this far behind m_base (waits catch_up() saved), ps
    tick_t m_sync_budget = 0;  // run-ahead allowed before the next quantum boundary
    uint64_t m_waits = 0, m_waits_saved = 0;
    tick_t m_quantum = 0;
    unsigned m_atomic = 0;
    tick_t m_ctx_ps[5] = {};
    tick_t m_cat_ps[CAT_COUNT] = {};
    cat m_cat = CAT_DRIVER;
    ctx m_ctx = ctx::idle;
    void enter(ctx x)
    {
        if (m_ctx_log_on && x != m_ctx)
            m_ctx_log.emplace_back(now(), x);
        m_ctx = x;
    }
    tick_t m_irq_moved_ps[5] = {};
    bool m_ipi_pending = false;  // a reschedule IPI sent to this core while idle
    bool m_from_idle = false;    // the core has been idle since its last task  // hardirq time per context that followed it (tick accounting's view)
    void set_current(task* t);  // the scheduler's current task changes (closes the previous one's run time)
    tick_t run_ahead_ps() const;  // how far the core's own time is past SystemC time (0 if not)
    tick_t m_current_since = 0;
    bool m_ctx_log_on = false;
    std::deque<std::pair<tick_t, ctx>> m_ctx_log;  // (core time, context entered), oldest first
    ctx m_ctx_at = ctx::idle;                      // context at the last context_at time
    bool m_irq_level = false, m_in_irq = false;
    bool m_in_softirq = false;  // inside do_softirq (__do_softirq), not only in a softirq-mode task
    uint32_t m_softirq_pending = 0;
    std::function<void()> m_softirq_handlers[NR_SOFTIRQS];
    tick_t m_next_tick = NEVER;  // when the next tick is due (NEVER: stopped or off)
    tick_t m_next_bg = NEVER;    // when the next background interrupt is due
    tick_t m_bg_due = NEVER;     // the earlier of the two
    uint64_t m_tick_seq = 0;     // ticks taken since time 0 (RCU_SOFTIRQ every rcu_softirq_interval-th)
    std::function<void()> m_irq_handler;
    std::function<void()> m_boot;
    std::vector<task*> m_tasks;
    size_t m_rr = 0;
    task* m_running = nullptr;
    tick_t m_slice_start = 0;
    ksoftirqd_task m_ksoftirqd;
    sc_core::sc_event m_wake;
    // Every wake-up requested and not yet seen by the idle loop (absolute
    // SystemC time, ps). sc_event keeps only its earliest pending
    // notification and fires whether or not the core waits on it, so the idle
    // loop needs these: one that fired while the core was on its way to idle
    // (synchronising) must not be slept through, and a later one the event
    // discarded is notified again after the earlier one woke the core.
    std::vector<tick_t> m_wakes;
    bool m_idle_waiting = false;  // in the idle loop's wait for m_wake
    tick_t m_last_due = NEVER;  // the latest wake-up that has come due
    tick_t settle_wakes();
    void post_wake(tick_t at_ps);
    bool wake_fired_since(tick_t look_ps);
    void renotify_wakes();
    // Guard: a core that goes to wait in idle with its interrupt line
    // asserted must be woken within the interrupt latency; one that is not
    // is a lost wake-up in this model, logged as an error (and the core woken).
    sc_core::sc_event m_irq_watch;
    tick_t m_irq_raised_ps = 0;
    void irq_watch();
    tick_t m_acct_mark = 0;  // time up to which accounting is closed
    cpu_stats m_stats{};
    code_trace m_trace;
    tick_t m_work_start = NO_WORK;  // start of the running unit of work (NO_WORK: in the scheduler)
    std::function<void(core&, tick_t)> m_lockup;
    static core* s_current;
    static tick_t s_run_until;
};

} // namespace models::cpu
