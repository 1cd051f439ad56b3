// Tier (a): pure logic, no SystemC simulation.
#include "tests/lib.h"

int main()
{
    static Suite* (*const suites[])(void) = {suite_timeline, suite_rr_port, suite_params,  suite_cache_array,
                                                suite_units,    suite_loader,  suite_regress, suite_summary,
                                                suite_tcp, suite_qdisc};
    return tests_run(suites, sizeof suites / sizeof suites[0]);
}
