// sim/results/progress.h: the one-line progress display of `fecsim run`.
//
// A SystemC thread that wakes at simulated-time steps, looks at the wall
// clock and redraws "sim 3.2 ms / 11 ms (29 %)  warm-up  0.41x real time
// ETA 20 s" about twice a second. The step adapts so that the thread runs
// roughly every 50 ms of wall time whatever the simulation speed, which keeps
// its cost negligible on an idle system as on a busy one. It only reads the
// clocks: models never see it, and results do not depend on it (tested).
// On a terminal the line is redrawn in place; otherwise a line is printed
// every few seconds (fecsim only enables it there with --progress).
#pragma once
#include <chrono>
#include <cstdio>
#include <functional>
#include <systemc>
#include "common/time.h"

namespace sim {

class progress : public sc_core::sc_module {
public:
    // Optional counters shown when present (e.g. frames delivered); null = not shown.
    using counter_fn = std::function<bool(uint64_t* value, const char** label)>;

    SC_HAS_PROCESS(progress);

    progress(sc_core::sc_module_name nm, models::tick_t warmup_ps, models::tick_t duration_ps, FILE* out, bool tty,
             counter_fn frames = nullptr);
    // Erase the line (tty) once the run is over.
    void finish();

private:
    void thread();
    void draw(bool final);

    const models::tick_t m_warmup, m_total;
    FILE* const m_out;
    const bool m_tty;
    counter_fn m_frames;
    std::chrono::steady_clock::time_point m_start, m_last_draw, m_last_wake;
    bool m_drawn = false;
};

} // namespace sim
