#include "tests/lib.h"
#include <cstdlib>

TCase* tests_tcase(const char* name, int timeout_s)
{
    TCase* tc = tcase_create(name);
    tcase_set_timeout(tc, timeout_s);
    return tc;
}

int tests_run(Suite* (*const suites[])(void), int n)
{
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    SRunner* sr = srunner_create(suites[0]());
    for (int i = 1; i < n; i++)
        srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

// Under AddressSanitizer (make check-sanitize): no leak check of the runners
// themselves. Check's forked children exit with the runner still allocated,
// and a SystemC kernel cannot be torn down. The fecsim processes the system
// tier spawns keep the check (ASAN_OPTIONS there does not name it).
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }

// libsystemc's own main() refers to sc_main; our runners have their own main
// and elaborate inside each (forked) test, so this is never reached.
extern "C" int sc_main(int, char**) { return EXIT_FAILURE; }
