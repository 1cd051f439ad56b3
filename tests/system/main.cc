// Tier (c): the driver in the loop, and the fecsim program end to end
// (tests spawn sim/fecsim: FECSIM, set by tests/local.mk).
#include "tests/lib.h"

int main()
{
    static Suite* (*const suites[])(void) = {suite_driver,    suite_timing,   suite_coherence,  suite_cli_run,
                                             suite_cli_sweep, suite_cli_help, suite_cli_regress, suite_cli_fault,
                                             suite_cli_trace, suite_cli_tree, suite_cli_traffic,
                                             suite_cli_tree_tx, suite_cli_tree_rx, suite_profiles,
                                             suite_tcp_ping,  suite_smp_store};
    return tests_run(suites, sizeof suites / sizeof suites[0]);
}
