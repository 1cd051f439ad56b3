// fecsim regress end to end: an unchanged driver reproduces its baseline
// exactly, a good patch is reported as improved, a patch that adds a
// coherence violation or a needless sync is a regression (exit status 1),
// bad input is exit status 2 with nothing written, and the JSON and JUnit
// reports are well formed with the right counts.
// Scenarios come from the default suite (scenarios/regress) shortened with
// -o scenario.duration so that each run takes a fraction of a second.
#include "tests/lib.h"
#include <glib.h>
#include <json-glib/json-glib.h>
#include <map>
#include "tests/system/cli.h"

namespace {

std::string g_tmp;
void setup() { g_tmp = tmp_dir(); }
void teardown() { rm_rf(g_tmp); }

std::string scenario(const char* name) { return fecsim_srcdir() + "/scenarios/regress/" + name; }
std::string patch(const char* name) { return fecsim_srcdir() + "/drivers/fec/patches/" + name; }
std::string fixture(const char* name) { return fecsim_srcdir() + "/tests/fixtures/" + name; }

// The loaded case: 46.3 k frames/s of 246 B, the stock driver loses ~28 %.
const char* const k_loaded = "regress-rx-46k-246-idle";

std::vector<std::string> args(std::vector<std::string> a, const std::vector<std::string>& scenarios)
{
    a.insert(a.end(), {"-j", "2", "--out", g_tmp + "/res", "-o", "scenario.duration=20ms"});
    a.insert(a.end(), scenarios.begin(), scenarios.end());
    return a;
}

proc_result record(const std::vector<std::string>& scenarios)
{
    proc_result r = fecsim(args({"regress", "--update-baseline", "--baseline", g_tmp + "/base", "--quiet"}, scenarios));
    ck_assert_msg(r.status == 0, "--update-baseline: exit %d: %s", r.status, r.err.c_str());
    return r;
}

struct report {
    JsonParser* parser = json_parser_new();
    JsonObject* root = nullptr;
    ~report() { g_object_unref(parser); }
    explicit report(const std::string& text)
    {
        GError* e = nullptr;
        ck_assert_msg(json_parser_load_from_data(parser, text.c_str(), -1, &e), "not JSON (%s): %s",
                      e ? e->message : "", text.c_str());
        root = json_node_get_object(json_parser_get_root(parser));
        CK_STR_EQ(json_object_get_string_member(root, "format"), "fecsim-regress-1");
    }
    gint64 count(const char* k) const
    {
        return json_object_get_int_member(json_object_get_object_member(root, "counts"), k);
    }
    JsonObject* scenario(const std::string& id) const
    {
        JsonArray* a = json_object_get_array_member(root, "scenarios");
        for (guint i = 0; i < json_array_get_length(a); i++) {
            JsonObject* s = json_array_get_object_element(a, i);
            if (id == json_object_get_string_member(s, "id"))
                return s;
        }
        ck_abort_msg("no scenario %s in the report", id.c_str());
        return nullptr;
    }
    // metric -> verdict of one scenario
    std::map<std::string, std::string> verdicts(const std::string& id) const
    {
        std::map<std::string, std::string> m;
        JsonArray* a = json_object_get_array_member(scenario(id), "metrics");
        for (guint i = 0; i < json_array_get_length(a); i++) {
            JsonObject* r = json_array_get_object_element(a, i);
            m[json_object_get_string_member(r, "metric")] = json_object_get_string_member(r, "verdict");
        }
        return m;
    }
};

// Well-formed XML (GMarkup is strict about nesting, quoting and entities);
// counts the elements by name.
std::map<std::string, int> xml_elements(const std::string& text)
{
    std::map<std::string, int> n;
    GMarkupParser p{};
    p.start_element = [](GMarkupParseContext*, const gchar* name, const gchar**, const gchar**, gpointer data,
                         GError**) { (*static_cast<std::map<std::string, int>*>(data))[name]++; };
    GMarkupParseContext* ctx = g_markup_parse_context_new(&p, G_MARKUP_DEFAULT_FLAGS, &n, nullptr);
    // GMarkup does not take the XML declaration.
    std::string body = text;
    if (body.rfind("<?xml", 0) == 0)
        body = body.substr(body.find("?>") + 2);
    GError* e = nullptr;
    const bool ok = g_markup_parse_context_parse(ctx, body.c_str(), (gssize)body.size(), &e) &&
                    g_markup_parse_context_end_parse(ctx, &e);
    ck_assert_msg(ok, "not well-formed XML: %s\n%s", e ? e->message : "", text.c_str());
    g_markup_parse_context_free(ctx);
    return n;
}

} // namespace

// The driver as it is reproduces a fresh baseline exactly, in every format;
// recording twice gives the same bytes.
START_TEST(test_unchanged_is_exact)
{
    const std::vector<std::string> sc = {scenario("rx-46k-246-idle.ini"), scenario("rx-10k-246-stress.ini")};
    record(sc);
    const std::string b1 = read_text(g_tmp + "/base/" + k_loaded + ".json");
    ck_assert(b1.find("\"fecsim-regress-baseline-1\"") != std::string::npos);
    ck_assert_msg(b1.find(g_tmp) == std::string::npos && b1.find("wall_time") == std::string::npos,
                  "baseline holds paths or wall time");
    record(sc);
    CK_STR_EQ(read_text(g_tmp + "/base/" + k_loaded + ".json"), b1);

    proc_result r = fecsim(args({"regress", "--baseline", g_tmp + "/base", "--format=json"}, sc));
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    report rep(r.out);
    CK_STR_EQ(json_object_get_string_member(rep.root, "verdict"), "ok");
    ck_assert_int_eq(rep.count("scenarios"), 2);
    ck_assert_int_ge(rep.count("metrics"), 20);
    ck_assert_int_eq(rep.count("ok"), rep.count("metrics"));
    JsonArray* scs = json_object_get_array_member(rep.root, "scenarios");
    for (guint i = 0; i < json_array_get_length(scs); i++) {
        JsonArray* m = json_object_get_array_member(json_array_get_object_element(scs, i), "metrics");
        for (guint k = 0; k < json_array_get_length(m); k++) {
            JsonObject* row = json_array_get_object_element(m, k);
            ck_assert_msg(json_object_get_double_member(row, "delta") == 0.0, "%s: delta %g",
                          json_object_get_string_member(row, "metric"), json_object_get_double_member(row, "delta"));
            ck_assert(json_object_get_double_member(row, "baseline") == json_object_get_double_member(row, "new"));
        }
    }
    // The runs and the reports are kept.
    const std::string dir = json_object_get_string_member(rep.root, "results_dir");
    for (const char* f : {"report.txt", "report.json", "report.xml"})
        ck_assert_msg(exists(dir + "/" + f), "%s/%s missing", dir.c_str(), f);
    ck_assert(exists(dir + "/" + k_loaded + "/summary.json"));

    proc_result t = fecsim(args({"regress", "--baseline", g_tmp + "/base", "--quiet"}, sc));
    ck_assert_int_eq(t.status, 0);
    ck_assert_msg(t.out.find("verdict: no regression\n") != std::string::npos, "%s", t.out.c_str());
    ck_assert(t.out.find("REGRESSED ") == std::string::npos);
    CK_STR_EQ(t.err, "");

    proc_result j = fecsim(args({"regress", "--baseline", g_tmp + "/base", "--quiet", "--format=junit"}, sc));
    ck_assert_int_eq(j.status, 0);
    auto n = xml_elements(j.out);
    ck_assert_int_eq(n["testsuites"], 1);
    ck_assert_int_eq(n["testsuite"], 2);
    ck_assert_int_eq(n["testcase"], rep.count("metrics"));
    ck_assert_int_eq(n["failure"], 0);
}
END_TEST

// partial-sync: less loss and less maintenance, but the coherence checker
// flags the missing sync_for_device (device_write_cpu_owned). Improvements
// are reported as such; the new violation is a regression: exit status 1.
// The RX core no longer saturates, so NAPI completes and the interrupt comes
// once per frame: irq_rate_hz is the one metric that regressed.
START_TEST(test_partial_sync_improves_but_adds_violation)
{
    record({scenario("rx-46k-246-idle.ini")});
    proc_result r =
        fecsim(args({"regress", "--baseline", g_tmp + "/base", "--format=json", "--patch", patch("partial-sync.patch")},
                    {scenario("rx-46k-246-idle.ini")}));
    ck_assert_msg(r.status == 1, "exit %d: %s", r.status, r.err.c_str());
    report rep(r.out);
    CK_STR_EQ(json_object_get_string_member(rep.root, "verdict"), "regressed");
    ck_assert_int_eq(json_object_get_int_member(rep.root, "exit_status"), 1);
    auto v = rep.verdicts(k_loaded);
    CK_STR_EQ(v["loss_pct"], "improved");
    CK_STR_EQ(v["cycles_per_frame.dma_sync"], "improved");
    CK_STR_EQ(v["drops.mac_fifo"], "improved");
    CK_STR_EQ(v["coherence.violations"], "new-violation");
    CK_STR_EQ(v["irq_rate_hz"], "REGRESSED");
    ck_assert_int_eq(rep.count("regressed"), 1);
    ck_assert_int_eq(rep.count("new_violations"), 1);
    ck_assert_int_ge(rep.count("improved"), 3);
    JsonArray* added =
        json_object_get_array_member(json_object_get_object_member(rep.scenario(k_loaded), "violations"), "new");
    ck_assert_uint_eq(json_array_get_length(added), 1);
    JsonObject* site = json_array_get_object_element(added, 0);
    CK_STR_EQ(json_object_get_string_member(site, "kind"), "device_write_cpu_owned");
    const std::string where = json_object_get_string_member(site, "where");
    ck_assert_msg(where.find("fec_enet_") == 0 && where.find("(fec_main.c:") != std::string::npos, "%s", where.c_str());

    // The same run's JUnit report: two failures, the violation and the IRQ rate.
    const std::string xml =
        read_text(std::string(json_object_get_string_member(rep.root, "results_dir")) + "/report.xml");
    auto n = xml_elements(xml);
    ck_assert_int_eq(n["testcase"], rep.count("metrics"));
    ck_assert_int_eq(n["failure"], 2);
    ck_assert(xml.find("failures=\"2\"") != std::string::npos);
    ck_assert(xml.find("type=\"new-violation\"") != std::string::npos);
    ck_assert(xml.find("device_write_cpu_owned at fec_enet_") != std::string::npos);

    // The text table says both.
    proc_result t = fecsim(args(
        {"regress", "--baseline", g_tmp + "/base", "--changes-only", "--quiet", "--patch", patch("partial-sync.patch")},
        {scenario("rx-46k-246-idle.ini")}));
    ck_assert_int_eq(t.status, 1);
    ck_assert_msg(t.out.find("loss_pct") != std::string::npos && t.out.find("improved") != std::string::npos &&
                      t.out.find("new violation: device_write_cpu_owned at fec_enet_") != std::string::npos &&
                      t.out.find("times: no sync_for_device since this sync_for_cpu\n") != std::string::npos &&
                      t.out.find("verdict: REGRESSED (1 scenario: regress-rx-46k-246-idle)") != std::string::npos,
                  "%s", t.out.c_str());
    ck_assert(t.out.find("  ok\n") == std::string::npos);  // --changes-only: no ok row
}
END_TEST

// The balanced variant of the same idea has no violation. Below the rate at
// which the stock driver saturates CPU0 (30 k frames/s) it only improves:
// exit 0. At 46.3 k frames/s it removes the driver's bottleneck: the loss
// falls, NAPI completes and unmasks the interrupt (reported as regressed,
// exit 1), and the reader, now the limit, may drop at the socket: nothing
// else regresses.
START_TEST(test_balanced_partial_sync_improves)
{
    record({scenario("rx-30k-246-idle.ini"), scenario("rx-46k-246-idle.ini")});
    proc_result r = fecsim(args(
        {"regress", "--baseline", g_tmp + "/base", "--format=json", "--patch", patch("balanced-partial-sync.patch")},
        {scenario("rx-30k-246-idle.ini")}));
    ck_assert_msg(r.status == 0, "exit %d: %s\n%s", r.status, r.err.c_str(), r.out.c_str());
    report rep(r.out);
    auto v = rep.verdicts("regress-rx-30k-246-idle");
    CK_STR_EQ(v["cycles_per_frame.dma_sync"], "improved");
    CK_STR_EQ(v["coherence.violations"], "ok");
    ck_assert_int_eq(rep.count("regressed") + rep.count("new_violations"), 0);

    r = fecsim(args(
        {"regress", "--baseline", g_tmp + "/base", "--format=json", "--patch", patch("balanced-partial-sync.patch")},
        {scenario("rx-46k-246-idle.ini")}));
    ck_assert_msg(r.status == 1, "exit %d: %s\n%s", r.status, r.err.c_str(), r.out.c_str());
    report rep2(r.out);
    auto w = rep2.verdicts(k_loaded);
    CK_STR_EQ(w["loss_pct"], "improved");
    CK_STR_EQ(w["drops.mac_fifo"], "improved");
    CK_STR_EQ(w["coherence.violations"], "ok");
    CK_STR_EQ(w["irq_rate_hz"], "REGRESSED");
    for (const auto& [metric, verdict] : w)
        ck_assert_msg(verdict != "REGRESSED" || metric == "irq_rate_hz" || metric == "drops.socket", "%s regressed",
                      metric.c_str());
    ck_assert_int_ge(rep2.count("regressed"), 1);
    ck_assert_int_eq(rep2.count("new_violations"), 0);
}
END_TEST

// A needless second sync of the whole 2033-B buffer per frame
// (tests/fixtures/extra-sync.patch): more maintenance per frame, more cycles
// per frame and, with the RX core saturated, more loss.
START_TEST(test_extra_sync_regresses)
{
    record({scenario("rx-46k-246-idle.ini")});
    proc_result r =
        fecsim(args({"regress", "--baseline", g_tmp + "/base", "--format=json", "--patch", fixture("extra-sync.patch")},
                    {scenario("rx-46k-246-idle.ini")}));
    ck_assert_msg(r.status == 1, "exit %d: %s", r.status, r.err.c_str());
    report rep(r.out);
    auto v = rep.verdicts(k_loaded);
    for (const char* m :
         {"cycles_per_frame.dma_sync", "cycles_per_frame.total", "dma_sync.cycles", "loss_pct", "drops.mac_fifo"})
        CK_STR_EQ(std::string(m) + "=" + v[m], std::string(m) + "=REGRESSED");
    CK_STR_EQ(v["coherence.violations"], "ok");
    CK_STR_EQ(v["payload.corrupted"], "ok");
    ck_assert_int_eq(rep.count("improved"), 0);
    ck_assert_int_eq(rep.count("new_violations"), 0);
}
END_TEST

// Bad input: exit status 2, a message that says what and where, nothing written.
START_TEST(test_bad_input)
{
    const std::string sc = scenario("rx-10k-246-idle.ini");
    const std::string out = g_tmp + "/res";
    // No baseline yet.
    proc_result m = fecsim(args({"regress", "--baseline", g_tmp + "/none"}, {sc}));
    ck_assert_int_eq(m.status, 2);
    ck_assert_msg(m.err.find("no baseline for scenario 'regress-rx-10k-246-idle'") != std::string::npos &&
                      m.err.find("--update-baseline") != std::string::npos,
                  "%s", m.err.c_str());
    ck_assert(!exists(out) && !exists(g_tmp + "/none"));

    record({sc});
    const std::string b = read_text(g_tmp + "/base/regress-rx-10k-246-idle.json");
    proc_result p =
        fecsim(args({"regress", "--baseline", g_tmp + "/base", "--patch", fixture("does-not-apply.patch")}, {sc}));
    ck_assert_int_eq(p.status, 2);
    ck_assert_msg(p.err.find("does-not-apply.patch does not apply") != std::string::npos, "%s", p.err.c_str());
    CK_STR_EQ(p.out, "");
    proc_result c = fecsim(args(
        {"regress", "--baseline", g_tmp + "/base", "--update-baseline", "--driver", fixture("bad-compile")}, {sc}));
    ck_assert_int_eq(c.status, 2);
    ck_assert_msg(c.err.find("does not compile") != std::string::npos &&
                      c.err.find("undeclared_identifier") != std::string::npos,
                  "%s", c.err.c_str());
    CK_STR_EQ(read_text(g_tmp + "/base/regress-rx-10k-246-idle.json"), b);  // not overwritten
    proc_result f = fecsim(args({"regress", "--baseline", g_tmp + "/base", "--format=xml"}, {sc}));
    ck_assert_int_eq(f.status, 2);
    ck_assert(f.err.find("--format=xml: expected text, json or junit") != std::string::npos);
    // The baseline was recorded for 20 ms.
    proc_result d =
        fecsim({"regress", "--baseline", g_tmp + "/base", "--out", out, "-o", "scenario.duration=30ms", sc});
    ck_assert_int_eq(d.status, 2);
    ck_assert_msg(d.err.find("scenario.duration: 20ms in the baseline, 30ms now") != std::string::npos, "%s",
                  d.err.c_str());
    // The runs of the recordings are all there is in the results root.
    const auto kept = entries(out + "/regress");
    ck_assert_uint_eq(kept.size(), 1);
    ck_assert_uint_eq(entries(out + "/regress", true).size(), 1);  // no temporary directory left
    // Not bad input: a [driver] key is part of the driver under test, compared and named.
    proc_result t = fecsim(args({"regress", "--baseline", g_tmp + "/base", "-o", "driver.copybreak=0"}, {sc}));
    ck_assert_msg(t.status == 0 || t.status == 1, "exit %d: %s", t.status, t.err.c_str());
    ck_assert_msg(t.out.find("regress-rx-10k-246-idle: driver tunable changed since the baseline: driver.copybreak: "
                             "256B -> 0B") != std::string::npos,
                  "%s", t.out.c_str());
    for (const auto& e : entries(out + "/regress"))
        if (e.size() < 9 || e.compare(e.size() - 9, 9, "-baseline") != 0)
            rm_rf(out + "/regress/" + e);  // keep only the recording's

    // A suite file with mistakes: every one with FILE:LINE.
    const std::string dir = g_tmp + "/suite";
    ck_assert_int_eq(g_mkdir_with_parents(dir.c_str(), 0777), 0);
    g_file_set_contents((dir + "/a.ini").c_str(), ("[scenario]\nid=a\ninclude=" + sc + "\n").c_str(), -1, nullptr);
    g_file_set_contents((dir + "/suite.ini").c_str(),
                        "[tolerances]\nloss_pct=0.5\ncycles_per_frame.totl=2%\nirq_rate_hz=five\n"
                        "coherence.violations=1\n[limits]\nx=1\n",
                        -1, nullptr);
    proc_result s = fecsim({"regress", "--baseline", g_tmp + "/base", "--out", out, dir});
    ck_assert_int_eq(s.status, 2);
    for (const char* e : {"suite.ini:3: error: unknown metric 'cycles_per_frame.totl' in [tolerances]; did you mean "
                          "'cycles_per_frame.total'?",
                          "suite.ini:4: error: tolerances.irq_rate_hz: 'five' is not a tolerance",
                          "suite.ini:5: error: tolerances.coherence.violations: '1': must be 0",
                          "suite.ini:6: error: unknown group [limits]"})
        ck_assert_msg(s.err.find(e) != std::string::npos, "missing '%s' in:\n%s", e, s.err.c_str());
    ck_assert_uint_eq(entries(out + "/regress").size(), 1);
}
END_TEST

// The checked-in baselines (results/baselines/imx6q) are those of the
// default suite with the driver as it is: every delta 0 (else record them
// again: fecsim regress --update-baseline).
START_TEST(test_checked_in_baselines)
{
    proc_result r = fecsim({"regress", "-j", "2", "--quiet", "--format=json", "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 0, "exit %d: %s\n%s", r.status, r.err.c_str(), r.out.c_str());
    report rep(r.out);
    ck_assert_int_ge(rep.count("scenarios"), 10);
    ck_assert_msg(
        rep.count("ok") == rep.count("metrics"),
        "the default suite does not reproduce results/baselines/imx6q exactly: record them again with "
        "fecsim regress --update-baseline\n%s",
        read_text(std::string(json_object_get_string_member(rep.root, "results_dir")) + "/report.txt").c_str());
}
END_TEST

Suite* suite_cli_regress(void)
{
    Suite* s = suite_create("cli_regress");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_unchanged_is_exact);
    tcase_add_test(tc, test_partial_sync_improves_but_adds_violation);
    tcase_add_test(tc, test_balanced_partial_sync_improves);
    tcase_add_test(tc, test_extra_sync_regresses);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_checked_in_baselines);
    suite_add_tcase(s, tc);
    return s;
}
