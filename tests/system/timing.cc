// Temporal decoupling and determinism of whole runs.
#include "tests/lib.h"
#include "tests/system/sys.h"
#include <cstdio>
#include <map>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace models;

// Runs the configuration in a child process (one SystemC simulation per
// process) and returns every statistic plus the summary's loss.
static std::map<std::string, uint64_t> run_in_child(const sim::soc_config& c)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        FILE* f = fdopen(fd[1], "w");
        sim::soc s(c);
        const sim::run_summary r = s.run();
        s.visit_stats([&](const std::string& n, uint64_t v, const char*, const char*) {
            std::fprintf(f, "%s %llu\n", n.c_str(), (unsigned long long)v);
        });
        std::fprintf(f, "summary.delivered %llu\nsummary.offered %llu\n", (unsigned long long)r.frames_delivered,
                     (unsigned long long)r.frames_offered);
        std::fclose(f);
        _exit(0);
    }
    close(fd[1]);
    std::map<std::string, uint64_t> out;
    FILE* f = fdopen(fd[0], "r");
    char name[256];
    unsigned long long v;
    while (std::fscanf(f, "%255s %llu", name, &v) == 2)
        out[name] = v;
    std::fclose(f);
    int st;
    waitpid(pid, &st, 0);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child run failed");
    return out;
}

START_TEST(test_same_seed_identical_stats)
{
    sim::soc_config c = sys_config(46300, 15);
    c.stress.enabled = true;
    auto a = run_in_child(c), b = run_in_child(c);
    ck_assert_uint_gt(a.size(), 100);
    ck_assert_uint_eq(a.size(), b.size());
    for (const auto& [k, v] : a)
        ck_assert_msg(b[k] == v, "%s differs: %llu vs %llu", k.c_str(), (unsigned long long)v, (unsigned long long)b[k]);
    c.scenario.seed = 2;
    auto d = run_in_child(c);
    bool differs = false;
    for (const auto& [k, v] : a)
        differs |= d[k] != v;
    ck_assert_msg(differs, "another seed gave identical statistics");
}
END_TEST

// Results must not depend on the quantum beyond a tolerance: the default
// quantum (1 us) against 1 ns (about one core cycle).
START_TEST(test_quantum_independence)
{
    sim::soc_config c = sys_config(46300, 15);
    auto coarse = run_in_child(c);
    c.scenario.quantum_ps = 1000;
    auto fine = run_in_child(c);
    const double o = (double)coarse["summary.offered"];
    const double dc = (double)coarse["summary.delivered"], df = (double)fine["summary.delivered"];
    ck_assert_uint_eq(coarse["summary.offered"], fine["summary.offered"]);
    ck_assert_msg(o > 600, "offered %.0f", o);
    // Tolerance: 1 % of the offered frames (documented in docs/design.md).
    ck_assert_msg(std::abs(dc - df) <= 0.01 * o, "delivered %.0f at 1 us vs %.0f at 1 ns of %.0f", dc, df, o);
    const double mc = (double)coarse["enet.rx_fifo_drops"], mf = (double)fine["enet.rx_fifo_drops"];
    ck_assert_msg(std::abs(mc - mf) <= 0.01 * o, "MAC drops %.0f vs %.0f", mc, mf);
}
END_TEST

Suite* suite_timing(void)
{
    Suite* s = suite_create("timing");
    TCase* tc = tests_tcase("quantum_and_determinism", 240);
    tcase_add_test(tc, test_same_seed_identical_stats);
    tcase_add_test(tc, test_quantum_independence);
    suite_add_tcase(s, tc);
    return s;
}
