// Every DMA-API rule and every memory check of the coherence checker, each
// on a deliberately broken driver (tests/fixtures/*.patch): the kind (and,
// for api_misuse, the rule that leads the detail) and the driver function
// of the report. docs/models/coherence-rules.md lists them.
#include "tests/lib.h"
#include "tests/system/sys.h"
#include <string>

using namespace models;

namespace {

enum class path { copybreak, full, tx };

// A 16-entry RX ring at 10 kframes/s for 10 ms; `full`: no copybreak (every
// frame unmapped and refilled); `tx`: a sender as well.
sim::run_summary run_fixture(const char* patch, path p)
{
    sim::soc_config c = sys_config(10000, 10);
    c.driver.rx_ring_size = 16;
    c.driver.patches.push_back(sys_fixture(patch));
    if (p == path::full)
        c.driver.copybreak = 0;
    if (p == path::tx) {
        c.tx.enabled = true;
        c.tx.rate_fps = 20000;
        c.tx.start_ps = 4000 * PS_PER_US;
    }
    sim::soc s(c);
    return s.run();
}

std::string all_of(const sim::run_summary& r)
{
    std::string all;
    for (const auto& v : r.violations)
        all += v.kind + "@" + v.where + " [" + v.detail + "]; ";
    return all;
}

// A violation of `kind` (and `rule`) whose site is `func` in the driver.
const sim::summary_site& expect(const sim::run_summary& r, khost::cv_kind kind, khost::api_rule rule,
                               const char* func)
{
    for (const auto& v : r.violations)
        if (v.kind == khost::cv_kind_name(kind) &&
            (rule == khost::api_rule::none || v.detail.rfind(khost::api_rule_name(rule), 0) == 0) &&
            v.where.find(func) != std::string::npos &&
            v.where.find("fec_main.c:") != std::string::npos) {
            if (rule != khost::api_rule::none)
                ck_assert_msg(v.detail.rfind(khost::api_rule_name(rule), 0) == 0, "detail %s", v.detail.c_str());
            return v;
        }
    ck_abort_msg("no %s %s at %s; got: %s", khost::cv_kind_name(kind), khost::api_rule_name(rule), func,
                 all_of(r).c_str());
    return r.violations.front();
}

const sim::summary_site& expect_rule(const sim::run_summary& r, khost::api_rule rule, const char* func)
{
    return expect(r, khost::cv_kind::api_misuse, rule, func);
}

void expect_in(const sim::summary_site& v, const char* what)
{
    ck_assert_msg(v.detail.find(what) != std::string::npos, "'%s' not in: %s", what, v.detail.c_str());
}

} // namespace

START_TEST(test_unmap_size)
{
    const auto r = run_fixture("unmap-size.patch", path::full);
    const auto& v = expect_rule(r, khost::api_rule::unmap_size, "fec_enet_rx_frame");
    expect_in(v, "mapped at fec_enet_new_rxbdp");
    ck_assert_uint_gt(v.count, 50);
}
END_TEST

START_TEST(test_double_unmap)
{
    const auto r = run_fixture("double-unmap.patch", path::full);
    expect_in(expect_rule(r, khost::api_rule::unmap_not_mapped, "fec_enet_rx_frame"), "already unmapped");
}
END_TEST

START_TEST(test_unmap_forgotten)
{
    const auto r = run_fixture("unmap-forgotten.patch", path::full);
    expect_rule(r, khost::api_rule::mapping_leak, "fec_enet_new_rxbdp");
    bool freed = false;
    for (const auto& v : r.violations)
        freed |= v.detail.rfind(khost::api_rule_name(khost::api_rule::free_while_mapped), 0) == 0 && v.detail.find("fec_enet_new_rxbdp") != std::string::npos;
    ck_assert_msg(freed, "no free_while_mapped of a buffer mapped in fec_enet_new_rxbdp: %s", all_of(r).c_str());
}
END_TEST

START_TEST(test_map_error_unchecked)
{
    const auto r = run_fixture("map-error-unchecked.patch", path::full);
    expect_in(expect_rule(r, khost::api_rule::map_error_unchecked, "fec_enet_new_rxbdp"),
              "unmapped at fec_enet_rx_frame");
}
END_TEST

START_TEST(test_sync_outside)
{
    const auto r = run_fixture("sync-outside.patch", path::copybreak);
    expect_rule(r, khost::api_rule::sync_outside, "fec_enet_copybreak");
}
END_TEST

START_TEST(test_remap_overlaps)
{
    const auto r = run_fixture("remap.patch", path::copybreak);
    expect_rule(r, khost::api_rule::map_overlap, "fec_enet_rx_frame");
}
END_TEST

// The rules the data path fixtures leave out, broken once each at open.
START_TEST(test_dma_api_misuse_at_open)
{
    const auto r = run_fixture("dma-api-misuse.patch", path::copybreak);
    using R = khost::api_rule;
    expect_rule(r, R::unmap_direction, "fec_bug_unmap_direction");
    expect_rule(r, R::sync_direction, "fec_bug_sync_ro_for_cpu");
    expect_rule(r, R::sync_ro_for_cpu, "fec_bug_sync_ro_for_cpu");
    expect_rule(r, R::sync_wo_for_device, "fec_bug_sync_wo_for_device");
    expect_rule(r, R::sync_not_mapped, "fec_bug_sync_not_mapped");
    expect_rule(r, R::map_not_dmaable, "fec_bug_map_stack");
    expect_rule(r, R::unmap_invalid, "fec_bug_map_stack");
    expect_rule(r, R::unmap_function, "fec_bug_coherent");
    expect_rule(r, R::unmap_size, "fec_bug_coherent");
    expect_rule(r, R::free_cpu_address, "fec_bug_coherent");
    expect(r, khost::cv_kind::invalid_free, R::none, "fec_bug_invalid_free");
    ck_assert_uint_gt(r.frames_delivered, 50);  // the driver still runs
}
END_TEST

START_TEST(test_skb_overrun)
{
    const auto r = run_fixture("skb-overrun.patch", path::copybreak);
    const auto& v = expect(r, khost::cv_kind::heap_out_of_bounds, khost::api_rule::none, "fec_enet_copybreak");
    expect_in(v, "allocated at fec_enet_copybreak");
    ck_assert_uint_gt(v.count, 50);
}
END_TEST

START_TEST(test_skb_leak)
{
    const auto r = run_fixture("skb-leak.patch", path::copybreak);
    const auto& v = expect(r, khost::cv_kind::memory_leak, khost::api_rule::none, "fec_enet_rx_frame");
    expect_in(v, "skb allocations unreachable");
    ck_assert_uint_gt(v.count, 50);
}
END_TEST

START_TEST(test_double_free)
{
    const auto r = run_fixture("double-free.patch", path::tx);
    const auto& v = expect(r, khost::cv_kind::double_free, khost::api_rule::none, "fec_enet_tx_queue");
    expect_in(v, "first freed at fec_enet_tx_queue");
    ck_assert_uint_gt(r.tx_sent, 50);
}
END_TEST

START_TEST(test_use_after_free)
{
    const auto r = run_fixture("use-after-free.patch", path::tx);
    const auto& v = expect(r, khost::cv_kind::use_after_free, khost::api_rule::none, "fec_enet_tx_queue");
    expect_in(v, "freed at fec_enet_tx_queue");
    expect_in(v, "allocated at khost::tx_task::step");  // the sender's netdev_alloc_skb
}
END_TEST

void add_memcheck_tests(Suite* s)
{
    TCase* tc = tests_tcase("rules", 120);
    tcase_add_test(tc, test_unmap_size);
    tcase_add_test(tc, test_double_unmap);
    tcase_add_test(tc, test_unmap_forgotten);
    tcase_add_test(tc, test_map_error_unchecked);
    tcase_add_test(tc, test_sync_outside);
    tcase_add_test(tc, test_remap_overlaps);
    tcase_add_test(tc, test_dma_api_misuse_at_open);
    tcase_add_test(tc, test_skb_overrun);
    tcase_add_test(tc, test_skb_leak);
    tcase_add_test(tc, test_double_free);
    tcase_add_test(tc, test_use_after_free);
    suite_add_tcase(s, tc);
}
