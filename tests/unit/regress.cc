// fecsim regress logic without processes: metric names and directions,
// tolerances, suite files, verdicts, coherence sites, report formats.
#include "tests/lib.h"
#include <glib.h>
#include <json-glib/json-glib.h>
#include <unistd.h>
#include "sim/results/regress.h"

using namespace sim;

namespace {

tolerance tol(const char* text)
{
    tolerance t;
    std::string err;
    ck_assert_msg(tolerance_parse(text, &t, &err), "%s: %s", text, err.c_str());
    return t;
}

struct json_doc {
    JsonParser* p = json_parser_new();
    explicit json_doc(const std::string& text)
    {
        ck_assert_msg(json_parser_load_from_data(p, text.c_str(), -1, nullptr), "%s", text.c_str());
    }
    ~json_doc() { g_object_unref(p); }
    JsonObject* obj() const { return json_node_get_object(json_parser_get_root(p)); }
};

std::string summary(double loss, double cpf, const std::string& sites)
{
    return "{\"loss_pct\": " + std::to_string(loss) + ", \"cycles_per_frame\": {\"total\": " + std::to_string(cpf) +
           "}, \"cpu\": [{\"core\": 0, \"softirq_pct\": 50.0, \"idle_pct\": 50.0}], "
           "\"coherence\": {\"violations\": " +
           std::to_string(sites.empty() ? 0 : 1) + ", \"sites\": [" + sites + "]}}";
}

regress_suite suite_of(const std::string& text)
{
    gchar* path = nullptr;
    const int fd = g_file_open_tmp("suite-XXXXXX.ini", &path, nullptr);
    ck_assert_int_ge(fd, 0);
    close(fd);
    g_file_set_contents(path, text.c_str(), -1, nullptr);
    regress_suite s;
    std::vector<std::string> errors;
    const bool ok = suite_read(path, &s, &errors);
    unlink(path);
    g_free(path);
    ck_assert_msg(ok, "%s", errors.empty() ? "" : errors[0].c_str());
    return s;
}

} // namespace

START_TEST(test_metrics)
{
    metric_info m;
    ck_assert(regress_metric("loss_pct", &m) && m.worse == worse_when::higher);
    ck_assert(regress_metric("frames_delivered", &m) && m.worse == worse_when::lower);
    ck_assert(regress_metric("cpu.0.softirq_pct", &m) && m.worse == worse_when::higher);
    ck_assert(m.what.find("core 0") != std::string::npos);
    ck_assert(regress_metric("cpu.12.idle_pct", &m) && m.worse == worse_when::lower);
    ck_assert(!regress_metric("cpu.x.idle_pct", &m));
    ck_assert(!regress_metric("cpu.0.idle", &m));
    ck_assert(!regress_metric("napi_polls", &m));  // no direction that always holds
    ck_assert(!regress_metric("wall_time_s", &m));
}
END_TEST

START_TEST(test_tolerances)
{
    ck_assert(tol("0.5").abs == 0.5 && tol("0.5").rel == 0);
    ck_assert(tol("2%").rel == 0.02 && tol("2%").abs == 0);
    const tolerance both = tol(" 5% , 10 ");
    ck_assert(both.rel == 0.05 && both.abs == 10);
    ck_assert(both.allowance(100) == 10 && both.allowance(-1000) == 50);
    ck_assert(tol("0").allowance(1e9) == 0);
    tolerance t;
    std::string err;
    for (const char* bad : {"", "-1", "+1", "2%%", "x", "1,2", "1%,2%", "nan", "inf", "1e999", "0.5 # points"})
        ck_assert_msg(!tolerance_parse(bad, &t, &err), "'%s' accepted", bad);
}
END_TEST

START_TEST(test_verdicts)
{
    const auto up = worse_when::higher, down = worse_when::lower;
    ck_assert(compare_metric(10, 10, tol("0"), up) == verdict::ok);
    ck_assert(compare_metric(10, 10.5, tol("0.5"), up) == verdict::ok);  // at the edge: within
    ck_assert(compare_metric(10, 10.51, tol("0.5"), up) == verdict::regressed);
    ck_assert(compare_metric(10, 9.49, tol("0.5"), up) == verdict::improved);
    ck_assert(compare_metric(10, 9.49, tol("0.5"), down) == verdict::regressed);
    ck_assert(compare_metric(10, 11, tol("0.5"), down) == verdict::improved);
    ck_assert(compare_metric(0, 1, tol("2%"), up) == verdict::regressed);  // relative to 0: any rise
    ck_assert(compare_metric(1000, 1019, tol("2%"), up) == verdict::ok);
    ck_assert(compare_metric(1000, 1021, tol("2%"), up) == verdict::regressed);
    ck_assert(compare_metric(0, 9, tol("2%,10"), up) == verdict::ok);
    CK_STR_EQ(verdict_name(verdict::regressed), "REGRESSED");
    CK_STR_EQ(verdict_name(verdict::new_violation), "new-violation");
    CK_STR_EQ(format_number(0), "0");
    CK_STR_EQ(format_number(-0.0), "0");
    CK_STR_EQ(format_number(52518900), "52518900");
    CK_STR_EQ(format_number(27.915766738660906), "27.9158");
}
END_TEST

START_TEST(test_suite_file)
{
    const regress_suite s =
        suite_of("# comment\n[tolerances]\nloss_pct=0.5\ncpu.0.idle_pct=2\ncoherence.violations=0\n");
    ck_assert_uint_eq(s.metrics.size(), 3);
    CK_STR_EQ(s.metrics[1].info.name, "cpu.0.idle_pct");
    ck_assert(s.metrics[1].info.worse == worse_when::lower);
    // The built-in copy of the default suite's file reads.
    regress_suite b;
    std::vector<std::string> errors;
    ck_assert_msg(suite_read("builtin:regress/suite.ini", &b, &errors), "%s", errors.empty() ? "" : errors[0].c_str());
    ck_assert_uint_ge(b.metrics.size(), 10);
    CK_STR_EQ(suite_file_for_dir("/nonexistent"), "builtin:regress/suite.ini");
    // Errors name the line, in reading order.
    errors.clear();
    regress_suite bad;
    ck_assert(!suite_read("builtin:nonexistent.ini", &bad, &errors));
    errors.clear();
    gchar* path = nullptr;
    const int fd = g_file_open_tmp("suite-XXXXXX.ini", &path, nullptr);
    close(fd);
    g_file_set_contents(path, "[extra]\nk=1\n[tolerances]\nloss=1\nloss_pct=1\nloss_pct=2\n", -1, nullptr);
    ck_assert(!suite_read(path, &bad, &errors));
    ck_assert_uint_ge(errors.size(), 1);
    const std::string all = [&] {
        std::string a;
        for (const auto& e : errors)
            a += e + "\n";
        return a;
    }();
    ck_assert_msg(all.find(":6: error: duplicate key 'loss_pct'") != std::string::npos, "%s", all.c_str());
    errors.clear();
    g_file_set_contents(path, "[extra]\nk=1\n[tolerances]\nloss=1\nloss_pct=1\n", -1, nullptr);
    ck_assert(!suite_read(path, &bad, &errors));
    ck_assert_uint_eq(errors.size(), 2);
    ck_assert_msg(errors[0].find(":1: error: unknown group [extra]") != std::string::npos, "%s", errors[0].c_str());
    ck_assert_msg(errors[1].find(":4: error: unknown metric 'loss' in [tolerances]; did you mean") != std::string::npos,
                  "%s", errors[1].c_str());
    unlink(path);
    g_free(path);
}
END_TEST

START_TEST(test_compare_and_sites)
{
    const regress_suite s =
        suite_of("[tolerances]\nloss_pct=0.5\ncycles_per_frame.total=2%\ncpu.0.idle_pct=1\ncpu.5.idle_pct=1\n"
                 "coherence.violations=0\n");
    const std::string a = "{\"kind\": \"stale_read\", \"where\": \"fec_enet_rx (fec_main.c:10)\", \"count\": 3}";
    const std::string a_moved = "{\"kind\": \"stale_read\", \"where\": \"fec_enet_rx (fec_main.c:14)\", \"count\": 5}";
    const std::string b = "{\"kind\": \"api_misuse\", \"where\": \"fec_enet_rx (fec_main.c:20)\", \"count\": 1}";
    json_doc base(summary(10, 1000, a)), same(summary(10, 1000, a_moved)), worse(summary(12, 1100, b)),
        better(summary(5, 900, ""));
    scenario_report r;
    compare_summaries(base.obj(), same.obj(), s, &r);
    ck_assert(r.compared && !r.regressed());
    ck_assert_uint_eq(r.rows.size(), 4);  // cpu.5 exists on neither side: no row
    for (const auto& row : r.rows)
        ck_assert_msg(row.v == verdict::ok, "%s: %s", row.metric.c_str(),
                      verdict_name(row.v));  // moved line: same site
    compare_summaries(base.obj(), worse.obj(), s, &r);
    ck_assert(r.regressed());
    ck_assert(r.rows[0].v == verdict::regressed && r.rows[1].v == verdict::regressed);
    ck_assert(r.rows[3].v == verdict::new_violation);
    ck_assert_uint_eq(r.new_sites.size(), 1);
    CK_STR_EQ(r.new_sites[0].kind, "api_misuse");
    ck_assert_uint_eq(r.gone_sites.size(), 1);
    compare_summaries(base.obj(), better.obj(), s, &r);
    ck_assert(!r.regressed());
    ck_assert(r.rows[0].v == verdict::improved && r.rows[3].v == verdict::improved);
    // No baseline: rows recorded, no verdict counts.
    compare_summaries(nullptr, worse.obj(), s, &r);
    ck_assert(!r.compared && !r.regressed());

    regress_report rep;
    rep.baseline_dir = "b";
    scenario_report x;
    compare_summaries(base.obj(), worse.obj(), s, &x);
    x.id = "s<1>";
    rep.scenarios.push_back(x);
    ck_assert(rep.regressed());
    const auto c = rep.count();
    ck_assert_uint_eq(c.rows, 4);
    ck_assert_uint_eq(c.regressed, 2);
    ck_assert_uint_eq(c.new_violations, 1);
    const std::string t = report_text(rep, false);
    ck_assert_msg(t.find("new violation: api_misuse at fec_enet_rx (fec_main.c:20), 1 times") != std::string::npos &&
                      t.find("verdict: REGRESSED (1 scenario: s<1>)") != std::string::npos &&
                      t.find("+2 (+20.0%)") != std::string::npos && t.find("(lower is worse)") != std::string::npos,
                  "%s", t.c_str());
    const std::string j = report_junit(rep);
    ck_assert(j.find("name=\"s&lt;1&gt;\"") != std::string::npos);
    ck_assert(j.find("failures=\"3\"") != std::string::npos);
    json_doc rj(report_json(rep));
    CK_STR_EQ(json_object_get_string_member(rj.obj(), "verdict"), "regressed");
}
END_TEST

Suite* suite_regress(void)
{
    Suite* s = suite_create("regress");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_metrics);
    tcase_add_test(tc, test_tolerances);
    tcase_add_test(tc, test_verdicts);
    tcase_add_test(tc, test_suite_file);
    tcase_add_test(tc, test_compare_and_sites);
    suite_add_tcase(s, tc);
    return s;
}
