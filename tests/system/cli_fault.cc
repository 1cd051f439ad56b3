// Driver faults as a user meets them: a driver that crashes or loops stops
// the run within seconds, names its function and line, exits 3 and leaves a
// complete run directory whose stats.json is marked incomplete.
#include "tests/lib.h"
#include <chrono>
#include "tests/system/cli.h"

namespace {

std::string g_tmp;
void setup() { g_tmp = tmp_dir(); }
void teardown() { rm_rf(g_tmp); }

// Runs the default scenario with a fault fixture; checks the exit status,
// the wall time, the message and the results; returns stderr.
std::string run_fault(const char* fixture, const char* kind, const char* where)
{
    const auto t0 = std::chrono::steady_clock::now();
    const proc_result r = fecsim({"run", "--patch", fecsim_srcdir() + "/tests/fixtures/" + fixture, "-o",
                                  "scenario.duration=400ms", "-q", "--out", g_tmp + "/res"});
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ck_assert_msg(r.status == 3, "%s: exit %d: %s", fixture, r.status, r.err.c_str());
    ck_assert_msg(wall < 10, "%s: took %.1f s", fixture, wall);
    const std::string head = std::string("fecsim run: driver fault: ") + kind;
    ck_assert_msg(r.err.find(head) != std::string::npos, "%s: no '%s' in: %s", fixture, head.c_str(), r.err.c_str());
    ck_assert_msg(r.err.find(std::string(" in ") + where + " (fec_main.c:") != std::string::npos,
                  "%s: not located at %s: %s", fixture, where, r.err.c_str());
    // The run directory is complete (not a hidden temporary one).
    const std::string dir = only_subdir(only_subdir(g_tmp + "/res"));
    for (const char* f : {"summary.json", "stats.json", "stats.txt", "sim.log", "scenario.resolved.ini"})
        ck_assert_msg(exists(dir + "/" + f), "%s: no %s", fixture, f);
    ck_assert(read_text(dir + "/stats.json").find("\"incomplete\" : true") != std::string::npos);
    const std::string sum = read_text(dir + "/summary.json");
    ck_assert_msg(sum.find(std::string("\"where\" : \"") + where + " (fec_main.c:") != std::string::npos, "%s",
                  sum.c_str());
    ck_assert(read_text(dir + "/sim.log").find("driver fault") != std::string::npos);
    ck_assert_msg(entries(g_tmp + "/res/default", true).size() == 1, "a temporary directory was left behind");
    return r.err;
}

} // namespace

START_TEST(test_null_read_in_rx_path)
{
    const std::string err = run_fault("fault-null-read-rx.patch", "SIGSEGV", "fec_enet_rx_queue");
    ck_assert_msg(err.find("called from fec_enet_rx_napi") != std::string::npos, "no call chain: %s", err.c_str());
}
END_TEST

START_TEST(test_null_write_in_hardirq)
{
    run_fault("fault-null-write-irq.patch", "SIGSEGV", "fec_enet_interrupt");
}
END_TEST

START_TEST(test_endless_napi_poll)
{
    run_fault("fault-napi-loop.patch", "soft lockup", "fec_enet_rx_napi");
}
END_TEST

START_TEST(test_endless_napi_poll_with_lock_held)
{
    run_fault("fault-napi-loop-locked.patch", "soft lockup", "fec_enet_rx_napi");
}
END_TEST

// The watchdog is configuration: with it off the same loop (stuck for about
// 440 ms of this 450-ms run, past the default 200 ms) runs to the end and the
// run completes; with a shorter timeout it fires earlier.
START_TEST(test_lockup_timeout_is_a_key)
{
    const std::string fixture = fecsim_srcdir() + "/tests/fixtures/fault-napi-loop.patch";
    proc_result r = fecsim({"run", "--patch", fixture, "-o", "scenario.duration=400ms", "-o",
                            "kernel.lockup_timeout=0s", "-q", "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    r = fecsim({"run", "--patch", fixture, "-o", "scenario.duration=400ms", "-o", "kernel.lockup_timeout=20ms", "-q",
                "--out", g_tmp + "/res2"});
    ck_assert_msg(r.status == 3, "exit %d: %s", r.status, r.err.c_str());
    ck_assert_msg(r.err.find("stuck for 20.") != std::string::npos, "%s", r.err.c_str());
}
END_TEST

// The wall-clock watchdog: with the soft-lockup watchdog off, the loop with
// a spinlock held never lets simulated time advance; after --watchdog 2 s
// without progress the run stops with the driver's function.
START_TEST(test_wall_clock_watchdog)
{
    const std::string fixture = fecsim_srcdir() + "/tests/fixtures/fault-napi-loop-locked.patch";
    const auto t0 = std::chrono::steady_clock::now();
    const proc_result r = fecsim({"run", "--patch", fixture, "-o", "scenario.duration=400ms", "-o",
                                  "kernel.lockup_timeout=0s", "--watchdog", "2", "-q", "--out", g_tmp + "/res"});
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ck_assert_msg(r.status == 3, "exit %d: %s", r.status, r.err.c_str());
    ck_assert_msg(wall >= 2 && wall < 10, "took %.1f s", wall);
    ck_assert_msg(r.err.find("driver fault: no progress: simulated time stood still for 2 s of wall time in "
                             "fec_enet_rx_napi (fec_main.c:") != std::string::npos,
                  "%s", r.err.c_str());
    const std::string dir = only_subdir(only_subdir(g_tmp + "/res"));
    ck_assert(read_text(dir + "/stats.json").find("\"incomplete\" : true") != std::string::npos);
}
END_TEST

// --strict-memory: exit 1 on a memory error (an skb leak), not on a DMA
// coherence violation alone (a missing sync), which --strict-coherence takes.
START_TEST(test_strict_memory)
{
    const std::string fx = fecsim_srcdir() + "/tests/fixtures/";
    proc_result r = fecsim({"run", "--patch", fx + "skb-leak.patch", "-o", "scenario.duration=100ms", "-q",
                            "--strict-memory", "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 1, "exit %d: %s", r.status, r.err.c_str());
    ck_assert_msg(r.err.find("--strict-memory: ") != std::string::npos && r.err.find(" memory error") != std::string::npos,
                  "%s", r.err.c_str());
    r = fecsim({"run", "--patch", fx + "no-sync.patch", "-o", "scenario.duration=100ms", "-q", "--strict-memory",
                "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
}
END_TEST

Suite* suite_cli_fault(void)
{
    Suite* s = suite_create("cli_fault");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_null_read_in_rx_path);
    tcase_add_test(tc, test_null_write_in_hardirq);
    tcase_add_test(tc, test_endless_napi_poll);
    tcase_add_test(tc, test_endless_napi_poll_with_lock_held);
    tcase_add_test(tc, test_lockup_timeout_is_a_key);
    tcase_add_test(tc, test_wall_clock_watchdog);
    tcase_add_test(tc, test_strict_memory);
    suite_add_tcase(s, tc);
    return s;
}
