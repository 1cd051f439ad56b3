// The summary table (sim/results/summary_metrics.def): its rows are well
// formed, names resolve, and summary.json and the text summary keep their
// layout.
#include "tests/lib.h"
#include <cstring>
#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/results/json.h"
#include "sim/results/summary.h"

using namespace sim;

namespace {

// The conversion of a printf piece: its one '%' directive other than "%%".
std::string conversion(const char* text, int* n)
{
    std::string conv;
    *n = 0;
    for (const char* p = text; (p = std::strchr(p, '%')); p++) {
        if (p[1] == '%') {
            p++;
            continue;
        }
        (*n)++;
        const char* e = p + 1;
        while (*e && std::strchr("0123456789.-+ #", *e))
            e++;
        while (*e == 'l')
            e++;
        conv.assign(p, e + 1);
        p = e;
    }
    return conv;
}

} // namespace

START_TEST(test_rows_well_formed)
{
    size_t n = 0;
    const summary_metric* rows = summary_metrics(&n);
    ck_assert_uint_gt(n, 40);
    for (size_t i = 0; i < n; i++) {
        const summary_metric& r = rows[i];
        ck_assert_msg(*r.label, "%s: no label", r.name);
        ck_assert_msg(summary_metric_find(r.row == summary_row::core ? std::string("cpu.0.") + r.name : r.name) == &r,
                      "%s: not found by name", r.name);
        if (!r.number()) {
            ck_assert_msg(r.worse == worse_when::none, "%s: not a number, compared", r.name);
            continue;
        }
        ck_assert_msg(*r.source, "%s: no source", r.name);
        ck_assert_msg(!*r.text == !*r.line, "%s: a text piece needs its line, and the other way round", r.name);
        if (!*r.text)
            continue;
        int k = 0;
        const std::string c = conversion(r.text, &k);
        ck_assert_msg(k == 1, "%s: '%s' has %d conversions", r.name, r.text, k);
        if (r.storage == summary_storage::f64)
            ck_assert_msg(std::strchr("fgeFGE", c.back()) && c.find('l') == std::string::npos, "%s: '%s' for a real",
                          r.name, r.text);
        else
            ck_assert_msg(c.size() >= 4 && c.compare(c.size() - 3, 3, "llu") == 0, "%s: '%s' for an integer",
                          r.name, r.text);
        if (r.row == summary_row::core)
            ck_assert_msg(r.text[0] == '%' && g_ascii_isdigit(r.text[1]), "%s: a cpu cell starts with its width",
                          r.name);
    }
}
END_TEST

START_TEST(test_lookup)
{
    const summary_metric* m = summary_metric_find("drops.mac_fifo");
    ck_assert(m && m->row == summary_row::counter && m->worse == worse_when::higher);
    CK_STR_EQ(m->unit, "frames");
    m = summary_metric_find("cpu.12.idle_pct");
    ck_assert(m && m->row == summary_row::core && m->worse == worse_when::lower);
    CK_STR_EQ(summary_metric_label("cpu.12.idle_pct").c_str(), "idle time of core 12");
    CK_STR_EQ(summary_metric_label("loss_pct").c_str(), "frames offered but not delivered intact to the application");
    ck_assert(!summary_metric_find("cpu.1234.idle_pct") && !summary_metric_find("cpu.x.idle_pct"));
    ck_assert(!summary_metric_find("idle_pct") && !summary_metric_find("drops") && !summary_metric_find(""));
    CK_STR_EQ(summary_metric_label("no.such").c_str(), "");
}
END_TEST

START_TEST(test_counters_summed)
{
    run_summary s;
    s.drops_mac_fifo = 99;  // overwritten
    summary_fill_counters(&s, {{"enet.rx_fifo_drops", 3}, {"enet.rx_truncated", 4}, {"app.verified", 5}});
    ck_assert_uint_eq(s.drops_mac_fifo, 7);
    ck_assert_uint_eq(s.payload_verified, 5);
    ck_assert_uint_eq(s.payload_corrupted, 0);  // app.corrupted + app.short_payload, both absent
}
END_TEST

// The members of summary.json in order, and the text summary line by line.
START_TEST(test_layout)
{
    run_summary s;
    summary_extra x;
    s.scenario = "t";
    s.frames_offered = 10;
    s.frames_delivered = 9;
    s.loss_pct = 10;
    s.cpf_total = 1234.4;
    s.cpu.resize(2);
    s.cpu[1].core = 1;
    s.cpu[1].idle_pct = 99.96;
    s.violations.push_back({"api_misuse", "f (fec_main.c:1)", "", 2, 0x10, 0x20, 64});
    s.coherence_violations = 1;
    s.tx_on_wire = 3;
    x.log_guest_errors = 2;
    JsonNode* n = summary_node(s, x);
    const std::string j = json_to_string(n, false);
    json_node_unref(n);
    const char* keys[] = {"\"scenario\":",     "\"seed\":",        "\"sim_time_s\":",   "\"wall_time_s\":",
                          "\"realtime_factor\":", "\"frames_offered\":", "\"frames_delivered\":", "\"loss_pct\":",
                          "\"drops\":{\"mac_fifo\":", "\"payload\":{\"verified\":", "\"irq_rate_hz\":",
                          "\"napi_polls\":", "\"cpu\":[{\"core\":0,\"irq_pct\":", "\"cycles_per_frame\":{\"total\":",
                          "\"dma_sync\":{\"calls\":", "\"coherence\":{\"violations\":1,\"synced_bytes\":",
                          "\"sites\":[{\"kind\":\"api_misuse\",\"where\":\"f (fec_main.c:1)\",\"count\":2,"
                          "\"address\":16,\"buffer\":32,\"buffer_len\":64,\"detail\":\"\"}]}",
                          "\"tx\":{\"sent\":0,\"refused\":0,\"on_wire\":3,", "\"description\":", "\"warmup_s\":",
                          "\"run_id\":", "\"config_hash\":", "\"fecsim_version\":", "\"patches\":[]",
                          "\"log\":{\"errors\":0,\"guest_errors\":2,\"unimplemented\":0,\"warnings\":0}}"};
    size_t at = 0;
    for (const char* k : keys) {
        const size_t p = j.find(k, at);
        ck_assert_msg(p != std::string::npos, "%s not after offset %zu in %s", k, at, j.c_str());
        at = p;
    }
    const std::string t = summary_text(s, x, "");
    for (const char* line :
         {"  frames        offered 10, delivered 9, loss 10.00 %, in flight at the start 0, at the end 0\n",
          "  cycles/frame  1234 total: dma_sync 0, copy 0, stack 0, mmio 0, descriptor 0\n",
          "  tx            sent 0, refused 0; on the wire 3, verified 0, corrupted 0\n",
          "  coherence     1 violations\n                api_misuse at f (fec_main.c:1): 2 times, buffer 0x20+64\n",
          "  cpu           core    irq%  softirq%   sys%  user%  idle%\n"
          "                   0     0.0       0.0    0.0    0.0    0.0\n"
          "                   1     0.0       0.0    0.0    0.0  100.0\n",
          "  log           2 guest errors, 0 unimplemented, 0 warnings, 0 errors (sim.log)\n"})
        ck_assert_msg(t.find(line) != std::string::npos, "no line %s in\n%s", line, t.c_str());
}
END_TEST

Suite* suite_summary(void)
{
    Suite* s = suite_create("summary");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_rows_well_formed);
    tcase_add_test(tc, test_lookup);
    tcase_add_test(tc, test_counters_summed);
    tcase_add_test(tc, test_layout);
    suite_add_tcase(s, tc);
    return s;
}
