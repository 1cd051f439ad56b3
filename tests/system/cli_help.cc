// The help of every command, its examples (each must work as written), usage
// errors, and that the committed generated docs match the tables.
#include "tests/lib.h"
#include <cstdlib>
#include <glib.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include "drivers/khost/data_dir.h"
#include "tests/system/cli.h"

namespace {

std::string g_tmp;
void setup() { g_tmp = tmp_dir(); }
void teardown() { rm_rf(g_tmp); }

// The example lines ("  fecsim ...") after "Examples" in a help text.
std::vector<std::string> examples(const std::string& help)
{
    std::vector<std::string> v;
    std::istringstream is(help);
    std::string line;
    bool in = false;
    while (std::getline(is, line)) {
        if (line.rfind("Examples", 0) == 0) {
            in = true;
            continue;
        }
        if (in && line.rfind("  fecsim ", 0) == 0)
            v.push_back(line.substr(2));
        else if (in && line.empty())
            in = false;
    }
    return v;
}

} // namespace

START_TEST(test_help_examples_work)
{
    // Run from a directory that looks like the source tree (scenarios/), so
    // the examples run exactly as written and write only below it.
    ck_assert_int_eq(symlink((fecsim_srcdir() + "/scenarios").c_str(), (g_tmp + "/scenarios").c_str()), 0);
    ck_assert_int_eq(symlink((fecsim_srcdir() + "/drivers").c_str(), (g_tmp + "/drivers").c_str()), 0);
    std::vector<std::string> all;
    for (const char* cmd : {"", "run", "check", "list-params", "sweep", "collect", "plot", "report",
                            "regress"}) {
        proc_result h = *cmd ? fecsim({cmd, "--help"}) : fecsim({"--help"});
        ck_assert_msg(h.status == 0, "fecsim %s --help: %d", cmd, h.status);
        ck_assert_msg(h.out.find("Usage:") != std::string::npos, "fecsim %s --help has no usage", cmd);
        const auto ex = examples(h.out);
        ck_assert_msg(!ex.empty(), "fecsim %s --help has no examples", cmd);
        all.insert(all.end(), ex.begin(), ex.end());
    }
    for (const auto& e : all) {
        const std::string cmd = "'" + fecsim_bin() + "'" + e.substr(6) + " >/dev/null";
        proc_result r = shell(cmd, g_tmp);
        ck_assert_msg(r.status == 0, "example failed (exit %d): %s\n%s", r.status, e.c_str(), r.err.c_str());
    }
    ck_assert_uint_ge(all.size(), 15);
}
END_TEST

START_TEST(test_usage_errors)
{
    proc_result none = fecsim({});
    ck_assert_int_eq(none.status, 2);
    ck_assert(none.err.find("Commands:") != std::string::npos);
    proc_result typo = fecsim({"rnu"});
    ck_assert_int_eq(typo.status, 2);
    ck_assert_msg(typo.err.find("unknown command 'rnu'; did you mean 'run'?") != std::string::npos, "%s",
                  typo.err.c_str());
    proc_result opt = fecsim({"sweep", "--jobs=x"});
    ck_assert_int_eq(opt.status, 2);
    ck_assert(opt.err.find("Try 'fecsim sweep --help'") != std::string::npos);
    proc_result nov = fecsim({"sweep"});
    ck_assert_int_eq(nov.status, 2);
    ck_assert(nov.err.find("no --vary given") != std::string::npos);
    proc_result ver = fecsim({"--version"});
    ck_assert_int_eq(ver.status, 0);
    ck_assert(ver.out.rfind("fecsim ", 0) == 0);
    for (const char* h : {"--help", "-h", "help"}) {  // help of help: the top-level help
        proc_result hh = fecsim({"help", h});
        ck_assert_msg(hh.status == 0 && hh.out.find("Commands:") != std::string::npos && hh.err.empty(),
                      "fecsim help %s: %d\n%s", h, hh.status, hh.err.c_str());
    }
    proc_result help = fecsim({"help", "sweep"});
    ck_assert_int_eq(help.status, 0);
    ck_assert(help.out.find("--vary") != std::string::npos);
    proc_result lp = fecsim({"--list-params=l1"});
    ck_assert_int_eq(lp.status, 0);
    ck_assert(lp.out.find("[l1]") != std::string::npos && lp.out.find("[l2]") == std::string::npos);
    proc_result lg = fecsim({"list-params", "l3"});
    ck_assert_int_eq(lg.status, 2);
    ck_assert(lg.err.find("did you mean [l1] or [l2]?") != std::string::npos);
    proc_result ck = fecsim({"check", fecsim_srcdir() + "/scenarios/imx6q/copybreak-stock-idle.ini"});
    ck_assert_int_eq(ck.status, 0);
    ck_assert(ck.out.find(": ok: scenario imx6q-copybreak-stock-idle") != std::string::npos);
}
END_TEST

// Where the data (driver, shim headers, scenarios, baselines) is taken from
// (drivers/khost/data_dir.h), and the key list of the shell completion.
START_TEST(test_data_dir)
{
    ck_assert(khost::relative_path("/usr/bin", "/usr/share/fecsim") == "../share/fecsim");
    ck_assert(khost::relative_path("/opt/f/bin", "/srv/data") == "../../../srv/data");
    ck_assert(khost::relative_path("/a/b", "/a/b") == ".");
    ck_assert(khost::relative_path("/a/b/", "/a/b/c") == "c");
    // In the build tree: the source tree.
    char* src = realpath(fecsim_srcdir().c_str(), nullptr);
    proc_result ver = fecsim({"--version"});
    ck_assert_msg(ver.out.find("\ndata: " + std::string(src) + "\n") != std::string::npos, "%s", ver.out.c_str());
    proc_result empty = shell("FECSIM_DATADIR= '" + fecsim_bin() + "' --version", g_tmp);  // empty: unset
    ck_assert_msg(empty.out.find("\ndata: " + std::string(src) + "\n") != std::string::npos, "%s", empty.out.c_str());
    free(src);
    // FECSIM_DATADIR that holds no data: exit 3 naming it, nothing written.
    const std::string bad = "FECSIM_DATADIR='" + g_tmp + "/none' '" + fecsim_bin() + "' ";
    ck_assert_int_eq(mkdir((g_tmp + "/none").c_str(), 0755), 0);
    proc_result run = shell(bad + "run -q -o scenario.duration=1ms", g_tmp);
    ck_assert_msg(run.status == 3 && run.err.find("FECSIM_DATADIR=" + g_tmp + "/none: not a fecsim data directory") !=
                                         std::string::npos,
                  "%d: %s", run.status, run.err.c_str());
    ck_assert_msg(!exists(g_tmp + "/results"), "a failed run left results");
    proc_result reg = shell(bad + "regress -q", g_tmp);
    ck_assert_msg(reg.status == 3 && reg.err.find("FECSIM_DATADIR=") != std::string::npos, "%d: %s", reg.status,
                  reg.err.c_str());
    proc_result v2 = shell(bad + "--version", g_tmp);
    ck_assert_msg(v2.status == 0 && v2.out.find("data: FECSIM_DATADIR=") != std::string::npos, "%s", v2.out.c_str());
    // FECSIM_DATADIR that does: used.
    proc_result v3 = shell("FECSIM_DATADIR='" + fecsim_srcdir() + "' '" + fecsim_bin() + "' --version", g_tmp);
    ck_assert(v3.out.find("\ndata: /") != std::string::npos);
    // list-params --keys: GROUP.KEY lines, the keys -o accepts.
    proc_result keys = fecsim({"list-params", "--keys"});
    ck_assert_int_eq(keys.status, 0);
    ck_assert(keys.out.rfind("scenario.seed\n", 0) == 0);
    ck_assert(keys.out.find("\nl2.size\n") != std::string::npos);
    ck_assert(keys.out.find("include") == std::string::npos);
    proc_result l2 = fecsim({"list-params", "--keys", "l2"});
    ck_assert(l2.status == 0 && l2.out.rfind("l2.", 0) == 0 && l2.out.find("l1.") == std::string::npos);
    ck_assert_int_eq(fecsim({"list-params", "--keys", "--names"}).status, 2);
}
END_TEST

// Every ```sh block of docs/user-guide.md, in order, as one script.
START_TEST(test_user_guide_works)
{
    const std::string guide = read_text(fecsim_srcdir() + "/docs/user-guide.md");
    ck_assert_uint_gt(guide.size(), 1000);
    std::string script = "set -e\n";
    std::istringstream is(guide);
    std::string line;
    bool in = false;
    size_t blocks = 0;
    while (std::getline(is, line)) {
        if (line == "```sh") {
            in = true;
            blocks++;
        } else if (in && line == "```") {
            in = false;
        } else if (in) {
            script += line + "\n";
        }
    }
    ck_assert_uint_ge(blocks, 8);
    ck_assert_int_eq(symlink((fecsim_srcdir() + "/scenarios").c_str(), (g_tmp + "/scenarios").c_str()), 0);
    ck_assert_int_eq(symlink((fecsim_srcdir() + "/drivers").c_str(), (g_tmp + "/drivers").c_str()), 0);
    ck_assert_int_eq(mkdir((g_tmp + "/bin").c_str(), 0777), 0);
    ck_assert_int_eq(symlink(fecsim_bin().c_str(), (g_tmp + "/bin/fecsim").c_str()), 0);
    g_file_set_contents((g_tmp + "/guide.sh").c_str(), script.c_str(), -1, nullptr);
    proc_result r = shell("PATH=\"" + g_tmp + "/bin:$PATH\" sh guide.sh", g_tmp);
    ck_assert_msg(r.status == 0, "docs/user-guide.md failed (exit %d):\n%s", r.status, r.err.c_str());
    ck_assert(r.out.find("exit status 2") != std::string::npos);  // the typo example fails as shown
    ck_assert(r.err.find("typo.ini:4: error: unknown key 'szie' in [l2]; did you mean 'size'?") != std::string::npos);
    ck_assert(exists(g_tmp + "/results/imx6q-copybreak-stock-stress/sweep-l2-size/plots/loss.svg"));
    ck_assert(exists(g_tmp + "/results/imx6q-copybreak-stock-stress/sweep-vm-bytes/sweep.csv"));
    // Regression checks: the partial-sync driver improves and is still a regression.
    ck_assert(r.out.find("new violation: device_write_cpu_owned at fec_enet_") != std::string::npos);
    ck_assert(r.out.find("exit status 1") != std::string::npos);
    ck_assert(read_text(g_tmp + "/junit.xml").find("<testsuites name=\"fecsim regress\"") != std::string::npos);
    ck_assert(r.out.find("regress-rx-30k-64-idle  cpu.0.idle_pct") != std::string::npos);
}
END_TEST

// docs/scenario-format.md and docs/models/*.md are generated (make docs) and committed.
START_TEST(test_docs_up_to_date)
{
    proc_result f = fecsim({"list-params", "--markdown"});
    ck_assert_int_eq(f.status, 0);
    ck_assert_msg(f.out == read_text(fecsim_srcdir() + "/docs/scenario-format.md"),
                  "docs/scenario-format.md is out of date: run make docs");
    proc_result names = fecsim({"list-params", "--markdown", "--names"});
    ck_assert_int_eq(names.status, 0);
    std::istringstream is(names.out);
    std::string g;
    size_t n = 0;
    while (std::getline(is, g)) {
        proc_result m = fecsim({"list-params", "--markdown", g});
        ck_assert_int_eq(m.status, 0);
        ck_assert_msg(m.out == read_text(fecsim_srcdir() + "/docs/models/" + g + ".md"),
                      "docs/models/%s.md is out of date: run make docs", g.c_str());
        ck_assert_msg(m.out.find("\n\nImplemented in: ") != std::string::npos,
                      "docs/models/%s.md does not say where it is implemented", g.c_str());
        n++;
    }
    ck_assert_uint_ge(n, 8);
    // list-params names the implementation of every group.
    proc_result lp = fecsim({"list-params"});
    ck_assert_int_eq(lp.status, 0);
    size_t groups = 0, impl = 0;
    for (size_t at = lp.out.find("\n["); at != std::string::npos; at = lp.out.find("\n[", at + 1))
        groups++;
    for (size_t at = lp.out.find("\n  Implemented in: "); at != std::string::npos;
         at = lp.out.find("\n  Implemented in: ", at + 1))
        impl++;
    ck_assert_uint_eq(impl, groups + 1);  // the first group has no "\n" before it
}
END_TEST

Suite* suite_cli_help(void)
{
    Suite* s = suite_create("cli_help");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_help_examples_work);
    tcase_add_test(tc, test_user_guide_works);
    tcase_add_test(tc, test_usage_errors);
    tcase_add_test(tc, test_data_dir);
    tcase_add_test(tc, test_docs_up_to_date);
    suite_add_tcase(s, tc);
    return s;
}
