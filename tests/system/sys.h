// tests/system/sys.h: helpers of the driver-in-the-loop tier.
#pragma once
#include "sim/soc.h"

// The i.MX6Q defaults with 242-B UDP payload... frames at `fps` for `ms`
// milliseconds of measurement after 2 ms of warm-up (the driver opens at 0).
sim::soc_config sys_config(double fps, double ms);
// Absolute path of a file under tests/fixtures.
std::string sys_fixture(const char* name);
// Value of a named counter from soc::visit_stats (aborts the test if absent).
uint64_t sys_stat(sim::soc& s, const std::string& name);
