// fecsim run as a user runs it: the --json contract, the results directory,
// determinism, atomic results under kill, bad input writes nothing.
#include "tests/lib.h"
#include <csignal>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <regex>
#include <sstream>
#include <unistd.h>
#include "tests/system/cli.h"

namespace {

std::string g_tmp;
void setup() { g_tmp = tmp_dir(); }
void teardown() { rm_rf(g_tmp); }

std::string scenario(const char* name) { return fecsim_srcdir() + "/scenarios/" + name; }

JsonObject* parse_object(JsonParser* p, const std::string& text)
{
    GError* e = nullptr;
    ck_assert_msg(json_parser_load_from_data(p, text.c_str(), -1, &e), "not JSON (%s): %s", e ? e->message : "",
                  text.c_str());
    JsonNode* root = json_parser_get_root(p);
    ck_assert_msg(JSON_NODE_HOLDS_OBJECT(root), "not a JSON object: %s", text.c_str());
    return json_node_get_object(root);
}

void has_number(JsonObject* o, const char* key)
{
    ck_assert_msg(json_object_has_member(o, key), "missing key '%s'", key);
    JsonNode* n = json_object_get_member(o, key);
    ck_assert_msg(JSON_NODE_HOLDS_VALUE(n) &&
                      (json_node_get_value_type(n) == G_TYPE_INT64 || json_node_get_value_type(n) == G_TYPE_DOUBLE),
                  "'%s' is not a number", key);
}

JsonObject* has_object(JsonObject* o, const char* key)
{
    ck_assert_msg(json_object_has_member(o, key), "missing key '%s'", key);
    ck_assert_msg(JSON_NODE_HOLDS_OBJECT(json_object_get_member(o, key)), "'%s' is not an object", key);
    return json_object_get_object_member(o, key);
}

const char* const k_result_files[] = {"scenario.resolved.ini", "stats.json",  "stats.txt", "summary.json", "series.csv",
                                      "cmdline.txt",           "version.txt", "sim.log"};

} // namespace

// Every key of the contract in docs/architecture.md, on stdout, nothing else there.
// Every scenario file shipped under scenarios/ (suite.ini is the regress
// suite's tolerance table, not a scenario) passes `fecsim check`.
START_TEST(test_shipped_scenarios_check)
{
    const std::string root = fecsim_srcdir() + "/scenarios";
    std::vector<std::string> args = {"check"};
    for (const std::string& e : entries(root)) {
        if (e.size() > 4 && e.compare(e.size() - 4, 4, ".ini") == 0) {
            args.push_back(root + "/" + e);
            continue;
        }
        for (const std::string& f : entries(root + "/" + e))
            if (f.size() > 4 && f.compare(f.size() - 4, 4, ".ini") == 0 && f != "suite.ini")
                args.push_back(root + "/" + e + "/" + f);
    }
    ck_assert_uint_ge(args.size(), 25);
    proc_result r = fecsim(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
}
END_TEST

START_TEST(test_json_contract)
{
    proc_result r = fecsim({"run", "--json", "--quiet", "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    CK_STR_EQ(r.err, "");  // --quiet: nothing on stderr
    JsonParser* p = json_parser_new();
    JsonObject* o = parse_object(p, r.out);
    ck_assert(json_object_has_member(o, "scenario"));
    CK_STR_EQ(json_object_get_string_member(o, "scenario"), "default");
    for (const char* k : {"seed", "sim_time_s", "wall_time_s", "realtime_factor", "frames_offered", "frames_delivered",
                          "loss_pct", "irq_rate_hz", "napi_polls"})
        has_number(o, k);
    JsonObject* drops = has_object(o, "drops");
    for (const char* k : {"mac_fifo", "socket", "driver"})
        has_number(drops, k);
    JsonObject* payload = has_object(o, "payload");
    for (const char* k : {"verified", "corrupted", "duplicated", "reordered"})
        has_number(payload, k);
    ck_assert(json_object_has_member(o, "cpu"));
    JsonArray* cpu = json_object_get_array_member(o, "cpu");
    ck_assert_uint_eq(json_array_get_length(cpu), 4);
    for (guint i = 0; i < json_array_get_length(cpu); i++) {
        JsonObject* c = json_array_get_object_element(cpu, i);
        for (const char* k : {"core", "irq_pct", "softirq_pct", "sys_pct", "user_pct", "idle_pct"})
            has_number(c, k);
    }
    JsonObject* cpf = has_object(o, "cycles_per_frame");
    for (const char* k : {"total", "dma_sync", "copy", "stack", "mmio", "descriptor"})
        has_number(cpf, k);
    JsonObject* ds = has_object(o, "dma_sync");
    for (const char* k : {"calls", "lines", "cycles"})
        has_number(ds, k);
    has_number(has_object(o, "coherence"), "violations");
    ck_assert(json_object_get_double_member(o, "sim_time_s") == 1.0);
    // The results directory named on stdout is complete and holds the same summary.
    const std::string dir = json_object_get_string_member(o, "results_dir");
    for (const char* f : k_result_files)
        ck_assert_msg(exists(dir + "/" + f), "%s/%s missing", dir.c_str(), f);
    JsonParser* p2 = json_parser_new();
    JsonObject* s = parse_object(p2, read_text(dir + "/summary.json"));
    CK_STR_EQ(json_object_get_string_member(s, "run_id"), json_object_get_string_member(o, "run_id"));
    g_object_unref(p2);
    g_object_unref(p);
}
END_TEST

START_TEST(test_results_layout)
{
    const std::string out = g_tmp + "/res";
    proc_result r = fecsim({"run", scenario("imx6q/copybreak-stock-stress.ini"), "-o", "scenario.duration=2ms",
                            "--seed", "5", "--out", out});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    CK_STR_EQ(r.out, "");  // without --json, stdout stays empty
    ck_assert_msg(r.err.find("fecsim run: imx6q-copybreak-stock-stress (seed 5)") != std::string::npos, "%s",
                  r.err.c_str());
    const std::string dir = only_subdir(out + "/imx6q-copybreak-stock-stress");
    // run id: sortable UTC timestamp, seed, config hash.
    const std::string id = dir.substr(dir.rfind('/') + 1);
    ck_assert_msg(std::regex_match(id, std::regex("[0-9]{8}T[0-9]{6}\\.[0-9]{3}Z-s5-[0-9a-f]{8}")), "%s", id.c_str());
    for (const char* f : k_result_files)
        ck_assert_msg(exists(dir + "/" + f), "%s missing", f);
    ck_assert_uint_eq(entries(dir).size(), sizeof k_result_files / sizeof k_result_files[0]);
    // stats.txt: "name value # description (unit)".
    const std::string txt = read_text(dir + "/stats.txt");
    ck_assert(txt.find("\nl2.misses ") != std::string::npos);
    std::istringstream is(txt);
    std::string line;
    size_t n = 0;
    while (std::getline(is, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        ck_assert_msg(std::regex_match(line, std::regex("[A-Za-z0-9_.]+ +[0-9.e+-]+|[A-Za-z0-9_.]+ +nan")) ||
                          std::regex_match(line, std::regex("[A-Za-z0-9_.]+ +([0-9.e+-]+|nan) # .+ \\(.+\\)")),
                      "bad stats.txt line: %s", line.c_str());
        n++;
    }
    ck_assert_uint_gt(n, 50);
    // stats.json: counters by instance path, derived formulas.
    JsonParser* p = json_parser_new();
    JsonObject* o = parse_object(p, read_text(dir + "/stats.json"));
    JsonObject* counters = has_object(o, "counters");
    has_number(has_object(counters, "l2"), "misses");
    has_number(has_object(counters, "l1_0"), "read_hits");
    ck_assert(json_object_has_member(has_object(has_object(o, "derived"), "l2"), "hit_rate"));
    ck_assert(!json_object_has_member(o, "wall_time_s"));
    g_object_unref(p);
    // cmdline.txt has the argv; version.txt the version.
    ck_assert(read_text(dir + "/cmdline.txt").find("'--seed' '5'") != std::string::npos);
    ck_assert(read_text(dir + "/version.txt").rfind("fecsim ", 0) == 0);
    // The resolved file runs again to the same configuration (same hash in the run id).
    proc_result again = fecsim({"run", dir + "/scenario.resolved.ini", "--quiet", "--out", g_tmp + "/again"});
    ck_assert_msg(again.status == 0, "%s", again.err.c_str());
    const std::string dir2 = only_subdir(g_tmp + "/again/imx6q-copybreak-stock-stress");
    CK_STR_EQ(dir2.substr(dir2.size() - 12), id.substr(id.size() - 12));
    CK_STR_EQ(read_text(dir2 + "/stats.json"), read_text(dir + "/stats.json"));
}
END_TEST

// Same scenario + seed => byte-identical stats.json (also with progress on).
START_TEST(test_deterministic_stats)
{
    const std::string s = scenario("imx6q/copybreak-stock-stress.ini");
    std::vector<std::string> texts;
    for (int i = 0; i < 3; i++) {
        std::vector<std::string> a = {
            "run", s, "-o", "scenario.duration=20ms", "--quiet", "--out", g_tmp + "/r" + std::to_string(i)};
        if (i == 2)
            a.push_back("--progress");
        proc_result r = fecsim(a);
        ck_assert_msg(r.status == 0, "%s", r.err.c_str());
        texts.push_back(
            read_text(only_subdir(g_tmp + "/r" + std::to_string(i) + "/imx6q-copybreak-stock-stress") + "/stats.json"));
    }
    ck_assert_uint_gt(texts[0].size(), 1000);
    ck_assert(texts[0].find("\"pages\" : 0,") == std::string::npos);  // the memory hog did work
    ck_assert_msg(texts[0] == texts[1], "two runs differ");
    ck_assert_msg(texts[0] == texts[2], "progress changed the results");
    proc_result r =
        fecsim({"run", s, "-o", "scenario.duration=20ms", "--seed", "2", "--quiet", "--out", g_tmp + "/s2"});
    ck_assert_int_eq(r.status, 0);
    ck_assert(read_text(only_subdir(g_tmp + "/s2/imx6q-copybreak-stock-stress") + "/stats.json") != texts[0]);
}
END_TEST

// Exit status 2, a message naming file:line and key, and nothing written.
START_TEST(test_bad_input_writes_nothing)
{
    const std::string bad = g_tmp + "/bad.ini";
    g_file_set_contents(bad.c_str(), "[scenario]\nid=bad\n[l2]\nsize=16MiB\n", -1, nullptr);
    const std::string out = g_tmp + "/out";
    struct {
        std::vector<std::string> args;
        std::string says;
    } cases[] = {
        {{"run", bad}, ":4: error: l2.size: '16MiB' is out of range: allowed 16KiB .. 8MiB"},
        {{"run", "-o", "l2.sise=1MiB"}, "error: -o l2.sise=1MiB: unknown key 'sise' in [l2]; did you mean 'size'?"},
        {{"run", "-o", "l2.size"}, "expected group.key=value"},
        {{"run", "--seed", "many"}, "error: --seed many: scenario.seed: 'many' is not a number"},
        {{"run", "--patch", g_tmp + "/none.patch"}, "driver.patches: '" + g_tmp + "/none.patch': no such file"},
        {{"run", g_tmp + "/missing.ini"}, "missing.ini: no such file"},
        {{"run", "--bogus"}, "Unknown option --bogus"},
        {{"run", "--trace=l9"}, "unknown trace component 'l9'"},
        {{"run", "-o", "l1.size=48KiB"}, "must be a power of two"},
        {{"run", "-o", "scenario.id=a/b"}, "is not a valid name"},
        {{"sweep", "--vary", "l2.sise=1MiB"}, "--vary l2.sise: unknown key 'sise' in [l2]; did you mean 'size'?"},
        {{"sweep", "--vary", "l2.size=1MiB,64MiB"}, "64MiB is out of range"},
        {{"sweep", "--vary", "l1.size=32KiB,48KiB"}, "sweep point p001-l1.size=48KiB is not a valid scenario"},
        {{"check", bad}, ":4: error: l2.size"},
    };
    for (auto& c : cases) {
        c.args.push_back("--out");
        c.args.push_back(out);
        if (c.args[0] == "check")
            c.args.resize(2);
        proc_result r = fecsim(c.args);
        ck_assert_msg(r.status == 2, "%s: exit %d, expected 2", c.args[1].c_str(), r.status);
        ck_assert_msg(r.err.find(c.says) != std::string::npos, "expected '%s' in:\n%s", c.says.c_str(), r.err.c_str());
        CK_STR_EQ(r.out, "");
        ck_assert_msg(!exists(out), "%s: wrote %s", c.args[1].c_str(), out.c_str());
    }
}
END_TEST

// kill -9 in the middle of a run: no result directory, or a complete one.
START_TEST(test_kill_is_atomic)
{
    const std::string out = g_tmp + "/res";
    const std::string sdir = out + "/imx6q-copybreak-stock-stress";
    const pid_t pid = fecsim_start(
        {"run", scenario("imx6q/copybreak-stock-stress.ini"), "-o", "scenario.duration=5s", "--quiet", "--out", out});
    // Wait until the run is simulating (its temporary directory exists), then kill it.
    for (int i = 0; i < 200 && entries(sdir, true).empty(); i++)
        g_usleep(20000);
    ck_assert_msg(!entries(sdir, true).empty(), "the run never started");
    g_usleep(300000);
    kill(-pid, SIGKILL);
    ck_assert_int_eq(wait_exit(pid), 128 + SIGKILL);
    ck_assert_msg(entries(sdir).empty(), "a visible result directory was left behind");
    // The next run in the same place removes the dead run's temporary directory.
    proc_result r = fecsim(
        {"run", scenario("imx6q/copybreak-stock-stress.ini"), "-o", "scenario.duration=1ms", "--quiet", "--out", out});
    ck_assert_msg(r.status == 0, "%s", r.err.c_str());
    ck_assert_uint_eq(entries(sdir, true).size(), 1);
    ck_assert(exists(only_subdir(sdir) + "/summary.json"));
    // SIGINT: the run removes its own temporary files and dies of the signal.
    const pid_t p2 = fecsim_start({"run", scenario("imx6q/copybreak-stock-stress.ini"), "-o", "scenario.duration=5s",
                                   "--quiet", "--out", g_tmp + "/int"});
    for (int i = 0; i < 200 && entries(g_tmp + "/int/imx6q-copybreak-stock-stress", true).empty(); i++)
        g_usleep(20000);
    g_usleep(300000);
    kill(p2, SIGINT);
    ck_assert_int_eq(wait_exit(p2), 128 + SIGINT);
    ck_assert_msg(!exists(g_tmp + "/int"), "SIGINT left files behind");
}
END_TEST

// --run-dir: exactly there; a finished one is not run again.
START_TEST(test_run_dir)
{
    const std::string d = g_tmp + "/point";
    proc_result a = fecsim({"run", "--run-dir", d, "--json", "--quiet"});
    ck_assert_msg(a.status == 0, "%s", a.err.c_str());
    const std::string s1 = read_text(d + "/summary.json");
    ck_assert(!s1.empty());
    proc_result b = fecsim({"run", "--run-dir", d, "--json"});
    ck_assert_int_eq(b.status, 0);
    ck_assert(b.err.find("already holds a finished run") != std::string::npos);
    ck_assert(b.out.find("\"results_dir\"") != std::string::npos);
    CK_STR_EQ(read_text(d + "/summary.json"), s1);
    // --vcd writes the waveform file where asked.
    proc_result v = fecsim({"run", "--quiet", "--out", g_tmp + "/v", "--vcd", g_tmp + "/wave.vcd"});
    ck_assert_msg(v.status == 0, "%s", v.err.c_str());
    const std::string vcd = read_text(g_tmp + "/wave.vcd");
    ck_assert(vcd.find("$timescale") != std::string::npos);
    // A scope per part: the MAC, the driver's ring and NAPI, each core.
    for (const char* s : {"$scope module enet $end", "$scope module driver $end", "$scope module cpu0 $end",
                          "$scope module cpu3 $end"})
        ck_assert_msg(vcd.find(s) != std::string::npos, "no '%s' in the VCD", s);
    ck_assert(vcd.find(" context ") != std::string::npos && vcd.find(" napi_polling ") != std::string::npos);
}
END_TEST

// A symbolic link planted where the cleaner of dead runs' temporary
// directories looks (a .tmp-<dead pid>@<this host>-* name) is neither
// followed nor emptied: what it points to survives the next run.
START_TEST(test_stale_cleaner_follows_no_link)
{
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    const std::string victim = g_tmp + "/victim";
    ck_assert_int_eq(shell("mkdir -p '" + victim + "/sub' && echo keep > '" + victim + "/notes.txt' && echo keep > '" +
                           victim + "/sub/deep.txt'").status, 0);
    const std::string parent = g_tmp + "/res/default";
    ck_assert_int_eq(shell("mkdir -p '" + parent + "/.tmp-999997@" + host + "-real/d' && ln -s '" + victim + "' '" +
                           parent + "/.tmp-999997@" + host + "-x' && ln -s '" + victim + "' '" + parent +
                           "/.tmp-999997@" + host + "-real/d/link'").status, 0);
    const proc_result r = fecsim({"run", "-o", "scenario.duration=1ms", "-q", "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    CK_STR_EQ(read_text(victim + "/notes.txt"), "keep\n");
    CK_STR_EQ(read_text(victim + "/sub/deep.txt"), "keep\n");
    // The dead run's real directory is gone (with the link inside it, not
    // its target); the planted top-level link is left alone.
    ck_assert(!exists(parent + "/.tmp-999997@" + std::string(host) + "-real"));
}
END_TEST

Suite* suite_cli_run(void)
{
    Suite* s = suite_create("cli_run");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_shipped_scenarios_check);
    tcase_add_test(tc, test_json_contract);
    tcase_add_test(tc, test_results_layout);
    tcase_add_test(tc, test_deterministic_stats);
    tcase_add_test(tc, test_bad_input_writes_nothing);
    tcase_add_test(tc, test_kill_is_atomic);
    tcase_add_test(tc, test_run_dir);
    tcase_add_test(tc, test_stale_cleaner_follows_no_link);
    suite_add_tcase(s, tc);
    return s;
}
