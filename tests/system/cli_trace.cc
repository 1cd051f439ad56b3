// fecsim run --trace-events: trace.json is a Chrome trace-event document
// whose events are in time order, and the first frame's story is told in
// causal order: it arrives at the MAC, its descriptor is written back, the
// interrupt line rises, CPU0 takes the hardirq (the driver's handler inside
// it), a NAPI poll runs, the application is woken. Tracing changes no
// statistic.
#include "tests/lib.h"
#include <json-glib/json-glib.h>
#include <limits>
#include "tests/system/cli.h"

namespace {

std::string g_tmp;
void setup() { g_tmp = tmp_dir(); }
void teardown() { rm_rf(g_tmp); }

struct ev {
    std::string ph, name;
    int pid = 0, tid = 0;
    double ts = 0, dur = 0;
};

// The first event at or after t that matches; ts = +inf if none.
ev first_after(const std::vector<ev>& v, double t, int pid, const std::string& name, int tid = -1)
{
    for (const auto& e : v)
        if (e.ts >= t && e.pid == pid && e.name == name && (tid < 0 || e.tid == tid))
            return e;
    ev none;
    none.ts = std::numeric_limits<double>::infinity();
    return none;
}

} // namespace

START_TEST(test_trace_events)
{
    proc_result r = fecsim({"run", "-q", "-o", "scenario.duration=20ms", "--trace-events", "--run-dir",
                            g_tmp + "/traced"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    r = fecsim({"run", "-q", "-o", "scenario.duration=20ms", "--run-dir", g_tmp + "/plain"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    ck_assert_msg(read_text(g_tmp + "/traced/stats.json") == read_text(g_tmp + "/plain/stats.json"),
                  "tracing changed the statistics");
    ck_assert(!exists(g_tmp + "/plain/trace.json"));

    JsonParser* p = json_parser_new();
    GError* e = nullptr;
    ck_assert_msg(json_parser_load_from_file(p, (g_tmp + "/traced/trace.json").c_str(), &e), "%s",
                  e ? e->message : "");
    JsonObject* root = json_node_get_object(json_parser_get_root(p));
    JsonArray* a = json_object_get_array_member(root, "traceEvents");
    ck_assert(a);
    std::vector<ev> v;
    double last = -1;
    for (guint i = 0; i < json_array_get_length(a); i++) {
        JsonObject* o = json_array_get_object_element(a, i);
        ev x;
        x.ph = json_object_get_string_member(o, "ph");
        x.pid = (int)json_object_get_int_member(o, "pid");
        if (x.ph == "M")
            continue;
        ck_assert_msg(json_object_has_member(o, "ts") && json_object_has_member(o, "tid"), "event %u", i);
        x.tid = (int)json_object_get_int_member(o, "tid");
        x.ts = json_object_get_double_member(o, "ts");
        if (json_object_has_member(o, "name"))
            x.name = json_object_get_string_member(o, "name");
        if (json_object_has_member(o, "dur"))
            x.dur = json_object_get_double_member(o, "dur");
        ck_assert_msg(x.ts >= last, "event %u at %f before %f: not in time order", i, x.ts, last);
        last = x.ts;
        v.push_back(x);
    }
    g_object_unref(p);
    ck_assert_uint_gt(v.size(), 1000);

    const ev arrive = first_after(v, 0, 3, "RX frame starts");
    const ev wb = first_after(v, arrive.ts, 3, "RX BD written back (last)");
    const ev irq = first_after(v, wb.ts, 3, "IRQ asserted");
    const ev hard = first_after(v, irq.ts, 1, "hardirq", 0);
    const ev isr = first_after(v, hard.ts, 2, "fec_enet_interrupt", 0);
    const ev poll = first_after(v, hard.ts, 1, "NAPI poll", 0);
    const ev wake = first_after(v, poll.ts, 1, "wakeup");
    ck_assert_msg(arrive.ts < wb.ts && wb.ts <= irq.ts && irq.ts <= hard.ts && hard.ts <= poll.ts &&
                      poll.ts <= wake.ts && wake.ts < std::numeric_limits<double>::infinity(),
                  "frame %f, BD %f, IRQ %f, hardirq %f, NAPI poll %f, wakeup %f", arrive.ts, wb.ts, irq.ts, hard.ts,
                  poll.ts, wake.ts);
    ck_assert_msg(isr.ts >= hard.ts && isr.ts <= hard.ts + hard.dur, "handler at %f outside hardirq [%f, +%f]",
                  isr.ts, hard.ts, hard.dur);
    ck_assert_msg(first_after(v, 0, 2, "fec_enet_rx_napi").ts < std::numeric_limits<double>::infinity(),
                  "no NAPI poll function span");
}
END_TEST

// The function filter: '' records none, a glob only what it matches.
START_TEST(test_trace_functions_filter)
{
    proc_result r = fecsim({"run", "-q", "-o", "scenario.duration=5ms", "--trace-events", "--trace-functions",
                            "fec_enet_rx_n*", "--run-dir", g_tmp + "/one"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    const std::string t = read_text(g_tmp + "/one/trace.json");
    ck_assert(t.find("\"fec_enet_rx_napi\"") != std::string::npos);
    ck_assert(t.find("\"fec_probe\"") == std::string::npos);
    r = fecsim({"run", "-q", "-o", "scenario.duration=5ms", "--trace-events", "--trace-functions", "", "--run-dir",
                g_tmp + "/none"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    ck_assert(read_text(g_tmp + "/none/trace.json").find("\"ph\":\"B\",\"pid\":2") == std::string::npos);
}
END_TEST

Suite* suite_cli_trace(void)
{
    Suite* s = suite_create("cli_trace");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_trace_events);
    tcase_add_test(tc, test_trace_functions_filter);
    suite_add_tcase(s, tc);
    return s;
}
