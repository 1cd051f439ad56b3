// drivers/khost/hog_task.h: a `stress -m` worker on a core that also runs network work
// (the RX interrupt core, the application's or the sender's core). Its
// program (drivers/khost/stress.h) runs as a task of that core, one page
// fault, read-back or free per step, time-shared with ksoftirqd or the
// application by the core's scheduler. Its accesses go to the PL310 at the
// core's time (full-line stores without L1 allocation, like the stressor's
// own workers); its time is accounted as %sys (faults, zeroing, munmap) or
// %usr (read-back) and in the cost category CAT_OTHER, outside the network
// path's cycles per frame.
#pragma once
#include "cache/pl310.h"
#include "cpu/core.h"
#include "mem/mem_ext.h"
#include "drivers/khost/stress.h"

namespace khost {

class hog_task : public models::cpu::task {
public:
    // start: absolute time the worker starts (stress.start).
    hog_task(hog_program& prog, models::cache::pl310& l2, models::cpu::core& c, models::tick_t start);
    const char* name() const override { return "stress"; }
    bool runnable() const override { return m_core.now() >= m_start; }
    void step(models::cpu::core& c) override;

private:
    hog_program& m_prog;
    models::cache::pl310& m_l2;
    models::cpu::core& m_core;
    const models::tick_t m_start;
    models::mem::mem_txn m_tx;
    hog_program::mem_fn m_mem;
};

} // namespace khost
