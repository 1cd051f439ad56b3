// Tier (b): per-model benches against the real memory path.
#include "tests/lib.h"

int main()
{
    static Suite* (*const suites[])(void) = {suite_dram,      suite_cache,  suite_enet_regs,
                                             suite_enet_rx,   suite_enet_tx, suite_traffic};
    return tests_run(suites, sizeof suites / sizeof suites[0]);
}
