// Tier (c): driver in the loop.
#include "tests/lib.h"

int main()
{
    static Suite* (*const suites[])(void) = {suite_driver, suite_timing, suite_coherence};
    return tests_run(suites, sizeof suites / sizeof suites[0]);
}
