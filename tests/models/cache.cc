// L1 + PL310 + DRAM with data: hits, mapping, replacement, write-back,
// maintenance semantics, stale DMA data, and the ARMv7 range helpers.
#include "tests/lib.h"
#include "cache/hierarchy.h"
#include "drivers/khost/arm_dma.h"
#include "drivers/khost/stress.h"
#include <cstring>
#include <vector>

using namespace models;
using namespace models::cache;
using namespace khost;

static const uint64_t BASE = 0x10000000;

// Multi-sockets finish binding at the end of elaboration: run it once.
static void elaborate() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }

static hierarchy_config small_cfg(unsigned cores = 2)
{
    hierarchy_config c;
    c.cores = cores;
    return c;
}

// CPU store of bytes through core `core`: model first, then the host store.
static tick_t cpu_store(hierarchy& h, unsigned core, uint64_t pa, const void* src, unsigned n, tick_t t)
{
    tick_t lat = h.l1[core]->write(pa, n, t);
    std::memcpy(h.mem.cpu_view(pa), src, n);
    return lat;
}

static tick_t cpu_load(hierarchy& h, unsigned core, uint64_t pa, void* dst, unsigned n, tick_t t)
{
    tick_t lat = h.l1[core]->read(pa, n, t);
    std::memcpy(dst, h.mem.cpu_view(pa), n);
    return lat;
}

// A device (uDMA) writing DRAM directly: caches are not involved.
static void dma_write(hierarchy& h, uint64_t pa, uint8_t v, unsigned n)
{
    std::memset(h.mem.dram_view(pa), v, n);
}

START_TEST(test_hit_miss_and_set_mapping)
{
    hierarchy h(small_cfg());
    elaborate();
    l1_cache& l1 = *h.l1[0];
    const clock_domain cpu(996e6);
    tick_t t = 0;
    tick_t miss = l1.read(BASE + 0x100, 4, t);
    ck_assert_uint_eq(l1.stats().read_misses, 1);
    ck_assert_msg(miss > cpu.cycles(25) + 100 * PS_PER_NS, "miss past L2 costs L2 + ~110 ns: %llu ps",
                  (unsigned long long)miss);
    t += miss;
    ck_assert_uint_eq(l1.read(BASE + 0x11C, 4, t), cpu.cycles(4));  // same 32-B line
    ck_assert_uint_eq(l1.stats().read_hits, 1);
    // 32 KiB, 4 ways, 32-B lines: 256 sets, so addresses 8 KiB apart share a set.
    const uint64_t way_stride = 256 * 32;
    for (int i = 1; i <= 3; i++)
        t += l1.read(BASE + 0x100 + i * way_stride, 4, t);
    ck_assert(l1.present(BASE + 0x100));  // 4 lines fit in a 4-way set
    t += l1.read(BASE + 0x100 + 4 * way_stride, 4, t);
    int resident = 0;
    for (int i = 0; i <= 4; i++)
        resident += l1.present(BASE + 0x100 + i * way_stride);
    ck_assert_int_eq(resident, 4);  // a fifth line evicted exactly one
    ck_assert(l1.present(BASE + 0x120) == false);
    // The line that left L1 is still in the PL310: refetch is an L2 hit.
    for (int i = 0; i <= 4; i++) {
        uint64_t a = BASE + 0x100 + i * way_stride;
        if (!l1.present(a)) {
            ck_assert_uint_eq(l1.read(a, 4, t), cpu.cycles(25));
            break;
        }
    }
}
END_TEST

START_TEST(test_dirty_eviction_writes_back)
{
    hierarchy_config c = small_cfg(1);
    c.l2.size_bytes = 16384;  // small L2 so the line also leaves the L2
    c.l2.assoc = 1;
    hierarchy h(c);
    elaborate();
    const uint8_t v[4] = {1, 2, 3, 4};
    tick_t t = cpu_store(h, 0, BASE + 0x40, v, 4, 0);
    ck_assert(h.l1[0]->is_dirty(BASE + 0x40));
    ck_assert_uint_eq(h.mem.dram_view(BASE + 0x40)[0], 0);
    // Conflicting lines in L1 (8 KiB apart) and in the 16 KiB direct-mapped L2.
    for (int i = 1; i <= 8; i++)
        t += h.l1[0]->read(BASE + 0x40 + (uint64_t)i * 16384, 4, t);
    ck_assert(!h.l1[0]->present(BASE + 0x40));
    ck_assert(!h.l2.present(BASE + 0x40));
    ck_assert_uint_ge(h.l1[0]->stats().writebacks, 1);
    ck_assert_uint_ge(h.l2.stats().writebacks, 1);
    ck_assert_mem_eq(h.mem.dram_view(BASE + 0x40), v, 4);
}
END_TEST

// The PL310 is neither inclusive nor exclusive (docs/sources.md §4.1): a line
// another master's allocation evicts from the L2 stays valid in the L1 that
// holds it, and once that L1 drops the clean line its next read goes to DRAM.
START_TEST(test_l2_eviction_keeps_l1_copy)
{
    hierarchy_config c = small_cfg(2);
    c.l2.size_bytes = 16384;  // direct-mapped 16 KiB: lines 16 KiB apart share an L2 line
    c.l2.assoc = 1;
    hierarchy h(c);
    elaborate();
    const clock_domain cpu(996e6);
    const uint64_t a = BASE + 0x40;
    tick_t t = h.l1[0]->read(a, 4, 0);
    ck_assert(h.l2.present(a));
    t += h.l1[1]->read(a + 16384, 4, t);  // the other core's allocation replaces it in the L2
    ck_assert(!h.l2.present(a));
    ck_assert(h.l1[0]->present(a));
    ck_assert_uint_eq(h.l1[0]->read(a, 4, t), cpu.cycles(4));
    // Lines 8 KiB apart share the L1 set; odd multiples use the other L2 line.
    for (int k = 0; k < 64 && h.l1[0]->present(a); k++)
        t += h.l1[0]->read(a + 8192 * (2 * (k % 8) + 1), 4, t);
    ck_assert(!h.l1[0]->present(a));
    ck_assert(!h.l2.present(a));  // a clean victim is dropped, not written to the L2
    const uint64_t misses = h.l2.stats().misses;
    const tick_t lat = h.l1[0]->read(a, 4, t);
    ck_assert_uint_eq(h.l2.stats().misses, misses + 1);
    ck_assert_msg(lat > cpu.cycles(25) + 50 * PS_PER_NS, "refill from DRAM: %llu ps", (unsigned long long)lat);
}
END_TEST

// read_lines is n read() calls in one: the same latency beyond hits, the
// same statistics and the same lines resident, hits and misses mixed.
START_TEST(test_read_lines_equals_reads)
{
    // h3 reads with slot hints, kept across passes that move the range (stale
    // hints must be caught by the tag check).
    hierarchy h1(small_cfg(1)), h2(small_cfg(1)), h3(small_cfg(1));
    elaborate();
    const clock_domain cpu(996e6);
    const tick_t hit = cpu.cycles(4);
    tick_t t1 = 0, t2 = 0, t3 = 0;
    std::vector<int> slots(160, -1);
    for (int pass = 0; pass < 6; pass++) {
        const uint64_t start = BASE + 0x1000 + (uint64_t)(pass % 3) * 96 * 32;  // overlapping ranges
        tick_t e1 = 0;
        for (unsigned i = 0; i < 160; i++) {
            const tick_t lat = h1.l1[0]->read(start + i * 32, 1, t1 + e1);
            e1 += lat > hit ? lat - hit : 0;
        }
        const tick_t e2 = h2.l1[0]->read_lines(start, 160, t2);
        const tick_t e3 = h3.l1[0]->read_lines(start, 160, t3, slots.data());
        ck_assert_uint_eq(e1, e2);
        ck_assert_uint_eq(e1, e3);
        t1 += e1 + 1000000;
        t2 += e2 + 1000000;
        t3 += e3 + 1000000;
    }
    ck_assert_uint_gt(h1.l1[0]->stats().read_hits, 0);
    for (hierarchy* h : {&h2, &h3}) {
        ck_assert_uint_eq(h1.l1[0]->stats().read_hits, h->l1[0]->stats().read_hits);
        ck_assert_uint_eq(h1.l1[0]->stats().read_misses, h->l1[0]->stats().read_misses);
        ck_assert_uint_eq(h1.l1[0]->stats().miss_ps, h->l1[0]->stats().miss_ps);
        for (unsigned i = 0; i < 400; i++)
            ck_assert(h1.l1[0]->present(BASE + 0x1000 + i * 32) == h->l1[0]->present(BASE + 0x1000 + i * 32));
    }
}
END_TEST

// The slot of an L1's latest hit is only a guess for the next access: a
// line invalidated since, or replaced by another line of its set in the
// same way, must miss again.
START_TEST(test_hit_hint_checked_against_tag)
{
    const hierarchy_config cfg = small_cfg(1);
    hierarchy h(cfg);
    elaborate();
    l1_cache& l1 = *h.l1[0];
    const uint64_t way_bytes = cfg.l1.size_bytes / cfg.l1.assoc;  // sets x line: the next line of a's set
    const uint64_t a = BASE + 0x2000, same_set = a + way_bytes;
    tick_t t = l1.read(a, 4, 0);
    t += l1.read(a + 8, 4, t);  // a hit: the hint is a's slot
    ck_assert_uint_eq(l1.stats().read_hits, 1);
    t += l1.maint(l1_op::inv, a, t);
    t += l1.read(a, 4, t);
    ck_assert_uint_eq(l1.stats().read_misses, 2);  // the hinted slot is empty now
    t += l1.read(a, 4, t);
    ck_assert_uint_eq(l1.stats().read_hits, 2);
    t += l1.maint(l1_op::inv, a, t);
    t += l1.read(same_set, 4, t);  // the set's first free way: a's old slot
    ck_assert(!l1.present(a) && l1.present(same_set));
    ck_assert_uint_eq(l1.stats().read_misses, 3);
    t += l1.read(a, 4, t);
    ck_assert_uint_eq(l1.stats().read_misses, 4);  // the slot holds another line
    ck_assert_uint_eq(l1.stats().read_hits, 2);
}
END_TEST

START_TEST(test_invalidate_discards_dirty_line)
{
    hierarchy h(small_cfg());
    elaborate();
    auto cc = caches_of(h, 0);
    const uint8_t old[4] = {9, 9, 9, 9}, fresh[4] = {5, 6, 7, 8};
    std::memcpy(h.mem.dram_view(BASE + 0x200), old, 4);
    tick_t t = cpu_store(h, 0, BASE + 0x200, fresh, 4, 0);
    t = v7_dma_inv_range(cc, BASE + 0x200, BASE + 0x220, t);  // DCIMVAC: line aligned
    t = l2c210_inv_range(cc, BASE + 0x200, BASE + 0x220, t);
    ck_assert_uint_eq(h.l1[0]->stats().dirty_lost, 1);
    uint8_t got[4];
    cpu_load(h, 0, BASE + 0x200, got, 4, t);
    ck_assert_mem_eq(got, old, 4);  // the CPU write is gone
}
END_TEST

START_TEST(test_clean_makes_dram_equal)
{
    hierarchy h(small_cfg());
    elaborate();
    auto cc = caches_of(h, 0);
    uint8_t v[64];
    for (int i = 0; i < 64; i++)
        v[i] = (uint8_t)(0xA0 + i);
    tick_t t = cpu_store(h, 0, BASE + 0x400, v, 64, 0);
    t = v7_dma_clean_range(cc, BASE + 0x400, BASE + 0x440, t);
    ck_assert(h.l1[0]->present(BASE + 0x400) && !h.l1[0]->is_dirty(BASE + 0x400));
    ck_assert(h.l2.is_dirty(BASE + 0x400));  // L1 clean reaches the PL310 only
    t = l2c210_clean_range(cc, BASE + 0x400, BASE + 0x440, t);
    ck_assert(!h.l2.is_dirty(BASE + 0x400));
    ck_assert_mem_eq(h.mem.dram_view(BASE + 0x400), v, 64);
    ck_assert_uint_eq(h.l1[0]->stats().clean_ops, 2);
    ck_assert_uint_eq(h.l2.stats().clean_line_ops, 2);
}
END_TEST

START_TEST(test_dma_without_invalidate_reads_stale)
{
    hierarchy h(small_cfg());
    elaborate();
    auto cc = caches_of(h, 0);
    const uint64_t buf = BASE + 0x10000;
    std::memset(h.mem.dram_view(buf), 0x11, 64);
    uint8_t got[64];
    tick_t t = cpu_load(h, 0, buf, got, 64, 0);  // lines now cached
    dma_write(h, buf, 0x22, 64);                  // device writes DRAM only
    t += cpu_load(h, 0, buf, got, 64, t);
    for (int i = 0; i < 64; i++)
        ck_assert_msg(got[i] == 0x11, "byte %d: expected stale 0x11, got 0x%02x", i, got[i]);
    // Evicting the L1 copy alone is not enough: the PL310 still holds the old line.
    t = v7_dma_inv_range(cc, buf, buf + 64, t);
    t += cpu_load(h, 0, buf, got, 64, t);
    ck_assert_uint_eq(got[0], 0x11);
    // The Linux order for sync_for_cpu: outer first, then L1.
    t = arm_dma_sync_for_cpu(cc, buf, 64, dma_dir::from_device, t);
    cpu_load(h, 0, buf, got, 64, t);
    for (int i = 0; i < 64; i++)
        ck_assert_msg(got[i] == 0x22, "byte %d: expected fresh 0x22, got 0x%02x", i, got[i]);
}
END_TEST

START_TEST(test_dirty_line_evicted_over_dma_data)
{
    hierarchy h(small_cfg());
    elaborate();
    auto cc = caches_of(h, 0);
    const uint64_t buf = BASE + 0x20000;
    const uint8_t cpu[4] = {0xC0, 0xC1, 0xC2, 0xC3};
    tick_t t = cpu_store(h, 0, buf, cpu, 4, 0);  // dirty line, never cleaned
    dma_write(h, buf, 0xD0, 32);                 // device owns the buffer and writes it
    t = v7_dma_clean_range(cc, buf, buf + 32, t);  // a clean (or an eviction) while the device owns it
    t = l2c210_clean_range(cc, buf, buf + 32, t);
    ck_assert_mem_eq(h.mem.dram_view(buf), cpu, 4);  // DMA data overwritten
    ck_assert_uint_eq(h.mem.dram_view(buf)[4], 0);   // the whole line went back
}
END_TEST

START_TEST(test_unaligned_end_clean_invalidates_edge)
{
    hierarchy h(small_cfg());
    elaborate();
    auto cc = caches_of(h, 0);
    const uint64_t buf = BASE + 0x30000;  // 64-B aligned
    const uint8_t mark[4] = {0xEE, 0xEE, 0xEE, 0xEE};
    // CPU data right after the buffer, in its last (shared) line: dirty.
    tick_t t = cpu_store(h, 0, buf + 100, mark, 4, 0);
    t = arm_dma_sync_for_cpu(cc, buf, 98, dma_dir::from_device, t);
    // 98 B = 3 full lines + a partial one: 3 DCIMVAC + 1 DCCIMVAC, same on the PL310.
    ck_assert_uint_eq(h.l1[0]->stats().inv_ops, 3);
    ck_assert_uint_eq(h.l1[0]->stats().clean_inv_ops, 1);
    ck_assert_uint_eq(h.l2.stats().inv_line_ops, 3);
    ck_assert_uint_eq(h.l2.stats().clean_inv_line_ops, 1);
    ck_assert_uint_eq(h.l1[0]->stats().dirty_lost, 0);
    ck_assert_uint_eq(h.l2.stats().dirty_lost, 0);
    // The edge line was cleaned, not discarded: sync_for_cpu cleans L1 after
    // the PL310, so the bytes wait in the PL310 and the CPU still reads them.
    ck_assert(h.l2.is_dirty(buf + 96));
    uint8_t got[4];
    t += cpu_load(h, 0, buf + 100, got, 4, t);
    ck_assert_mem_eq(got, mark, 4);
    // sync_for_device goes L1 first, then the PL310: the bytes reach DRAM.
    t += cpu_store(h, 0, buf + 100, mark, 4, t);
    t = arm_dma_sync_for_device(cc, buf, 98, dma_dir::from_device, t);
    ck_assert_mem_eq(h.mem.dram_view(buf + 100), mark, 4);
}
END_TEST

START_TEST(test_pl310_op_blocks_other_core)
{
    hierarchy h(small_cfg(2));
    elaborate();
    const clock_domain cpu(996e6);
    const uint64_t a = BASE + 0x40000;
    // Core 1's line is in the PL310 but not in its L1.
    tick_t t = h.l1[1]->read(a, 4, 0);
    t += h.l1[1]->maint(l1_op::inv, a, t);
    t += 10 * PS_PER_US;  // everything drained
    const tick_t idle = h.l1[1]->read(a, 4, t);
    ck_assert_uint_eq(idle, cpu.cycles(25));
    t += idle;
    h.l1[1]->maint(l1_op::inv, a, t);
    t += 10 * PS_PER_US;
    // Core 0 writes INV_LINE_PA for an unrelated line at t0; it reaches the
    // PL310 after reg_write_cycles and stalls the ports for maint_line_cycles.
    tick_t done;
    const tick_t start = h.l2.reg_write(pl310_reg::INV_LINE_PA, (uint32_t)(BASE + 0x50000), t, &done);
    ck_assert_uint_eq(start, t + cpu.cycles(10));
    ck_assert_uint_eq(done - start, cpu.cycles(70));
    // Core 1 asks 20 cycles into the operation: it waits the remaining 50.
    const tick_t t1 = start + cpu.cycles(20);
    const tick_t blocked = h.l1[1]->read(a, 4, t1);
    ck_assert_uint_eq(blocked, cpu.cycles(25) + cpu.cycles(50));
    ck_assert_uint_eq(h.l2.stats().blocked_ps, cpu.cycles(50));
}
END_TEST

START_TEST(test_range_helper_counts_2033)
{
    hierarchy h(small_cfg());
    elaborate();
    auto cc = caches_of(h, 0);
    const uint64_t buf = BASE + 0x80040;  // 64-B aligned RX buffer
    const clock_domain cpu(996e6);
    tick_t t0 = 0;
    tick_t t = arm_dma_sync_for_cpu(cc, buf, 2033, dma_dir::from_device, t0);
    const auto& s1 = h.l1[0]->stats();
    const auto& s2 = h.l2.stats();
    ck_assert_uint_eq(s1.inv_ops + s1.clean_inv_ops, 64);
    ck_assert_uint_eq(s1.clean_inv_ops, 1);
    ck_assert_uint_eq(s2.inv_line_ops + s2.clean_inv_line_ops, 64);
    ck_assert_uint_eq(s2.clean_inv_line_ops, 1);
    ck_assert_uint_eq(s2.syncs, 1);
    ck_assert_uint_eq(s1.dsbs, 1);
    // Cost: 64 blocking PL310 ops dominate (70 cycles each), plus 64 L1 ops.
    const tick_t lat = t - t0;
    ck_assert_msg(lat >= cpu.cycles(64 * 70 + 64 * 6) && lat <= cpu.cycles(64 * 90 + 64 * 6 + 400),
                  "sync_for_cpu(2033) took %llu ns", (unsigned long long)(lat / 1000));
    // The balancing sync_for_device repeats it, L1 first.
    t = arm_dma_sync_for_device(cc, buf, 2033, dma_dir::from_device, t);
    ck_assert_uint_eq(s1.inv_ops + s1.clean_inv_ops, 128);
    ck_assert_uint_eq(s2.inv_line_ops + s2.clean_inv_line_ops, 128);
    ck_assert_uint_eq(s2.syncs, 2);
    // The partial sync of a 242-B frame: 8 + 8 line ops and one sync.
    h.l1[0]->reset_stats();
    h.l2.reset_stats();
    arm_dma_sync_for_cpu(cc, buf + 4096, 242, dma_dir::from_device, t);
    ck_assert_uint_eq(s1.inv_ops + s1.clean_inv_ops, 8);
    ck_assert_uint_eq(s2.inv_line_ops + s2.clean_inv_line_ops, 8);
    ck_assert_uint_eq(s2.syncs, 1);
}
END_TEST

START_TEST(test_to_device_cleans)
{
    hierarchy h(small_cfg());
    elaborate();
    auto cc = caches_of(h, 0);
    const uint64_t buf = BASE + 0x90000;
    uint8_t v[100];
    for (int i = 0; i < 100; i++)
        v[i] = (uint8_t)i;
    tick_t t = cpu_store(h, 0, buf, v, 100, 0);
    t = arm_dma_sync_for_device(cc, buf, 100, dma_dir::to_device, t);
    ck_assert_mem_eq(h.mem.dram_view(buf), v, 100);
    ck_assert_uint_eq(h.l1[0]->stats().clean_ops, 4);
    ck_assert_uint_eq(h.l2.stats().clean_line_ops, 4);
    // sync_for_cpu(TO_DEVICE) is a no-op on ARMv7.
    const auto before = h.l2.stats().syncs;
    ck_assert_uint_eq(arm_dma_sync_for_cpu(cc, buf, 100, dma_dir::to_device, t), t);
    ck_assert_uint_eq(h.l2.stats().syncs, before);
}
END_TEST

START_TEST(test_scu_coherence_between_cores)
{
    hierarchy h(small_cfg(2));
    elaborate();
    const uint64_t a = BASE + 0xA0000;
    const uint8_t v[4] = {1, 2, 3, 4};
    tick_t t = cpu_store(h, 0, a, v, 4, 0);
    uint8_t got[4];
    t += cpu_load(h, 1, a, got, 4, t);
    ck_assert_mem_eq(got, v, 4);
    ck_assert_uint_eq(h.l1[1]->stats().c2c, 1);
    const uint8_t w[4] = {7, 7, 7, 7};
    t += cpu_store(h, 1, a, w, 4, t);  // takes the line: core 0's copy goes
    ck_assert(!h.l1[0]->present(a));
    ck_assert(h.l1[1]->is_dirty(a));
    t += cpu_load(h, 0, a, got, 4, t);
    ck_assert_mem_eq(got, w, 4);
}
END_TEST

START_TEST(test_a53_profile_invalidate_cleans_and_prefetch)
{
    hierarchy_config c = small_cfg(1);
    c.l1.inv_is_clean_inv = true;
    c.l1.prefetch_lines = 2;
    hierarchy h(c);
    elaborate();
    auto cc = caches_of(h, 0);
    const uint64_t buf = BASE + 0xB0000;
    const uint8_t v[4] = {3, 3, 3, 3};
    tick_t t = cpu_store(h, 0, buf, v, 4, 0);
    t = v7_dma_inv_range(cc, buf, buf + 32, t);
    ck_assert_uint_eq(h.l1[0]->stats().dirty_lost, 0);  // promoted to clean+invalidate
    ck_assert(h.l2.is_dirty(buf));
    uint8_t got[4];
    cpu_load(h, 0, buf + 0x100, got, 4, t);
    ck_assert(h.l1[0]->present(buf + 0x120) && h.l1[0]->present(buf + 0x140));
    ck_assert_uint_eq(h.l1[0]->stats().prefetches, 2);
}
END_TEST

// Core 0 reads lines that miss everywhere, every 2 us; the latencies before
// and after the memory hog starts are summed separately.
struct probe : sc_core::sc_module {
    hierarchy& h;
    tick_t split;
    tick_t sum[2] = {0, 0};
    unsigned n[2] = {0, 0};
    probe(sc_core::sc_module_name nm, hierarchy& hh, tick_t at) : sc_module(nm), h(hh), split(at)
    {
        SC_THREAD(run);
    }
    SC_HAS_PROCESS(probe);
    void run()
    {
        for (uint64_t i = 0;; i++) {
            sc_core::wait(2, sc_core::SC_US);
            const uint64_t a = BASE + 0x200000 + i * 4096 + (i % 7) * 32;
            const int k = now_ps() >= split;
            sum[k] += h.l1[0]->read(a, 4, now_ps());
            n[k]++;
        }
    }
};

START_TEST(test_dram_latency_rises_under_stress)
{
    hierarchy_config c = small_cfg(4);
    stress_config sc;
    sc.enabled = true;
    sc.vm_bytes = 8 << 20;
    sc.start_ps = 400 * PS_PER_US;
    hierarchy h(c);
    stressor hog("stress", stress_placed(sc, c));
    hog.bind(h.l2);
    probe p("probe", h, sc.start_ps + 10 * PS_PER_US);
    sc_core::sc_start(800, sc_core::SC_US);
    ck_assert_uint_gt(p.n[0], 150);
    ck_assert_uint_gt(p.n[1], 150);
    ck_assert_uint_gt(hog.stats().pages, 50);
    const double idle = (double)p.sum[0] / p.n[0] / 1000.0, busy = (double)p.sum[1] / p.n[1] / 1000.0;
    ck_assert_msg(idle > 130 && idle < 160, "idle miss %.1f ns (L2 25 cycles + ~110 ns)", idle);
    // The hog's evictions queue ahead of the misses at the fabric port and in
    // the DRAM channel; the slave ports cost a miss at most one of the hog's
    // line slots (round-robin). The DRAM model has no banks or rows, so the
    // rise is small (about 1 ns at this load).
    ck_assert_msg(busy > idle && busy < idle + 20, "miss under stress %.1f ns vs idle %.1f ns", busy, idle);
}
END_TEST

// Full-line writes of master `core` (as the memory hog issues them), no data.
static tick_t line_writes(hierarchy& h, unsigned core, uint64_t pa, unsigned len, tick_t t)
{
    mem::mem_txn tx;
    tx.set(tlm::TLM_WRITE_COMMAND, pa, nullptr, len);
    tx.ext.master = (uint8_t)(mem::MASTER_CPU0 + core);
    tx.ext.full_line = true;
    tx.ext.posted = false;
    return h.l2.access(tx.gp, t);
}

// Time from the fabric accepting an eviction to its completion: NIC-301 hop,
// DRAM service of 32 B, write latency (noc.cc, dram.cc).
static tick_t eviction_flight(const hierarchy_config& c)
{
    const clock_domain noc(c.noc.clock_hz), ddr(c.dram.clock_hz);
    return noc.cycles(c.noc.latency_cycles) +
           ddr.cycles(c.dram.overhead_cycles + 32 / c.dram.bytes_per_cycle + c.dram.write_latency_cycles);
}

// With one eviction-buffer entry, a line write whose victim is dirty waits
// for the previous eviction to complete: the writer is paced by the fabric.
START_TEST(test_eviction_buffer_paces_dirty_victims)
{
    hierarchy_config c = small_cfg(2);
    c.l2.eviction_buffer_lines = 1;
    hierarchy h(c);
    elaborate();
    const clock_domain l2clk(c.l2.clock_hz);
    const tick_t port = l2clk.cycles(c.l2.port_cycles), flight = eviction_flight(c);
    ck_assert_uint_gt(flight, port);
    const uint64_t a = BASE + 0x400000;
    // Victims are invalid while the L2 fills: one port slot per line.
    tick_t t = line_writes(h, 1, a, 4096, 0);
    ck_assert_uint_eq(t, 128 * port);
    t = line_writes(h, 1, a + 4096, (1 << 20) - 4096, t);
    ck_assert_uint_eq(h.l2.stats().writebacks, 0);
    // Now every victim is dirty.
    const tick_t t0 = t + 10 * PS_PER_US;
    const tick_t end = line_writes(h, 1, a + (1 << 20), 4096, t0);
    ck_assert_uint_eq(h.l2.stats().writebacks, 128);
    ck_assert_uint_eq(end - t0, 127 * flight + port);
    ck_assert_uint_eq(h.l2.stats().eb_wait_ps, 127 * (flight - port));
}
END_TEST

// A core's range of by-PA operations arriving while another master streams
// dirty-victim line writes: the first operation waits for one of the
// writer's requests, not for its whole burst, and from then on the two
// alternate; each operation also waits for the eviction the writer's line
// before it started (maint_waits_for_drain).
START_TEST(test_maintenance_alternates_with_streaming_writer)
{
    hierarchy_config c = small_cfg(2);
    c.dram.write_latency_cycles = 42;
    hierarchy h(c);
    elaborate();
    const clock_domain l2clk(c.l2.clock_hz);
    const tick_t port = l2clk.cycles(c.l2.port_cycles), op = l2clk.cycles(c.l2.maint_line_cycles);
    const tick_t rw = l2clk.cycles(c.l2.reg_write_cycles), flight = eviction_flight(c);
    const uint64_t a = BASE + 0x400000;
    tick_t t = line_writes(h, 1, a, 1 << 20, 0);  // the whole L2 dirty
    // Core 1's 8 KiB burst is booked first (it runs ahead).
    const tick_t w0 = t + 10 * PS_PER_US;
    const tick_t wend = line_writes(h, 1, a + (1 << 20), 8192, w0);
    ck_assert_uint_gt(wend - w0, 2 * PS_PER_US);
    // Core 0 then writes INV_LINE_PA for 64 lines at an earlier time inside it.
    const tick_t t0 = w0 + 100 * PS_PER_NS;
    tick_t done;
    const tick_t first = h.l2.reg_write(pl310_reg::INV_LINE_PA, (uint32_t)(BASE + 0x80000), t0, &done,
                                        mem::MASTER_CPU0);
    ck_assert_msg(first - (t0 + rw) <= port + flight, "first operation waited %llu ps",
                  (unsigned long long)(first - t0 - rw));
    const tick_t e1 = done;
    h.l2.reg_write_lines(pl310_reg::INV_LINE_PA, BASE + 0x80020, 63, first, &done, mem::MASTER_CPU0);
    // Each of the 63 waits for one writer request and its eviction: between
    // op + flight - (the writer's line pace) and op + port + flight each.
    const tick_t per = (done - e1) / 63;
    ck_assert_msg(per >= op + flight - 4 * port && per <= op + port + flight + 1000,
                  "%llu ps per operation (op %llu, flight %llu)", (unsigned long long)per,
                  (unsigned long long)op, (unsigned long long)flight);
    ck_assert_uint_gt(h.l2.stats().drain_wait_ps, 63 * (flight - 4 * port));
}
END_TEST

// The block path of reg_write_lines books exactly what n reg_write calls book.
START_TEST(test_line_burst_equals_loop)
{
    hierarchy h(small_cfg(1));
    elaborate();
    const uint64_t a = BASE + 0x100000, b = BASE + 0x200000;
    tick_t done1, done2;
    const tick_t t1 = 1000 * PS_PER_NS;
    const tick_t acc1 = h.l2.reg_write_lines(pl310_reg::INV_LINE_PA, a, 63, t1, &done1);
    const auto s1 = h.l2.stats();
    const tick_t t2 = 100 * PS_PER_US;
    tick_t acc2 = t2;
    for (int k = 0; k < 63; k++)
        acc2 = h.l2.reg_write(pl310_reg::INV_LINE_PA, (uint32_t)(b + 32 * k), acc2, &done2);
    const auto s2 = h.l2.stats();
    ck_assert_uint_eq(acc1 - t1, acc2 - t2);
    ck_assert_uint_eq(done1 - t1, done2 - t2);
    ck_assert_uint_eq(s2.inv_line_ops - s1.inv_line_ops, s1.inv_line_ops);
    ck_assert_uint_eq(s2.maint_ps - s1.maint_ps, s1.maint_ps);
    ck_assert_uint_eq(s2.port_wait_ps - s1.port_wait_ps, s1.port_wait_ps);
}
END_TEST

// With another master's requests inside the range's time, the blocks around
// them and the turns they take book what n reg_write calls book: the same
// times, the same waits, the same occupancy left for that master.
START_TEST(test_line_burst_with_other_master_equals_loop)
{
    // Two identical hierarchies: one takes the range call, one the loop (the
    // second one's module names get a suffix).
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_INSTANCE_EXISTS_, sc_core::SC_DO_NOTHING);
    hierarchy h1(small_cfg(2)), h2(small_cfg(2));
    elaborate();
    const clock_domain l2clk(h1.l2.config().clock_hz);
    const tick_t op = l2clk.cycles(h1.l2.config().maint_line_cycles);
    const uint64_t a = BASE + 0x100000, w = BASE + 0x300000;
    const tick_t t = 1000 * PS_PER_NS;
    struct result {
        tick_t acc, done, writer_next;
        l2_stats st;
    };
    // Core 1 (running ahead) books two single-line writes inside the range
    // first; then core 0's 63 operations start at t.
    auto run = [&](hierarchy& h, bool block) {
        line_writes(h, 1, w, 32, t + 10 * op);
        line_writes(h, 1, w + 32, 32, t + 40 * op + op / 2);
        tick_t done = 0, acc = t;
        if (block) {
            acc = h.l2.reg_write_lines(pl310_reg::INV_LINE_PA, a, 63, t, &done, mem::MASTER_CPU0);
        } else {
            for (int k = 0; k < 63; k++)
                acc = h.l2.reg_write(pl310_reg::INV_LINE_PA, (uint32_t)(a + 32 * k), acc, &done, mem::MASTER_CPU0);
        }
        // Where core 1's next request now gets the port: its occupancy moved.
        const tick_t next = line_writes(h, 1, w + 64, 32, t + 41 * op);
        return result{acc, done, next, h.l2.stats()};
    };
    const result r1 = run(h1, true);
    const result r2 = run(h2, false);
    ck_assert_msg(r1.done > t + 63 * op, "the writer's requests took turns inside the range (%llu ps)",
                  (unsigned long long)(r1.done - t));
    ck_assert_uint_eq(r1.acc, r2.acc);
    ck_assert_uint_eq(r1.done, r2.done);
    ck_assert_uint_eq(r1.writer_next, r2.writer_next);
    ck_assert_uint_eq(r1.st.inv_line_ops, 63);
    ck_assert_uint_eq(r2.st.inv_line_ops, 63);
    ck_assert_uint_eq(r1.st.maint_ps, r2.st.maint_ps);
    ck_assert_uint_eq(r1.st.port_wait_ps, r2.st.port_wait_ps);
    ck_assert_uint_eq(r1.st.drain_wait_ps, r2.st.drain_wait_ps);
    ck_assert_uint_eq(r1.st.blocked_ps, r2.st.blocked_ps);
}
END_TEST

// A burst of whole-line writes past the backed window (the memory hog's
// page zeroing), which once it owns the port goes through
// cache_array::write_lines, books what the same lines written one request
// at a time book: the same end, the same evictions (dirty lines of the
// backed window among the victims, written back with their data) and
// waits, the same fabric and DRAM counters, the same L2 state, and another
// master's next request gets the port at the same time. (With this
// configuration's DRAM the evictions queue at the fabric, so none is
// counted: test_hog_pages_with_other_master_equal_lines covers that.)
START_TEST(test_unbacked_burst_equals_lines)
{
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_INSTANCE_EXISTS_, sc_core::SC_DO_NOTHING);
    hierarchy h1(small_cfg(2)), h2(small_cfg(2));
    elaborate();
    const uint64_t unbacked = h1.mem.base() + h1.mem.backed();
    ck_assert_uint_ge(h1.mem.size(), h1.mem.backed() + (4u << 20));
    const uint64_t b = BASE + 0x100000, u = unbacked + 0x100000;
    struct result {
        tick_t end, other;
        l2_stats st;
        mem::noc_stats ns;
        mem::dram_stats ds;
    };
    auto run = [&](hierarchy& h, bool burst) {
        tick_t t = line_writes(h, 1, b, 64 * 1024, 0);             // dirty lines of the backed window
        std::memset(h.mem.dram_view(b), 0x5A, 64 * 1024);         // DRAM differs until written back
        t = line_writes(h, 1, u, 512 * 1024, t + PS_PER_US);       // hog lines, dirty
        const tick_t t0 = t + 10 * PS_PER_US;
        const uint64_t w = u + 256 * 1024, len = 1 << 20;          // half of them present
        tick_t end = t0;
        if (burst) {
            end = line_writes(h, 1, w, (unsigned)len, t0);
        } else {
            for (uint64_t a = w; a < w + len; a += 32)
                end = line_writes(h, 1, a, 32, end);
        }
        const tick_t other = line_writes(h, 0, BASE + 0x300000, 32, t0 + PS_PER_US);
        return result{end, other, h.l2.stats(), h.noc.stats(), h.dram.stats()};
    };
    const result r1 = run(h1, true), r2 = run(h2, false);
    ck_assert_uint_eq(r1.end, r2.end);
    ck_assert_uint_eq(r1.other, r2.other);
    ck_assert_uint_eq(r1.ns.transactions, r2.ns.transactions);
    ck_assert_uint_eq(r1.ns.bytes, r2.ns.bytes);
    ck_assert_uint_eq(r1.ns.port_wait_ps, r2.ns.port_wait_ps);
    ck_assert_uint_eq(r1.ds.writes, r2.ds.writes);
    ck_assert_uint_eq(r1.ds.busy_ps, r2.ds.busy_ps);
    ck_assert_uint_eq(r1.ds.queue_ps, r2.ds.queue_ps);
    ck_assert_uint_eq(r1.ds.cpu_bytes, r2.ds.cpu_bytes);
    ck_assert_uint_eq(r1.st.drain_wait_ps, r2.st.drain_wait_ps);
    ck_assert_uint_gt(r1.st.write_hits, 1000);
    ck_assert_uint_gt(r1.st.writebacks, 5000);
    ck_assert_uint_eq(r1.st.write_hits, r2.st.write_hits);
    ck_assert_uint_eq(r1.st.write_allocs, r2.st.write_allocs);
    ck_assert_uint_eq(r1.st.writebacks, r2.st.writebacks);
    ck_assert_uint_eq(r1.st.eb_wait_ps, r2.st.eb_wait_ps);
    ck_assert_uint_eq(r1.st.port_wait_ps, r2.st.port_wait_ps);
    // The backed window's lines went back with their data (zeros), alike.
    ck_assert_mem_eq(h1.mem.dram_view(b), h2.mem.dram_view(b), 64 * 1024);
    ck_assert_uint_eq(h1.mem.dram_view(b)[0], 0);
    for (uint64_t a = b; a < b + 64 * 1024; a += 32)
        ck_assert(h1.l2.present(a) == h2.l2.present(a) && h1.l2.is_dirty(a) == h2.l2.is_dirty(a));
    for (uint64_t a = u; a < u + 1536 * 1024; a += 32)
        ck_assert(h1.l2.present(a) == h2.l2.present(a) && h1.l2.is_dirty(a) == h2.l2.is_dirty(a));
}
END_TEST

// The memory hog's pages one burst at a time, each followed by another
// master's requests inside the page's time or ahead of the next page (an
// L1 fill, a store and its clean to the L2, the L2 clean that writes the
// line back through the eviction buffer, a cache sync that waits for the
// transfers in flight), and a uDMA write to DRAM booked before some pages
// and due during them, against the same pages written one line per
// request: every time the requests get, every counter of the L2, the
// fabric and DRAM, and the end of each page are the same, while the bursts
// count most of their evictions (pl310::eviction_runs) and the requests'
// bookings lie among theirs.
START_TEST(test_hog_pages_with_other_master_equal_lines)
{
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_INSTANCE_EXISTS_, sc_core::SC_DO_NOTHING);
    // DRAM writes acknowledged 42 cycles after their data, as with the
    // i.MX6Q profile: an eviction then holds its buffer entry longer than
    // four transfers take, so that a burst goes in rounds without waiting
    // at the fabric (with the default of 0 the fabric is the limit, the
    // evictions queue there and are never counted).
    hierarchy_config c = small_cfg(2);
    c.dram.write_latency_cycles = 42;
    hierarchy h1(c), h2(c);
    elaborate();
    const uint64_t u = h1.mem.base() + h1.mem.backed(), backed = BASE + 0x100000;
    ck_assert_uint_ge(h1.mem.size(), h1.mem.backed() + (4u << 20));
    struct result {
        std::vector<tick_t> times;
        l2_stats st;
        mem::noc_stats ns;
        mem::dram_stats ds;
        uint64_t counted;
    };
    auto run = [&](hierarchy& h, bool burst) {
        result r;
        // The L2 (1 MiB, 16 ways, round robin) full of the hog's dirty
        // lines: each new line evicts one. A dirty line of the backed window
        // in every eighth set, then 15 more hog lines in every set, so that
        // the backed line is its set's next victim: the pages' first ones
        // evict it with its data (a count must stop there).
        tick_t t = line_writes(h, 1, u, 2u << 20, 0) + PS_PER_US;
        for (unsigned i = 0; i < 256; i++)
            t = line_writes(h, 1, backed + i * 8 * 32, 32, t);
        std::memset(h.mem.dram_view(backed), 0x5A, 64 * 1024);  // DRAM differs until written back
        t = line_writes(h, 1, u + (2u << 20), 15 * 64 * 1024, t) + PS_PER_US;
        const uint64_t counted0 = h.l2.burst_run_evictions();
        for (unsigned k = 0; k < 48; k++) {
            const uint64_t page = u + (3u << 20) + k * 4096ull;
            // A uDMA write booked first, due in the middle of the page's
            // evictions: it holds the DRAM channel when one of them needs it.
            if (k % 2)
                r.times.push_back(h.noc.write(1, BASE + 0x380000 + k * 64ull, nullptr, 64, mem::MASTER_ENET,
                                              t + (1500 + 100 * (k % 7)) * PS_PER_NS));
            tick_t end = t;
            if (burst) {
                end = line_writes(h, 1, page, 4096, t);
            } else {
                for (uint64_t a = page; a < page + 4096; a += 32)
                    end = line_writes(h, 1, a, 32, end);
            }
            r.times.push_back(end);
            const uint64_t pa = BASE + 0x340000 + (k % 16) * 32;
            // inside the page's time, or past its end (ahead of the next page)
            const tick_t a = t + (end - t) * (k % 6) / 4;
            tick_t done = 0;
            r.times.push_back(h.l1[0]->read(pa + 0x1000, 4, a));
            r.times.push_back(h.l1[0]->write(pa, 4, a + 100 * PS_PER_NS));
            r.times.push_back(h.l1[0]->maint_lines(l1_op::clean, pa, 1, a + 200 * PS_PER_NS));
            r.times.push_back(h.l2.reg_write(pl310_reg::CLEAN_LINE_PA, (uint32_t)pa, a + 300 * PS_PER_NS, &done,
                                             mem::MASTER_CPU0));
            r.times.push_back(done);
            r.times.push_back(
                h.l2.reg_write(pl310_reg::CACHE_SYNC, 0, a + 400 * PS_PER_NS, &done, mem::MASTER_CPU0));
            r.times.push_back(done);
            t = end + (k % 3) * 50 * PS_PER_NS;
        }
        r.st = h.l2.stats();
        r.ns = h.noc.stats();
        r.ds = h.dram.stats();
        r.counted = h.l2.burst_run_evictions() - counted0;
        return r;
    };
    const result r1 = run(h1, true), r2 = run(h2, false);
    ck_assert_msg(r1.counted > 48 * 64, "evictions counted: %llu", (unsigned long long)r1.counted);
    ck_assert_uint_eq(r2.counted, 0);  // the reference takes no other path than one by one
    ck_assert_uint_eq(r1.times.size(), r2.times.size());
    for (size_t i = 0; i < r1.times.size(); i++)
        ck_assert_msg(r1.times[i] == r2.times[i], "time %zu: %llu against %llu", i, (unsigned long long)r1.times[i],
                      (unsigned long long)r2.times[i]);
    ck_assert(std::memcmp(&r1.st, &r2.st, sizeof r1.st) == 0);
    ck_assert(std::memcmp(&r1.ns, &r2.ns, sizeof r1.ns) == 0);
    ck_assert(std::memcmp(&r1.ds, &r2.ds, sizeof r1.ds) == 0);
    ck_assert_mem_eq(h1.mem.dram_view(backed), h2.mem.dram_view(backed), 64 * 1024);
    size_t back = 0;  // backed lines the pages wrote back (zeros over the 0x5A)
    for (unsigned i = 0; i < 256; i++)
        back += h1.mem.dram_view(backed + i * 8 * 32)[0] == 0;
    ck_assert_msg(back == 256, "backed victims written back: %zu of 256", back);
    ck_assert_uint_gt(r1.st.writebacks, 48 * 128);
    ck_assert_uint_gt(r1.st.drain_wait_ps, 0);
}
END_TEST

Suite* suite_cache(void)
{
    Suite* s = suite_create("cache");
    TCase* tc = tests_tcase("data_and_timing", TEST_TIMEOUT_MODEL);
    tcase_add_test(tc, test_hit_miss_and_set_mapping);
    tcase_add_test(tc, test_dirty_eviction_writes_back);
    tcase_add_test(tc, test_l2_eviction_keeps_l1_copy);
    tcase_add_test(tc, test_read_lines_equals_reads);
    tcase_add_test(tc, test_hit_hint_checked_against_tag);
    tcase_add_test(tc, test_invalidate_discards_dirty_line);
    tcase_add_test(tc, test_clean_makes_dram_equal);
    tcase_add_test(tc, test_dma_without_invalidate_reads_stale);
    tcase_add_test(tc, test_dirty_line_evicted_over_dma_data);
    tcase_add_test(tc, test_unaligned_end_clean_invalidates_edge);
    tcase_add_test(tc, test_pl310_op_blocks_other_core);
    tcase_add_test(tc, test_range_helper_counts_2033);
    tcase_add_test(tc, test_line_burst_equals_loop);
    tcase_add_test(tc, test_unbacked_burst_equals_lines);
    tcase_add_test(tc, test_hog_pages_with_other_master_equal_lines);
    tcase_add_test(tc, test_line_burst_with_other_master_equals_loop);
    tcase_add_test(tc, test_eviction_buffer_paces_dirty_victims);
    tcase_add_test(tc, test_maintenance_alternates_with_streaming_writer);
    tcase_add_test(tc, test_to_device_cleans);
    tcase_add_test(tc, test_scu_coherence_between_cores);
    tcase_add_test(tc, test_a53_profile_invalidate_cleans_and_prefetch);
    tcase_add_test(tc, test_dram_latency_rises_under_stress);
    suite_add_tcase(s, tc);
    return s;
}
