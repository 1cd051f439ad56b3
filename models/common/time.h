// models/common/time.h: simulated time as integer picoseconds, and clock domains.
//
// Contract: tick_t is the SystemC time value at a resolution of 1 ps
// (sc_time::value() when sc_get_time_resolution() == 1 ps, which elaboration
// asserts). Models keep latencies as integer cycles of their own clock and
// convert with clock_domain, never with ad-hoc floating point.
#pragma once
#include <cstdint>
#include <systemc>
#include "common/ticks.h"

namespace models {

// sc_time_stamp() read inline (the library's own function is out of line).
inline tick_t now_ps() { return sc_core::sc_get_curr_simcontext()->time_stamp().value(); }
inline tick_t to_ps(const sc_core::sc_time& t) { return t.value(); }
inline sc_core::sc_time from_ps(tick_t ps) { return sc_core::sc_time::from_value(ps); }

// Called once at elaboration by every top level (sim, tests, benches).
void time_setup();

} // namespace models
