// fecsim run as a user runs it: the --json contract, the results directory,
// determinism, atomic results under kill, bad input writes nothing.
#include "tests/lib.h"
#include <cmath>
#include <csignal>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <map>
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

// Shipped scenario files (suite.ini is a tolerance table; the SoC profiles
// are what scenarios include, each loaded and run by tests/system/profiles.cc).
std::vector<std::string> shipped_scenarios()
{
    const std::string root = fecsim_srcdir() + "/scenarios";
    std::vector<std::string> v;
    for (const std::string& e : entries(root)) {
        if (e.size() > 4 && e.compare(e.size() - 4, 4, ".ini") == 0) {
            v.push_back(root + "/" + e);
            continue;
        }
        if (e == "profiles")
            continue;
        for (const std::string& f : entries(root + "/" + e))
            if (f.size() > 4 && f.compare(f.size() - 4, 4, ".ini") == 0 && f != "suite.ini")
                v.push_back(root + "/" + e + "/" + f);
    }
    return v;
}

} // namespace

// Every scenario file shipped under scenarios/ (suite.ini is the regress
// suite's tolerance table, not a scenario) passes `fecsim check`.
START_TEST(test_shipped_scenarios_check)
{
    std::vector<std::string> args = {"check"};
    for (const std::string& f : shipped_scenarios())
        args.push_back(f);
    ck_assert_uint_ge(args.size(), 25);
    proc_result r = fecsim(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
}
END_TEST


// The frame balance of every shipped scenario (a short run of each, its
// warm-up kept): the frames offered in the measurement plus those in flight
// at its start equal the datagrams the application read, every drop place
// and the frames in flight at the end -- recomputed here from the counters of
// stats.txt -- and the frames in flight are where the run found them (RX
// FIFO, RX ring in memory, socket queue), give or take the one frame a core
// can hold between two of those places.
START_TEST(test_frame_balance_shipped)
{
    unsigned runs = 0;
    for (const std::string& sc : shipped_scenarios()) {
        if (sc.find("/upstream-") != std::string::npos && !exists("/usr/src/linux-source-6.12.tar.xz"))
            continue;
        const std::string dir = g_tmp + "/bal" + std::to_string(runs++);
        const proc_result r = fecsim({"run", sc, "-q", "-o", "scenario.duration=20ms", "--run-dir", dir});
        ck_assert_msg(r.status == 0, "%s: exit %d: %s", sc.c_str(), r.status, r.err.c_str());
        auto st = stats_txt(dir + "/stats.txt");
        for (const char* k : {"traffic.frames", "flight.start", "flight.end", "flight.observed_start",
                              "flight.observed_end", "enet.rx_flushed", "enet.rx_ring_discarded", "enet.rx_pause_consumed"})
            ck_assert_msg(st.count(k), "%s: no %s in stats.txt", sc.c_str(), k);
        const long long errors = st["netdev.rx_errors"], fifo_errors = st["netdev.rx_fifo_errors"];
        const long long fates = st["enet.rx_disabled"] + st["enet.rx_filtered"] + st["enet.rx_pause_consumed"] +
                                st["enet.rx_fifo_drops"] + st["enet.rx_truncated"] + st["enet.rx_flushed"] + st["enet.rx_ring_discarded"] + st["enet.rx_accel_discards"] +
                                st["netdev.rx_dropped"] + errors - std::min(errors, fifo_errors) +
                                st["stack.rx_otherhost"] + st["snmp.Ip.InHdrErrors"] + st["snmp.Udp.NoPorts"] +
                                st["snmp.Udp.RcvbufErrors"] + st["snmp.Udp.InCsumErrors"] + st["snmp.Udp.InDatagrams"];
        ck_assert_msg(st["traffic.frames"] + st["flight.start"] == fates + st["flight.end"],
                      "%s: offered %lld + in flight at the start %lld != fates %lld + in flight at the end %lld",
                      sc.c_str(), st["traffic.frames"], st["flight.start"], fates, st["flight.end"]);
        const long long d_end = st["flight.end"] - st["flight.observed_end"],
                        d_start = st["flight.start"] - st["flight.observed_start"];
        ck_assert_msg(d_end >= -1 && d_end <= 2 && d_start >= -1 && d_start <= 2,
                      "%s: in flight by the counters %lld/%lld, found %lld/%lld", sc.c_str(), st["flight.start"],
                      st["flight.end"], st["flight.observed_start"], st["flight.observed_end"]);
        ck_assert_msg(read_text(dir + "/sim.log").find("frame balance") == std::string::npos, "%s: %s", sc.c_str(),
                      read_text(dir + "/sim.log").c_str());
    }
    ck_assert_uint_ge(runs, 20);
}
END_TEST

// CPU time is booked as it elapses: at a 10-us sample interval no core is
// ever more than 100 % busy, the RX core's NAPI state shows, and the
// measured rows average to the summary's busy share of each core.
START_TEST(test_series_busy_bounded)
{
    for (const char* sc : {"imx6q/copybreak-stock-stress.ini", "imx6q/copybreak-patched-idle.ini"}) {
        const std::string dir = g_tmp + "/" + std::string(sc).substr(5, 20);
        const proc_result r = fecsim({"run", scenario(sc), "-q", "--json", "-o", "scenario.duration=20ms", "-o",
                                      "scenario.warmup=5ms", "-o", "output.sample_interval=10us", "--run-dir", dir});
        ck_assert_msg(r.status == 0, "%s: exit %d: %s", sc, r.status, r.err.c_str());
        std::istringstream in(read_text(dir + "/series.csv"));
        std::string line;
        std::getline(in, line);
        std::vector<std::string> cols;
        {
            std::istringstream h(line);
            std::string c;
            while (std::getline(h, c, ','))
                cols.push_back(c);
        }
        ck_assert_uint_eq(cols.size(), 12);
        CK_STR_EQ(cols[4], "napi_polling");
        std::vector<double> sum(4, 0);
        unsigned rows = 0, polling = 0;
        while (std::getline(in, line)) {
            std::vector<double> v;
            std::istringstream l(line);
            std::string x;
            while (std::getline(l, x, ','))
                v.push_back(std::strtod(x.c_str(), nullptr));
            ck_assert_uint_eq(v.size(), cols.size());
            for (unsigned c = 0; c < 4; c++)
                ck_assert_msg(v[8 + c] >= 0 && v[8 + c] <= 100.0 + 1e-9, "%s: %s %.3f at %.6f s", sc,
                              cols[8 + c].c_str(), v[8 + c], v[0]);
            if (v[0] > 0.005 + 1e-9) {  // the measured rows
                rows++;
                polling += v[4] > 0.5;
                for (unsigned c = 0; c < 4; c++)
                    sum[c] += v[8 + c];
            }
        }
        ck_assert_uint_ge(rows, 1999);  // the sample at the last instant may not run
        ck_assert_msg(polling > 100, "%s: NAPI polling in %u of %u samples", sc, polling, rows);
        JsonParser* p = json_parser_new();
        JsonArray* cpu = json_object_get_array_member(parse_object(p, r.out), "cpu");
        for (unsigned c = 0; c < 4; c++) {
            const double busy = 100.0 - json_object_get_double_member(json_array_get_object_element(cpu, c), "idle_pct");
            ck_assert_msg(std::fabs(sum[c] / rows - busy) < 0.5, "%s: core %u busy %.2f %% in the series, %.2f %% in the summary",
                          sc, c, sum[c] / rows, busy);
        }
        g_object_unref(p);
    }
}
END_TEST

// The measured region's edges: a core that ran ahead past them has its
// time booked inside the region, none outside. Each core's split adds up to
// 100 % also when the region is shorter than a quantum (1 us, the driver's
// probe on core 0), and no task exceeds 100 %.
START_TEST(test_cpu_split_at_region_edges)
{
    const std::vector<std::vector<std::string>> runs = {
        {"-o", "scenario.duration=1us", "-o", "scenario.warmup=0s"},
        {"-o", "scenario.duration=3us", "-o", "scenario.warmup=2us"},
        {"-o", "scenario.duration=20ms"},
    };
    for (const auto& extra : runs) {
        std::vector<std::string> args = {"run", "--json", "-q", "--out", g_tmp + "/edges"};
        args.insert(args.end(), extra.begin(), extra.end());
        const proc_result r = fecsim(args);
        ck_assert_msg(r.status == 0, "%s: exit %d: %s", extra[1].c_str(), r.status, r.err.c_str());
        JsonParser* p = json_parser_new();
        JsonObject* o = parse_object(p, r.out);
        JsonArray* cpu = json_object_get_array_member(o, "cpu");
        for (guint c = 0; c < json_array_get_length(cpu); c++) {
            JsonObject* row = json_array_get_object_element(cpu, c);
            double sum = 0;
            for (const char* k : {"irq_pct", "softirq_pct", "sys_pct", "user_pct", "idle_pct"})
                sum += json_object_get_double_member(row, k);
            ck_assert_msg(std::fabs(sum - 100.0) < 1e-6, "%s: core %u adds up to %.6f %%", extra[1].c_str(), c, sum);
        }
        if (extra[1] == "scenario.duration=1us")
            ck_assert_msg(json_object_get_double_member(json_array_get_object_element(cpu, 0), "sys_pct") > 99.0,
                          "core 0 in the probe is not busy in a 1-us region");
        JsonArray* tasks = json_object_get_array_member(o, "tasks");
        for (guint i = 0; tasks && i < json_array_get_length(tasks); i++) {
            JsonObject* t = json_array_get_object_element(tasks, i);
            ck_assert_msg(json_object_get_double_member(t, "cpu_pct") <= 100.0 + 1e-9, "%s: %s %.9f %%",
                          extra[1].c_str(), json_object_get_string_member(t, "name"),
                          json_object_get_double_member(t, "cpu_pct"));
        }
        g_object_unref(p);
    }
}
END_TEST

// Every key of the contract in docs/architecture.md, on stdout, nothing else there.
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
    ck_assert_msg(std::string(json_object_get_string_member(o, "driver")).rfind("fecsim's own (", 0) == 0, "driver: %s",
                  json_object_get_string_member(o, "driver"));
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

// scenario.lazy_sync skips only synchronisations nobody could observe: with
// the own driver, idle and under memory stress, stats.json is byte-identical
// to syncing at every quantum boundary and uncached access, while sim.log
// shows the RX core left a good part of its waits out (and none without it).
START_TEST(test_lazy_sync_exact)
{
    for (const char* name : {"copybreak-stock-idle", "copybreak-patched-stress"}) {
        const std::string s = scenario((std::string("imx6q/") + name + ".ini").c_str());
        std::string texts[2];
        unsigned long long made[2] = {}, left_out[2] = {};
        for (int i = 0; i < 2; i++) {
            const std::string out = g_tmp + "/l" + std::to_string(i);
            proc_result r = fecsim({"run", s, "-o", "scenario.duration=15ms", "-o",
                                    i ? "scenario.lazy_sync=false" : "scenario.lazy_sync=true", "--quiet", "--out", out});
            ck_assert_msg(r.status == 0, "%s", r.err.c_str());
            const std::string dir = only_subdir(out + "/imx6q-" + name);
            texts[i] = read_text(dir + "/stats.json");
            // The RX core's line in sim.log: the mode did (or did not) leave waits out.
            const std::string log = read_text(dir + "/sim.log");
            const size_t at = log.find("cpu0 info: synchronisation waits: ");
            ck_assert_msg(at != std::string::npos, "%s: no synchronisation line in sim.log", name);
            ck_assert_int_eq(std::sscanf(log.c_str() + at, "cpu0 info: synchronisation waits: %llu made, %llu left out",
                                         &made[i], &left_out[i]),
                             2);
            rm_rf(out);
        }
        ck_assert_uint_gt(texts[0].size(), 1000);
        ck_assert_msg(texts[0] == texts[1], "%s: stats.json differs with scenario.lazy_sync=false", name);
        ck_assert_msg(left_out[0] > made[0] / 4 && left_out[1] == 0 && made[1] > made[0],
                      "%s: waits made/left out: lazy %llu/%llu, eager %llu/%llu", name, made[0], left_out[0], made[1],
                      left_out[1]);
    }
}
END_TEST

// Exit status 2, a message naming file:line and key, and nothing written.
START_TEST(test_bad_input_writes_nothing)
{
    const std::string bad = g_tmp + "/bad.ini";
    g_file_set_contents(bad.c_str(), "[scenario]\nid=bad\n[l2]\nsize=16MiB\n", -1, nullptr);
    const std::string out = g_tmp + "/out";
    const std::string garbage = g_tmp + "/garbage.patch", bad_patch = g_tmp + "/bad-patch.ini";
    g_file_set_contents(garbage.c_str(), "not a patch\n", -1, nullptr);
    g_file_set_contents(bad_patch.c_str(), ("[scenario]\nid=bp\n[driver]\npatches=" + garbage + "\n").c_str(), -1,
                        nullptr);
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
        // Refused when the driver is built, or by the models: at the key.
        {{"run", "--patch", garbage}, "error: --patch " + garbage + ": driver: patch " + garbage + " does not apply"},
        {{"check", bad_patch}, bad_patch + ":4: error: driver: patch " + garbage + " does not apply"},
        {{"run", "-o", "app.join_group=0.239.0.1"},
         "error: -o app.join_group=0.239.0.1: app.join_group must be an IPv4 multicast address"},
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

// kernel.page_frag_bytes: the skb data buffers come from page fragments.
// With the socket the limit (patched, idle) the reader frees chunks that
// their cache had let go, and the refills take them back: few chunks are
// taken from the heap once the run is in steady state. 0 turns the
// fragments off; a size that is not a power of two of at least 4 KiB is a
// clear error naming the key.
START_TEST(test_page_frag_chunks_recycled)
{
    const std::string s = scenario("imx6q/copybreak-patched-idle.ini");
    std::map<std::string, long long> st[3];
    const char* dur[3] = {"50ms", "100ms", "50ms"};
    for (int i = 0; i < 3; i++) {
        const std::string dir = g_tmp + "/pf" + std::to_string(i);
        std::vector<std::string> a = {"run", s, "-q", "-o", std::string("scenario.duration=") + dur[i], "--run-dir", dir};
        if (i == 2)
            a.insert(a.end(), {"-o", "kernel.page_frag_bytes=0"});
        const proc_result r = fecsim(a);
        ck_assert_msg(r.status == 0, "%s", r.err.c_str());
        st[i] = stats_txt(dir + "/stats.txt");
        ck_assert_msg(st[i].count("kernel.frag_chunks") && st[i].count("kernel.frag_chunk_recycles"), "no frag stats");
    }
    ck_assert_int_gt(st[0]["kernel.frag_chunk_recycles"], 10);
    ck_assert_int_gt(st[1]["kernel.frag_chunk_recycles"], st[0]["kernel.frag_chunk_recycles"] + 10);
    // Counted after the warm-up, which took the RX ring's chunks.
    ck_assert_msg(st[1]["kernel.frag_chunks"] * 10 < st[1]["kernel.frag_chunk_recycles"],
                  "%lld new chunks for %lld recycled", st[1]["kernel.frag_chunks"], st[1]["kernel.frag_chunk_recycles"]);
    ck_assert_int_gt(st[1]["kernel.allocs"], 2 * st[1]["kernel.frag_chunks"] * (32768 / 4096));
    ck_assert_int_eq(st[2]["kernel.frag_chunks"] + st[2]["kernel.frag_chunk_recycles"] + st[2]["kernel.frag_chunk_reuses"], 0);
    ck_assert_int_gt(st[2]["kernel.allocs"], 1000);
    const proc_result bad =
        fecsim({"run", s, "-q", "-o", "scenario.duration=1ms", "-o", "kernel.page_frag_bytes=5000", "--run-dir", g_tmp + "/pfbad"});
    ck_assert_int_ne(bad.status, 0);
    ck_assert_msg(bad.err.find("page_frag_bytes") != std::string::npos, "%s", bad.err.c_str());
    ck_assert(!exists(g_tmp + "/pfbad/stats.json"));
}
END_TEST

// stack.meta_bytes: read-only lines the receive path reads every frame stay
// in CPU0's L1 and cost little on an idle board; under the hog their L2
// copies are replaced and each L1 eviction of one is a DRAM refill, so the
// same reads cost the stressed stack several times more per frame.
START_TEST(test_stack_meta_lines_feel_the_hog)
{
    double extra[2];
    const char* cases[2] = {"imx6q/copybreak-patched-idle.ini", "imx6q/copybreak-patched-stress.ini"};
    for (int c = 0; c < 2; c++) {
        double per_frame[2];
        for (int m = 0; m < 2; m++) {
            const std::string dir = g_tmp + "/meta" + std::to_string(c) + std::to_string(m);
            const proc_result r = fecsim({"run", scenario(cases[c]), "-q", "-o", "scenario.duration=100ms", "-o",
                                          m ? "stack.meta_bytes=5KiB" : "stack.meta_bytes=0", "--run-dir", dir});
            ck_assert_msg(r.status == 0, "%s", r.err.c_str());
            std::map<std::string, long long> st = stats_txt(dir + "/stats.txt");
            ck_assert_int_gt(st["softnet.processed"], 1000);
            per_frame[m] = (double)st["cpu0.cat_stack"] / (double)st["softnet.processed"];
        }
        extra[c] = per_frame[1] - per_frame[0];
    }
    ck_assert_msg(extra[0] > 0 && extra[0] < 200, "idle: %.0f cycles a frame for 160 lines", extra[0]);
    ck_assert_msg(extra[1] > 3 * extra[0] + 300, "stress: %.0f cycles a frame, idle %.0f", extra[1], extra[0]);
}
END_TEST

Suite* suite_cli_run(void)
{
    Suite* s = suite_create("cli_run");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_shipped_scenarios_check);
    tcase_add_test(tc, test_json_contract);
    tcase_add_test(tc, test_cpu_split_at_region_edges);
    tcase_add_test(tc, test_results_layout);
    tcase_add_test(tc, test_deterministic_stats);
    tcase_add_test(tc, test_lazy_sync_exact);
    tcase_add_test(tc, test_bad_input_writes_nothing);
    tcase_add_test(tc, test_kill_is_atomic);
    tcase_add_test(tc, test_run_dir);
    tcase_add_test(tc, test_stale_cleaner_follows_no_link);
    tcase_add_test(tc, test_page_frag_chunks_recycled);
    tcase_add_test(tc, test_stack_meta_lines_feel_the_hog);
    suite_add_tcase(s, tc);
    TCase* bal = tests_tcase("balance", 4 * TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(bal, setup, teardown);
    tcase_add_test(bal, test_frame_balance_shipped);
    tcase_add_test(bal, test_series_busy_bounded);
    suite_add_tcase(s, bal);
    return s;
}
