// tests/lib.h: shared helpers and the suite list of every tier.
#pragma once
#include <check.h>
#undef fail  // Check's deprecated macro collides with std::ios::fail()
#include <cstdint>

// Timeouts (seconds) per test case: model tests elaborate and may run
// simulated time, so Check's 4 s default is too short on a loaded machine.
#define TEST_TIMEOUT_UNIT 30
#define TEST_TIMEOUT_MODEL 60

// Run the suites and return the process exit status (0 = all passed).
int tests_run(Suite* (*const suites[])(void), int n);
// Make a TCase with the given timeout.
TCase* tests_tcase(const char* name, int timeout_s);

// tier: unit
Suite* suite_timeline(void);
Suite* suite_params(void);
Suite* suite_cache_array(void);
// tier: models
Suite* suite_dram(void);
Suite* suite_cache(void);
Suite* suite_enet_regs(void);
Suite* suite_enet_rx(void);
Suite* suite_enet_tx(void);
Suite* suite_traffic(void);
// tier: system
Suite* suite_driver(void);
Suite* suite_timing(void);
Suite* suite_coherence(void);
