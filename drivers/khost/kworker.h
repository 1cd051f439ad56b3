// drivers/khost/kworker.h: the kernel worker of a kernel tree's driver.
//
// The shim's 6.x level keeps its own timers and work queues on simulated
// time (drivers/shim/v6/time.c); this task runs them: in process context on
// the RX interrupt core, time-shared with the core's other tasks, as soon as
// the core's time reaches the earliest expiry the shim asked for
// (simhost_kworker_at). One per run; only a tree driver's run has one.
// Its own timer thread wakes the core at that time (the core's wake event
// is shared with every other waker, so a later ask could be lost there).
#pragma once
#include <cstdint>
#include <systemc>
#include "cpu/core.h"

namespace khost {

class kworker_task : public models::cpu::task {
public:
    explicit kworker_task(models::cpu::core& c);
    ~kworker_task() override;
    const char* name() const override { return "kworker"; }
    bool runnable() const override;
    void step(models::cpu::core& c) override;

    static kworker_task* instance() { return s_instance; }
    void set_runner(void (*fn)(void)) { m_fn = fn; }
    // Run the runner at simulated time at_ns or later (the earliest of all asks).
    void run_at(uint64_t at_ns);
    uint64_t runs() const { return m_runs; }  // runner calls

private:
    void timer_thread();  // wakes the core when the earliest ask is due

    models::cpu::core& m_core;
    sc_core::sc_event m_timer;
    void (*m_fn)(void) = nullptr;
    uint64_t m_at_ps = UINT64_MAX;
    uint64_t m_runs = 0;
    static kworker_task* s_instance;
};

} // namespace khost
