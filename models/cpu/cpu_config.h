// models/cpu/cpu_config.h: configuration of the CPU cores ([cpu] group) and
// the scheduling policy they carry out.
#pragma once
#include <cstdint>
#include "common/params.h"

namespace models::cpu {

// The Linux policy a core carries out: __do_softirq's limits and the
// hand-over to ksoftirqd, the task slice, and the cost of the scheduler's
// paths. Not [cpu] keys: they belong to the kernel ([kernel],
// drivers/khost/kernel_params.def) and elaboration (sim/soc.cc) copies them
// here. The defaults equal that table's (Linux v5.4; tests/unit checks it).
struct sched_policy {
    uint32_t softirq_max_restart = 10;           // rounds before ksoftirqd takes over (MAX_SOFTIRQ_RESTART)
    uint64_t softirq_max_time_ps = 2000000000;   // ps of softirq work before the same (MAX_SOFTIRQ_TIME)
    bool ksoftirqd_defers = true;                // irq_exit leaves softirqs to a runnable ksoftirqd
    uint64_t sched_slice_ps = 3000000000;        // ps a task runs before the next runnable task
    uint32_t ctx_switch_cycles = 3000;           // core cycles per switch between tasks
    uint32_t wakeup_cycles = 2000;               // core cycles from a cross-core wake-up until the task runs
    uint64_t lockup_ps = 200000000000;           // ps one unit of work may run before the soft-lockup watchdog fires (0: off)
    bool irq_time_accounting = false;            // CONFIG_IRQ_TIME_ACCOUNTING: /proc/stat irq and softirq time measured
    uint32_t ipi_cycles = 0;                     // reschedule IPI on an idle core woken from another (hardirq)
    uint32_t idle_exit_cycles = 0;               // idle loop exit and switch from the idle task to a task
    uint32_t block_cycles = 0;                   // a task blocking with nothing else runnable: switch to idle
    // Background activity (kernel.background): the scheduler tick on a
    // non-idle core and the softirqs it raises, and a periodic device
    // interrupt. tick_hz 0: no tick; bg_irq_hz 0: no background interrupt.
    uint32_t tick_hz = 0;                        // CONFIG_HZ when the tick runs
    uint32_t tick_cycles = 4000;                 // local timer hardirq handler (tick_sched_timer)
    uint32_t timer_softirq_cycles = 1000;        // run_timer_softirq, raised by every tick
    uint32_t rcu_softirq_interval = 4;           // ticks per RCU_SOFTIRQ raised (0: never)
    uint32_t rcu_softirq_cycles = 2000;          // rcu_core
    uint32_t bg_irq_hz = 0;                      // periodic background interrupt on bg_irq_core
    uint32_t bg_irq_cycles = 2000;               // its handler
    uint32_t bg_irq_core = 0;
};

struct cpu_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "cpu/cpu_params.def"
#undef P
    sched_policy sched;  // set by elaboration from [kernel]
};
extern const param_table cpu_param_table;

} // namespace models::cpu
