// tests/lib.h: shared helpers and the suite list of every tier.
#pragma once
#include <check.h>
#undef fail  // Check's deprecated macro collides with std::ios::fail()
#include <cstdint>
#include <string>

// String equality that is safe with temporaries (Check's ck_assert_str_eq
// keeps the pointers past the end of the full expression).
#define CK_STR_EQ(a, b)                                                                                 \
    do {                                                                                                \
        const std::string ck_a_ = (a), ck_b_ = (b);                                                     \
        ck_assert_msg(ck_a_ == ck_b_, "'%s' != '%s'", ck_a_.c_str(), ck_b_.c_str());                     \
    } while (0)

// Timeouts (seconds) per test case: model tests elaborate and may run
// simulated time, so Check's 4 s default is too short on a loaded machine.
#define TEST_TIMEOUT_UNIT 30
#define TEST_TIMEOUT_MODEL 60
// System tests run the fecsim program (several processes per test).
#define TEST_TIMEOUT_SYSTEM 120

// Run the suites and return the process exit status (0 = all passed).
int tests_run(Suite* (*const suites[])(void), int n);
// Make a TCase with the given timeout.
TCase* tests_tcase(const char* name, int timeout_s);

// tier: unit
Suite* suite_timeline(void);
Suite* suite_rr_port(void);
Suite* suite_params(void);
Suite* suite_cache_array(void);
Suite* suite_units(void);
Suite* suite_loader(void);
Suite* suite_regress(void);
Suite* suite_summary(void);
Suite* suite_tcp(void);
Suite* suite_qdisc(void);
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
Suite* suite_cli_run(void);
Suite* suite_cli_fault(void);
Suite* suite_cli_trace(void);
Suite* suite_cli_tree(void);
Suite* suite_cli_tree_rx(void);
Suite* suite_cli_traffic(void);
Suite* suite_cli_tree_tx(void);
Suite* suite_cli_sweep(void);
Suite* suite_cli_help(void);
Suite* suite_cli_regress(void);
Suite* suite_profiles(void);
Suite* suite_tcp_ping(void);
Suite* suite_smp_store(void);
// tier: golden
Suite* suite_golden(void);
