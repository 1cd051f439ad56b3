// fecsim sweep, collect and plot: resuming without redoing or losing points
// (also after kill -9), the GNU parallel and Slurm paths, the plots.
#include "tests/lib.h"
#include <algorithm>
#include <csignal>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/system/cli.h"

namespace {

std::string g_tmp;
void setup() { g_tmp = tmp_dir(); }
void teardown() { rm_rf(g_tmp); }

std::string scenario(const char* name) { return fecsim_srcdir() + "/scenarios/" + name; }

std::string trim_nl(const std::string& s) { return s.substr(0, s.find('\n')); }

size_t csv_rows(const std::string& path)
{
    const std::string t = read_text(path);
    size_t n = 0;
    for (char c : t)
        n += c == '\n';
    return n ? n - 1 : 0;
}

std::string run_id(const std::string& point_dir)
{
    const std::string s = read_text(point_dir + "/summary.json");
    const size_t a = s.find("\"run_id\" : \"");
    ck_assert_msg(a != std::string::npos, "%s has no run_id", point_dir.c_str());
    return s.substr(a + 12, s.find('"', a + 12) - a - 12);
}

std::vector<std::string> point_dirs(const std::string& sweep)
{
    std::vector<std::string> v;
    for (const auto& e : entries(sweep))
        if (e.size() > 1 && e[0] == 'p' && g_ascii_isdigit(e[1]) && exists(sweep + "/" + e + "/scenario.resolved.ini"))
            v.push_back(e);
    return v;
}

} // namespace

// Re-running a sweep runs only the missing points and keeps the others.
START_TEST(test_sweep_resumes)
{
    const std::vector<std::string> cmd = {"sweep",    scenario("imx6q/copybreak-stock-idle.ini"),
                                          "--vary",   "l2.size=256KiB,512KiB",
                                          "--vary",   "scenario.seed=1..2",
                                          "-j",       "2",
                                          "--out",    g_tmp,
                                          "--no-plot"};
    proc_result a = fecsim(cmd);
    ck_assert_msg(a.status == 0, "%s", a.err.c_str());
    const std::string dir = trim_nl(a.out);
    ck_assert_msg(a.err.find("4 points, 0 already finished, 4 to run") != std::string::npos, "%s", a.err.c_str());
    auto pts = point_dirs(dir);
    ck_assert_uint_eq(pts.size(), 4);
    ck_assert_uint_eq(csv_rows(dir + "/sweep.csv"), 4);
    std::map<std::string, std::string> ids;
    for (const auto& p : pts)
        ids[p] = run_id(dir + "/" + p);
    // Lose two points; the same command runs exactly those two.
    rm_rf(dir + "/" + pts[1]);
    rm_rf(dir + "/" + pts[2]);
    proc_result b = fecsim(cmd);
    ck_assert_msg(b.status == 0, "%s", b.err.c_str());
    ck_assert_msg(b.err.find("4 points, 2 already finished, 2 to run") != std::string::npos, "%s", b.err.c_str());
    ck_assert_msg(b.err.find("2 already finished, 2 run now, 0 failed") != std::string::npos, "%s", b.err.c_str());
    CK_STR_EQ(trim_nl(b.out), dir);
    ck_assert_uint_eq(point_dirs(dir).size(), 4);
    CK_STR_EQ(run_id(dir + "/" + pts[0]), ids[pts[0]]);  // untouched
    CK_STR_EQ(run_id(dir + "/" + pts[3]), ids[pts[3]]);
    ck_assert(run_id(dir + "/" + pts[1]) != ids[pts[1]]);  // rerun
    // A third time: nothing to do.
    proc_result c = fecsim(cmd);
    ck_assert_msg(c.err.find("4 already finished, 0 run now") != std::string::npos, "%s", c.err.c_str());
    ck_assert_uint_eq(csv_rows(dir + "/sweep.csv"), 4);
    // Another sweep of other values in the same place is refused.
    proc_result d = fecsim({"sweep", scenario("imx6q/copybreak-stock-idle.ini"), "--vary", "l2.size=256KiB", "--out",
                            g_tmp, "--name", dir.substr(dir.rfind("sweep-") + 6)});
    ck_assert_int_eq(d.status, 2);
    ck_assert(d.err.find("holds a different sweep") != std::string::npos);
}
END_TEST

// kill -9 of the whole sweep (parent and running points), then resume.
START_TEST(test_sweep_resumes_after_kill9)
{
    const std::vector<std::string> cmd = {"sweep",    scenario("imx6q/copybreak-stock-stress.ini"),
                                          "--vary",   "scenario.seed=1..3",
                                          "-o",       "scenario.duration=300ms",
                                          "-j",       "1",
                                          "--name",   "k",
                                          "--out",    g_tmp,
                                          "--no-plot"};
    const std::string dir = g_tmp + "/imx6q-copybreak-stock-stress/sweep-k";
    const pid_t pid = fecsim_start(cmd);
    for (int i = 0; i < 6000 && point_dirs(dir).empty(); i++)  // up to 60 s (sanitizer builds are slow)
        g_usleep(10000);
    ck_assert_msg(!point_dirs(dir).empty(), "no point finished");
    g_usleep(200000);  // the next point is running now
    kill(-pid, SIGKILL);
    wait_exit(pid);
    g_usleep(100000);
    const size_t before = point_dirs(dir).size();
    ck_assert_uint_lt(before, 3);
    for (const auto& p : entries(dir))  // visible point directories are complete
        if (p.size() > 1 && p[0] == 'p' && g_ascii_isdigit(p[1]))
            ck_assert_msg(exists(dir + "/" + p + "/summary.json"), "%s is incomplete", p.c_str());
    proc_result r = fecsim(cmd);
    ck_assert_msg(r.status == 0, "%s", r.err.c_str());
    std::ostringstream want;
    want << "3 points: " << before << " already finished, " << 3 - before << " run now, 0 failed";
    ck_assert_msg(r.err.find(want.str()) != std::string::npos, "expected '%s' in\n%s", want.str().c_str(),
                  r.err.c_str());
    ck_assert_uint_eq(point_dirs(dir).size(), 3);
    ck_assert_uint_eq(csv_rows(dir + "/sweep.csv"), 3);
    for (const auto& e : entries(dir, true))  // the killed point's temporary directory is gone
        ck_assert_msg(e.rfind(".tmp-", 0) != 0, "left over: %s", e.c_str());
}
END_TEST

// --emit-jobs, then GNU parallel for real, then collect; and the Slurm script's body.
START_TEST(test_parallel_and_collect)
{
    proc_result a = fecsim({"sweep", scenario("imx6q/copybreak-stock-idle.ini"), "--vary", "l2.size=256KiB,512KiB,1MiB",
                            "--name", "jobs", "--emit-jobs", "--out", g_tmp});
    ck_assert_msg(a.status == 0, "%s", a.err.c_str());
    const std::string dir = trim_nl(a.out);
    ck_assert(point_dirs(dir).empty());  // nothing was run
    const std::string jobs = read_text(dir + "/jobs.txt");
    ck_assert_uint_eq(std::count(jobs.begin(), jobs.end(), '\n'), 3);
    proc_result c0 = fecsim({"collect", dir});
    ck_assert_int_eq(c0.status, 1);  // points without a result, none failed
    ck_assert_msg(c0.err.find("0 of 3 points finished; 0 failed, 0 running, 3 without a result yet") != std::string::npos,
                  "%s", c0.err.c_str());
    proc_result par = shell("parallel --will-cite -j2 < " + dir + "/jobs.txt");
    ck_assert_msg(par.status == 0, "parallel: %d %s", par.status, par.err.c_str());
    proc_result c = fecsim({"collect", dir});
    ck_assert_msg(c.status == 0, "%s", c.err.c_str());
    ck_assert_msg(c.err.find("3 of 3 points finished") != std::string::npos, "%s", c.err.c_str());
    ck_assert_uint_eq(csv_rows(dir + "/sweep.csv"), 3);
    const std::string sj = read_text(dir + "/sweep.json");
    ck_assert(sj.find("\"complete\" : true") != std::string::npos);
    ck_assert(sj.find("\"loss_pct\"") != std::string::npos);
    ck_assert(exists(dir + "/plots/loss.png"));
    // Slurm: task 1 of the array job with offset 0 runs point 1 (line 2 of jobs.txt)
    // into its log; collect then sees it failed once its result is removed.
    const auto pts = point_dirs(dir);
    rm_rf(dir + "/" + pts[1]);
    proc_result c1 = fecsim({"collect", dir, "--no-plot"});
    ck_assert_int_eq(c1.status, 1);
    proc_result sb = shell("SLURM_ARRAY_TASK_ID=1 sh " + dir + "/sweep.sbatch 0");
    ck_assert_msg(sb.status == 0, "%s", sb.err.c_str());
    ck_assert_msg(sb.err.find("point " + pts[1] + ": finished after") != std::string::npos, "%s", sb.err.c_str());
    ck_assert(exists(dir + "/" + pts[1] + "/summary.json"));
    ck_assert(read_text(dir + "/logs/" + pts[1] + ".log").find("== exit status 0") != std::string::npos);
    ck_assert(read_text(dir + "/submit.sh").find("submit '0-2' ") != std::string::npos);
    // An index past the sweep's points fails, saying so.
    proc_result oor = shell("SLURM_ARRAY_TASK_ID=3 sh " + dir + "/sweep.sbatch 0");
    ck_assert_int_eq(oor.status, 2);
    ck_assert_msg(oor.err.find("out of range (the sweep has points 0..2") != std::string::npos, "%s", oor.err.c_str());
    // A point with a log of its run and no result is "failed", with its log.
    rm_rf(dir + "/" + pts[1]);
    proc_result c2 = fecsim({"collect", dir, "--no-plot"});
    ck_assert_int_eq(c2.status, 3);
    ck_assert_msg(c2.err.find("failed: " + pts[1] + " (exit status 0)") != std::string::npos &&
                      c2.err.find("log " + dir + "/logs/" + pts[1] + ".log") != std::string::npos,
                  "%s", c2.err.c_str());
    // --missing: an array of only that point.
    proc_result m = fecsim({"sweep", scenario("imx6q/copybreak-stock-idle.ini"), "--vary", "l2.size=256KiB,512KiB,1MiB",
                            "--name", "jobs", "--emit-jobs", "--missing", "--out", g_tmp, "--time", "5",
                            "--mem", "200M"});
    ck_assert_msg(m.status == 0, "%s", m.err.c_str());
    const std::string sub = read_text(dir + "/submit.sh");
    ck_assert_msg(sub.find("submit '1' 5 0 1-1\n") != std::string::npos && sub.find("submit '0") == std::string::npos,
                  "%s", sub.c_str());
    ck_assert(read_text(dir + "/sweep.sbatch").find("#SBATCH --mem=200M\n") != std::string::npos);
}
END_TEST

static bool is_png(const std::string& p)
{
    const std::string t = read_text(p);
    return t.size() > 1000 && t.compare(1, 3, "PNG") == 0;
}

static bool is_svg(const std::string& p)
{
    const std::string t = read_text(p);
    return t.size() > 1000 && t.find("<svg") != std::string::npos;
}

START_TEST(test_plot)
{
    proc_result a = fecsim({"sweep", scenario("imx6q/copybreak-stock-idle.ini"), "--vary", "l2.size=256KiB,1MiB",
                            "--vary", "l1.replacement=random,lru", "--name", "plot", "--out", g_tmp, "--no-plot"});
    ck_assert_msg(a.status == 0, "%s", a.err.c_str());
    const std::string dir = trim_nl(a.out);
    ck_assert(!exists(dir + "/plots"));
    proc_result p = fecsim({"plot", dir});
    ck_assert_msg(p.status == 0, "%s", p.err.c_str());
    for (const char* n : {"loss", "cpu", "irq"}) {
        ck_assert_msg(is_png(dir + "/plots/" + n + ".png"), "%s.png", n);
        ck_assert_msg(is_svg(dir + "/plots/" + n + ".svg"), "%s.svg", n);
        const std::string gp = read_text(dir + "/plots/" + n + ".gp");
        ck_assert(gp.find("'../sweep.csv'") != std::string::npos);
        ck_assert(gp.find("l2.size (KiB)") != std::string::npos);       // axis with unit
        ck_assert(gp.find("l1.replacement=lru") != std::string::npos);  // one curve per other value
        ck_assert(gp.find("imx6q-copybreak-stock-idle") != std::string::npos);
    }
    ck_assert(p.out.find("/plots/loss.svg") != std::string::npos);
    // The gnuplot processes run at once (-j), the images listed in the
    // same order; one that fails is the error, named, whatever the others do.
    proc_result p1 = fecsim({"plot", "-j", "1", dir});
    proc_result p3 = fecsim({"plot", "-j", "3", dir});
    ck_assert_msg(p1.status == 0 && p3.status == 0, "%s%s", p1.err.c_str(), p3.err.c_str());
    ck_assert_str_eq(p1.out.c_str(), p.out.c_str());
    ck_assert_str_eq(p3.out.c_str(), p.out.c_str());
    ck_assert(unlink((dir + "/plots/cpu.png").c_str()) == 0 && mkdir((dir + "/plots/cpu.png").c_str(), 0755) == 0);
    proc_result pf = fecsim({"plot", "-j", "3", dir});
    ck_assert_int_eq(pf.status, 3);
    ck_assert_msg(pf.err.find("gnuplot failed on " + dir + "/plots/cpu.gp") != std::string::npos, "%s", pf.err.c_str());
    ck_assert(is_png(dir + "/plots/irq.png"));
    ck_assert(rmdir((dir + "/plots/cpu.png").c_str()) == 0);
    // Several curves: CPU busy in a panel per core; axes from 0.
    const std::string cpu = read_text(dir + "/plots/cpu.gp");
    ck_assert_msg(cpu.find("set multiplot layout 4,1") != std::string::npos && cpu.find("'core 3'") != std::string::npos,
                  "%s", cpu.c_str());
    ck_assert(read_text(dir + "/plots/loss.gp").find("set yrange [0:*]") != std::string::npos);
    ck_assert(read_text(dir + "/plots/loss.gp").find("set xrange [0<*:*]") != std::string::npos);
    // A run directory: cycles per frame and CPU split.
    const std::string run = dir + "/" + point_dirs(dir)[0];
    proc_result q = fecsim({"plot", run});
    ck_assert_msg(q.status == 0, "%s", q.err.c_str());
    for (const char* n : {"cycles_per_frame", "cpu"}) {
        ck_assert_msg(is_png(run + "/plots/" + n + ".png"), "%s.png", n);
        ck_assert_msg(is_svg(run + "/plots/" + n + ".svg"), "%s.svg", n);
    }
    // With a time series (the soc records none yet: a hand-made series.csv).
    g_file_set_contents((run + "/series.csv").c_str(),
                        "time_s,rx_fifo_bytes,irq_rate_hz\n0,0,0\n0.001,512,100\n"
                        "0.002,2048,300\n",
                        -1, nullptr);
    proc_result ts = fecsim({"plot", run});
    ck_assert_msg(ts.status == 0, "%s", ts.err.c_str());
    ck_assert(is_png(run + "/plots/series.png") && is_svg(run + "/plots/series.svg"));
    ck_assert(read_text(run + "/plots/series.gp").find("'irq_rate_hz (1/s)'") != std::string::npos);
    // A real run's series: states as off/on steps, counters as rates per
    // second, the warm-up shaded.
    proc_result rr = fecsim({"run", "-q", "-o", "scenario.duration=20ms", "-o", "scenario.warmup=5ms", "--run-dir",
                             g_tmp + "/real"});
    ck_assert_msg(rr.status == 0, "%s", rr.err.c_str());
    proc_result rp = fecsim({"plot", g_tmp + "/real"});
    ck_assert_msg(rp.status == 0, "%s", rp.err.c_str());
    const std::string sg = read_text(g_tmp + "/real/plots/series.gp");
    for (const char* s : {"('off' 0, 'on' 1)", "'delivered (frames/s)'", "rect from graph 0, graph 0 to first 0.005",
                          "'rx_bds_ready (descriptors)'", "'busy (%)'", "title 'cpu0'", "title 'cpu3'"})
        ck_assert_msg(sg.find(s) != std::string::npos, "no %s in %s", s, sg.c_str());
    proc_result bad = fecsim({"plot", g_tmp});
    ck_assert_int_eq(bad.status, 2);
    ck_assert(bad.err.find("neither a run directory") != std::string::npos);
}
END_TEST

// fecsim run --run-dir holds a lock: a second run of the same directory
// while the first runs is skipped (exit 0, saying by whom); after kill -9
// the next run breaks the stale lock and removes the dead run's directory.
START_TEST(test_run_dir_lock)
{
    const std::string dir = g_tmp + "/pt";
    const std::vector<std::string> run = {"run", scenario("imx6q/copybreak-stock-idle.ini"), "-o",
                                          "scenario.duration=30s", "--run-dir", dir, "-q"};
    const pid_t first = fecsim_start(run);
    for (int i = 0; i < 3000 && !exists(g_tmp + "/.pt.lock"); i++)
        g_usleep(10000);
    ck_assert_msg(exists(g_tmp + "/.pt.lock"), "no lock");
    const std::string lock = read_text(g_tmp + "/.pt.lock");
    ck_assert_msg(lock.find("host=") == 0 && lock.find(" pid=") != std::string::npos &&
                      lock.find(" pidstart=") != std::string::npos && lock.find(" since=") != std::string::npos,
                  "%s", lock.c_str());
    proc_result second = fecsim(run);
    ck_assert_msg(second.status == 0, "%d %s", second.status, second.err.c_str());
    ck_assert_msg(second.err.find(dir + " is being run by host ") != std::string::npos &&
                      second.err.find("; skipped") != std::string::npos,
                  "%s", second.err.c_str());
    ck_assert(!exists(dir));
    kill(-first, SIGKILL);
    wait_exit(first);
    ck_assert(exists(g_tmp + "/.pt.lock"));
    std::vector<std::string> quick = run;
    quick[3] = "scenario.duration=1ms";
    proc_result third = fecsim(quick);
    ck_assert_msg(third.status == 0, "%s", third.err.c_str());
    ck_assert_msg(third.err.find("broke the stale lock") != std::string::npos, "%s", third.err.c_str());
    ck_assert(exists(dir + "/summary.json"));
    for (const auto& e : entries(g_tmp, true))  // neither the lock nor the killed run's directory is left
        ck_assert_msg(e.rfind(".tmp-", 0) != 0 && e != ".pt.lock", "left over: %s", e.c_str());
}
END_TEST

Suite* suite_cli_sweep(void)
{
    Suite* s = suite_create("cli_sweep");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_sweep_resumes);
    tcase_add_test(tc, test_sweep_resumes_after_kill9);
    tcase_add_test(tc, test_parallel_and_collect);
    tcase_add_test(tc, test_run_dir_lock);
    tcase_add_test(tc, test_plot);
    suite_add_tcase(s, tc);
    return s;
}
