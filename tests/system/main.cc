// Tier (c): the fecsim program end to end (and, as it arrives, the driver in
// the loop). Tests spawn sim/fecsim (FECSIM, set by tests/local.mk).
#include "tests/lib.h"

int main()
{
    static Suite* (*const suites[])(void) = {suite_cli_run, suite_cli_sweep, suite_cli_help};
    return tests_run(suites, sizeof suites / sizeof suites[0]);
}
