// models/common/time.h: simulated time as integer picoseconds, and clock domains.
//
// Contract: tick_t is the SystemC time value at a resolution of 1 ps
// (sc_time::value() when sc_get_time_resolution() == 1 ps, which elaboration
// asserts). Models keep latencies as integer cycles of their own clock and
// convert with clock_domain, never with ad-hoc floating point.
#pragma once
#include <cstdint>
#include <systemc>

namespace models {

using tick_t = uint64_t;  // picoseconds

constexpr tick_t PS_PER_NS = 1000;
constexpr tick_t PS_PER_US = 1000 * PS_PER_NS;
constexpr tick_t PS_PER_S = 1000000 * PS_PER_US;

struct clock_domain {
    tick_t period_ps = 1000;  // one cycle, ps (rounded to the nearest ps)

    clock_domain() = default;
    explicit clock_domain(double hz) : period_ps(hz > 0 ? (tick_t)(1e12 / hz + 0.5) : 1) {}
    tick_t cycles(uint64_t n) const { return n * period_ps; }
    // First clock edge at or after t.
    tick_t ceil_edge(tick_t t) const { return (t + period_ps - 1) / period_ps * period_ps; }
    uint64_t to_cycles(tick_t t) const { return t / period_ps; }
};

inline tick_t now_ps() { return sc_core::sc_time_stamp().value(); }
inline tick_t to_ps(const sc_core::sc_time& t) { return t.value(); }
inline sc_core::sc_time from_ps(tick_t ps) { return sc_core::sc_time::from_value(ps); }

// Called once at elaboration by every top level (sim, tests, benches).
void time_setup();

} // namespace models
