// The DMA coherence checker on deliberately broken driver variants
// (tests/fixtures/*.patch) and on the correct ones.
#include "tests/lib.h"
#include "tests/system/sys.h"
#include "drivers/shim/simhost.h"
#include "tests/system/cli.h"
#include <cstring>

using namespace models;

// A 16-entry ring: every buffer is handed back and refilled many times.
static sim::soc_config variant(const char* patch, bool fixture, double fps, double ms)
{
    sim::soc_config c = sys_config(fps, ms);
    c.driver.rx_ring_size = 16;
    if (patch)
        c.driver.patches.push_back(fixture ? sys_fixture(patch)
                                           : std::string(FECSIM_SRCDIR) + "/drivers/fec/patches/" + patch);
    return c;
}

static void a53(sim::soc_config& c)
{
    c.mem.l1.inv_is_clean_inv = true;
    c.mem.l1.prefetch_lines = 2;
}

// Exactly one violation of `kind` whose site names `func`; returns its "where".
static std::string expect_kind(const sim::run_summary& r, khost::cv_kind kind, const char* func)
{
    const sim::summary_site* hit = nullptr;
    std::string all;
    for (const auto& v : r.violations) {
        all += v.kind + "@" + v.where + "; ";
        if (v.kind == khost::cv_kind_name(kind))
            hit = &v;
    }
    ck_assert_msg(hit, "no %s violation; got: %s", khost::cv_kind_name(kind), all.c_str());
    ck_assert_msg(hit->where.find(func) != std::string::npos && hit->where.find("fec_main.c:") != std::string::npos,
                  "%s reported at %s", khost::cv_kind_name(kind), hit->where.c_str());
    return hit->where;
}

START_TEST(test_no_sync_for_cpu_caught)
{
    sim::soc s(variant("no-sync-for-cpu.patch", true, 10000, 10));
    const sim::run_summary r = s.run();
    expect_kind(r, khost::cv_kind::cpu_owned_by_dev, "fec_enet_copybreak");
    ck_assert_uint_eq(r.payload_corrupted, 0);  // sync_for_device still invalidates: data happens to be fresh
}
END_TEST

START_TEST(test_short_sync_caught)
{
    sim::soc s(variant("short-sync.patch", true, 10000, 10));
    const sim::run_summary r = s.run();
    const std::string w = expect_kind(r, khost::cv_kind::partial_sync_miss, "fec_enet_copybreak");
    // The report names the short sync's range and its line: the first read
    // past it is byte 64, the sync covered bytes 0-63.
    for (const auto& v : r.violations)
        if (v.kind == "partial_sync_miss")
            ck_assert_msg(v.detail.find("read at byte 64 of the buffer; its last sync_for_cpu covered bytes 0-63; "
                                        "that sync_for_cpu at fec_enet_copybreak (fec_main.c:") == 0,
                          "detail: %s", v.detail.c_str());
    // Sync efficiency sees the short sync: 64 B per frame made visible, and the
    // CPU's reads of its own (synced) lines stop there; the rest were misses.
    const uint64_t frames = sys_stat(s, "kernel.dma_sync_cpu_calls");
    ck_assert_uint_gt(frames, 50);
    ck_assert_uint_eq(r.synced_bytes, 64 * frames);
    ck_assert_uint_eq(r.touched_bytes, 64 * frames);
}
END_TEST

// The dirty line of the CPU's store lingers, the MAC writes the next frame
// into the buffer, the line is evicted (the memory hog thrashes the PL310)
// and written back over the frame.
START_TEST(test_cpu_write_then_eviction_loses_dma_data)
{
    sim::soc_config c = variant("cpu-write-after-handback.patch", true, 46300, 30);
    c.driver.rx_ring_size = 512;
    c.stack.frame_cycles = 30000;  // overload: the ring stays full, buffers wait long
    c.stress.enabled = true;
    sim::soc s(c);
    const sim::run_summary r = s.run();
    expect_kind(r, khost::cv_kind::cpu_owned_by_dev, "fec_enet_rx_frame");
    expect_kind(r, khost::cv_kind::lost_dma_data, "fec_enet_rx_frame");
    ck_assert_uint_gt(r.payload_corrupted, 0);
}
END_TEST

START_TEST(test_patched_driver_on_a53_prefetch_caught)
{
    sim::soc_config c = variant("partial-sync.patch", false, 10000, 10);
    a53(c);
    sim::soc s(c);
    const sim::run_summary r = s.run();
    expect_kind(r, khost::cv_kind::dev_write_cpu_owned, "fec_enet_copybreak");
    ck_assert_uint_eq(r.violations.size(), 1);
    ck_assert_uint_gt(sys_stat(s, "l1_0.prefetches"), 0);
}
END_TEST

static void expect_clean(const char* patch, bool a53_profile)
{
    sim::soc_config c = variant(patch, false, 20000, 15);
    if (a53_profile)
        a53(c);
    sim::soc s(c);
    const sim::run_summary r = s.run();
    std::string all;
    for (const auto& v : r.violations)
        all += v.kind + "@" + v.where + "; ";
    ck_assert_msg(r.violations.empty(), "%s%s: %s", patch ? patch : "stock", a53_profile ? " (A53)" : "", all.c_str());
    ck_assert_uint_eq(r.payload_corrupted + r.payload_duplicated, 0);
    ck_assert_uint_gt(r.frames_delivered, 250);
}

START_TEST(test_stock_clean_on_a9) { expect_clean(nullptr, false); }
END_TEST
START_TEST(test_stock_clean_on_a53) { expect_clean(nullptr, true); }
END_TEST
START_TEST(test_balanced_clean_on_a9) { expect_clean("balanced-partial-sync.patch", false); }
END_TEST
START_TEST(test_balanced_clean_on_a53) { expect_clean("balanced-partial-sync.patch", true); }
END_TEST

// API rules on the checker alone.
START_TEST(test_api_misuse_and_shared_line)
{
    mem::phys_mem pm{mem::phys_mem_config{}};
    const uint64_t B = 0x10000000;
    // Two allocations: [B+0x1000, +100) and [B+0x1064, +64): the second starts
    // inside the first one's last line.
    khost::coherence_checker chk(pm, [&](uint64_t pa, uint64_t* s, uint64_t* l) {
        if (pa >= B + 0x1000 && pa < B + 0x1064) { *s = B + 0x1000; *l = 100; return true; }
        if (pa >= B + 0x1064 && pa < B + 0x10A4) { *s = B + 0x1064; *l = 64; return true; }
        return false;
    });
    const void* site = (const void*)&test_api_misuse_and_shared_line;
    chk.on_dma(SIMHOST_DMA_MAP, B + 0x1000, 100, 2, site);
    chk.on_dma(SIMHOST_DMA_MAPPING_ERROR, B + 0x1000, 0, 0, site);
    chk.on_dma(SIMHOST_DMA_SYNC_CPU, B + 0x1000, 100, 1, site);   // wrong direction
    chk.on_dma(SIMHOST_DMA_UNMAP, B + 0x5000, 100, 2, site);      // not mapped
    chk.on_dma(SIMHOST_DMA_SYNC_DEVICE, B + 0x6000, 64, 2, site); // not mapped
    chk.on_dma(SIMHOST_DMA_UNMAP, B + 0x1000, 64, 2, site);       // size differs
    int shared = 0, misuse = 0;
    for (const auto& v : chk.violations()) {
        shared += v.kind == khost::cv_kind::shared_line;
        misuse += v.kind == khost::cv_kind::api_misuse ? (int)v.count : 0;
    }
    ck_assert_int_eq(shared, 1);
    ck_assert_int_eq(misuse, 4);
    ck_assert(!chk.tracked(B + 0x1000));  // unmapped
}
END_TEST

// tracked_any(pa, size) is the OR of tracked() over the range's lines, for
// ranges across word boundaries of the line bitmap and around a mapping.
START_TEST(test_tracked_any_matches_lines)
{
    mem::phys_mem pm{mem::phys_mem_config{}};
    const uint64_t B = 0x10000000;
    khost::coherence_checker chk(pm, [&](uint64_t pa, uint64_t* s, uint64_t* l) {
        if (pa >= B + 0x4000 && pa < B + 0x4064) { *s = B + 0x4000; *l = 100; return true; }
        return false;
    });
    chk.on_dma(SIMHOST_DMA_MAP, B + 0x4000, 100, 2, (const void*)&test_tracked_any_matches_lines);
    ck_assert(chk.tracked(B + 0x4060) && !chk.tracked(B + 0x4080));
    int found = 0;
    for (uint64_t start = B + 0x3000; start < B + 0x5000; start += 0x18)
        for (uint64_t size : {1ull, 0x20ull, 0x7ffull, 0x1000ull, 0x2800ull}) {
            bool any = false;
            for (uint64_t a = start & ~31ull; a < start + size; a += 32)
                any = any || chk.tracked(a);
            ck_assert_msg(chk.tracked_any(start, size) == any, "0x%llx + 0x%llx", (unsigned long long)(start - B),
                          (unsigned long long)size);
            found += any;
        }
    ck_assert_int_gt(found, 10);
    ck_assert(!chk.tracked_any(B + 0x4000, 0));
}
END_TEST

// The mapping a sync names: found through the line's state while no two
// mappings ever shared a line, through the mapping starts after one did.
// Both ways give the same rules for the same syncs; the second round would
// differ if the line states were still trusted (a line a shared mapping
// dropped gets a fresh state naming mapping 0, here another buffer).
START_TEST(test_sync_lookup_before_and_after_a_shared_line)
{
    mem::phys_mem pm{mem::phys_mem_config{}};
    const uint64_t B = 0x10000000, A = B + 0x2000;  // A: 250 B, lines A..A+0xE0
    khost::coherence_checker chk(pm, [](uint64_t, uint64_t*, uint64_t*) { return false; });
    const void* site = (const void*)&test_sync_lookup_before_and_after_a_shared_line;
    auto count = [&](khost::api_rule r) {
        uint64_t n = 0;
        for (const auto& v : chk.violations())
            n += v.rule == r ? v.count : 0;
        return n;
    };
    auto syncs = [&]() {
        chk.on_dma(SIMHOST_DMA_SYNC_CPU, A, 64, 2, site);         // inside A
        chk.on_dma(SIMHOST_DMA_SYNC_CPU, A + 0xF0, 16, 2, site);  // starts in A, ends past it
        chk.on_dma(SIMHOST_DMA_SYNC_CPU, A + 0xFC, 2, 2, site);   // A's last line, past its end
        chk.on_dma(SIMHOST_DMA_SYNC_CPU, A - 0x20, 4, 2, site);   // the line before A
        chk.on_dma(SIMHOST_DMA_SYNC_DEVICE, A, 250, 2, site);
    };
    chk.on_dma(SIMHOST_DMA_MAP, B + 0x8000, 64, 2, site);  // mapping 0
    chk.on_dma(SIMHOST_DMA_MAP, A, 250, 2, site);
    syncs();
    ck_assert_uint_eq(count(khost::api_rule::sync_outside), 1);
    ck_assert_uint_eq(count(khost::api_rule::sync_not_mapped), 2);
    ck_assert_uint_eq(count(khost::api_rule::map_overlap), 0);
    // A second mapping over A's last line, unmapped again: that line loses its state.
    chk.on_dma(SIMHOST_DMA_MAP, A + 0xE0, 32, 2, site);
    chk.on_dma(SIMHOST_DMA_UNMAP, A + 0xE0, 32, 2, site);
    ck_assert_uint_eq(count(khost::api_rule::map_overlap), 1);
    syncs();
    ck_assert_uint_eq(count(khost::api_rule::sync_outside), 2);
    ck_assert_uint_eq(count(khost::api_rule::sync_not_mapped), 4);
}
END_TEST

// From the command line: --strict-coherence turns a violation into exit 1,
// the summary lists it with its kind and driver site.
START_TEST(test_strict_coherence_cli)
{
    const std::string out = tmp_dir();
    const std::string sc = fecsim_srcdir() + "/scenarios/imx6q/copybreak-";
    proc_result bad = fecsim({"run", sc + "patched-idle.ini", "-o", "scenario.duration=20ms", "-o",
                              "driver.rx_ring_size=16", "--strict-coherence", "--json", "--quiet", "--out", out});
    ck_assert_msg(bad.status == 1, "exit %d: %s", bad.status, bad.err.c_str());
    ck_assert_msg(bad.out.find("\"kind\" : \"device_write_cpu_owned\"") != std::string::npos, "%s", bad.out.c_str());
    ck_assert_msg(bad.out.find("fec_enet_copybreak (fec_main.c:") != std::string::npos, "%s", bad.out.c_str());
    proc_result good = fecsim({"run", sc + "stock-idle.ini", "-o", "scenario.duration=20ms", "-o",
                               "driver.rx_ring_size=16", "--strict-coherence", "--quiet", "--out", out});
    ck_assert_msg(good.status == 0, "exit %d: %s", good.status, good.err.c_str());
    rm_rf(out);
}
END_TEST

void add_memcheck_tests(Suite* s);  // tests/system/memcheck.cc

Suite* suite_coherence(void)
{
    Suite* s = suite_create("coherence");
    TCase* tc = tests_tcase("checker", 120);
    tcase_add_test(tc, test_no_sync_for_cpu_caught);
    tcase_add_test(tc, test_short_sync_caught);
    tcase_add_test(tc, test_cpu_write_then_eviction_loses_dma_data);
    tcase_add_test(tc, test_patched_driver_on_a53_prefetch_caught);
    tcase_add_test(tc, test_stock_clean_on_a9);
    tcase_add_test(tc, test_stock_clean_on_a53);
    tcase_add_test(tc, test_balanced_clean_on_a9);
    tcase_add_test(tc, test_balanced_clean_on_a53);
    tcase_add_test(tc, test_api_misuse_and_shared_line);
    tcase_add_test(tc, test_tracked_any_matches_lines);
    tcase_add_test(tc, test_sync_lookup_before_and_after_a_shared_line);
    tcase_add_test(tc, test_strict_coherence_cli);
    suite_add_tcase(s, tc);
    add_memcheck_tests(s);
    return s;
}
