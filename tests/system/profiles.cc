// Every SoC profile (scenarios/profiles/*.ini) through the loader, then its
// memory system as the profile builds it: the streaming-DMA maintenance of a
// cold 2033-B and 3584-B RX buffer (the fec driver's two buffer sizes), its
// operation counts at each level, its cost from the profile's own
// parameters, and what an invalidate does to a dirty line on that core.
// FECSIM_PROFILE_TABLE=1 prints one line per profile and size (docs/socs.md).
#include "tests/lib.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include "cache/hierarchy.h"
#include "drivers/khost/arm_dma.h"
#include "sim/config/scenario.h"
#include "tests/system/cli.h"

using namespace models;
using namespace models::cache;
using namespace khost;

static const char* const k_profiles[] = {"imx6q", "imx6ul", "vf610", "imx8mm", "imx8mp", "imx8ulp", "imx93"};
static const unsigned k_profile_count = sizeof k_profiles / sizeof k_profiles[0];
static const uint64_t BASE = 0x10000000;

static sim::soc_config load_profile(const char* name)
{
    // The profile names itself ([soc] profile), as the results record it.
    const std::string path = std::string(FECSIM_SRCDIR) + "/scenarios/profiles/" + name + ".ini";
    sim::raw_scenario raw;
    std::vector<std::string> errors;
    sim::scenario_read(path, &raw, &errors);
    // The memory system is what is tested: any driver will do, and fecsim's
    // own cannot drive Vybrid's legacy descriptors (a loader rule says so).
    std::string err;
    sim::scenario_override("driver.source=" + std::string(FECSIM_SRCDIR) + "/drivers/fec", &raw, &err);
    sim::resolved_scenario r;
    if (errors.empty())
        sim::scenario_resolve(raw, &r, &errors);
    ck_assert_msg(errors.empty(), "%s: %s", name, errors.empty() ? "" : errors[0].c_str());
    const auto p = r.strings.find("soc.profile");
    ck_assert(p != r.strings.end() && p->second.size() == 1);
    ck_assert_str_eq(p->second[0].c_str(), name);
    return r.cfg;
}

static hierarchy_config memory_of(const sim::soc_config& c)
{
    hierarchy_config h = c.mem;
    h.cores = c.cpu.cores;
    h.cpu_hz = c.cpu.clock_hz;
    return h;
}

struct level_ops {
    uint64_t l1_inv, l1_clean, l1_clean_inv, l2_inv, l2_clean, l2_clean_inv, syncs, dsbs;
};

static level_ops ops_of(hierarchy& h)
{
    const auto& a = h.l1[0]->stats();
    const auto& b = h.l2.stats();
    return {a.inv_ops, a.clean_ops, a.clean_inv_ops, b.inv_line_ops, b.clean_line_ops, b.clean_inv_line_ops,
            b.syncs, a.dsbs};
}

START_TEST(test_profile_sync_counts_and_costs)
{
    const char* name = k_profiles[_i];
    const sim::soc_config cfg = load_profile(name);
    hierarchy h(memory_of(cfg));
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const bool arm64 = cfg.kernel.arch == kernel_arch::arm64;
    const bool outer = cfg.mem.l2.kind == l2_kind::pl310;
    ck_assert_msg(!(arm64 && outer), "%s: arm64 with an outer cache", name);
    cpu_caches cc = caches_of(h, 0, cfg.kernel.arch);
    const clock_domain cpu(cfg.cpu.clock_hz), l2clk(cfg.mem.l2.clock_hz);
    const tick_t l1m = cpu.cycles(cfg.mem.l1.maint_line_cycles), l2m = l2clk.cycles(cfg.mem.l2.maint_line_cycles);
    const tick_t dsb = cpu.cycles(cfg.mem.l1.dsb_cycles);
    const unsigned lb1 = cfg.mem.l1.line_bytes, lb2 = cfg.mem.l2.line_bytes;
    if (!outer)
        ck_assert_uint_eq(lb1, lb2);  // an integrated L2 has the core's lines
    tick_t t = 0;
    const unsigned sizes[] = {2033, 3584};
    for (unsigned k = 0; k < 2; k++) {
        const unsigned size = sizes[k];
        const uint64_t buf = BASE + 0x100000 + k * 0x10000;  // 64-B aligned, cold
        const unsigned n1 = (size + lb1 - 1) / lb1, n2 = (size + lb2 - 1) / lb2;
        const unsigned edge1 = size % lb1 ? 1 : 0, edge2 = size % lb2 ? 1 : 0;

        // sync_for_cpu(FROM_DEVICE): every line invalidated at every level,
        // a partial last line cleaned and invalidated.
        level_ops o0 = ops_of(h);
        const tick_t c0 = t;
        t = arm_dma_sync_for_cpu(cc, buf, size, dma_dir::from_device, t);
        const tick_t cpu_cost = t - c0;
        level_ops o1 = ops_of(h);
        ck_assert_uint_eq(o1.l1_inv - o0.l1_inv, n1 - edge1);
        ck_assert_uint_eq(o1.l1_clean_inv - o0.l1_clean_inv, edge1);
        ck_assert_uint_eq(o1.l1_clean - o0.l1_clean, 0);
        ck_assert_uint_eq(o1.dsbs - o0.dsbs, 1);
        const uint64_t l2_all = (o1.l2_inv - o0.l2_inv) + (o1.l2_clean_inv - o0.l2_clean_inv);
        ck_assert_uint_eq(l2_all, n2);
        ck_assert_uint_eq(o1.l2_clean - o0.l2_clean, 0);
        if (outer || !cfg.mem.l1.inv_is_clean_inv)
            ck_assert_uint_eq(o1.l2_clean_inv - o0.l2_clean_inv, edge2);
        else  // DC IVAC carried out as DC CIVAC in the whole cluster
            ck_assert_uint_eq(o1.l2_clean_inv - o0.l2_clean_inv, n2);
        ck_assert_uint_eq(o1.syncs - o0.syncs, outer ? 1 : 0);
        for (uint64_t a = buf; a < buf + size; a += lb1)
            ck_assert(!h.l1[0]->present(a) && !h.l2.present(a));
        if (outer) {
            // Atomic PL310 operations, then the L1's while the posted
            // CACHE_SYNC runs: at least the line operations themselves, at
            // most that plus a register write per operation, the sync and
            // the DSB.
            const tick_t lo = n1 * l1m + n2 * l2m;
            const tick_t hi = lo + (n2 + 3) * l2clk.cycles(cfg.mem.l2.reg_write_cycles) +
                              l2clk.cycles(cfg.mem.l2.sync_cycles) + dsb;
            ck_assert_msg(cpu_cost >= lo && cpu_cost <= hi, "%s sync_for_cpu(%u): %llu ps, not in %llu..%llu",
                          name, size, (unsigned long long)cpu_cost, (unsigned long long)lo,
                          (unsigned long long)hi);
        } else {
            // Nothing present, nobody else on the port: exactly each level's
            // lookup per line and the DSB.
            ck_assert_uint_eq(cpu_cost, n1 * l1m + n2 * l2m + dsb);
        }

        // sync_for_device(FROM_DEVICE) of the same buffer: arm64 cleans
        // (dcache_clean_poc for every direction), 32-bit ARM invalidates
        // again.
        o0 = ops_of(h);
        const tick_t d0 = t;
        t = arm_dma_sync_for_device(cc, buf, size, dma_dir::from_device, t);
        const tick_t dev_cost = t - d0;
        o1 = ops_of(h);
        if (arm64) {
            ck_assert_uint_eq(o1.l1_clean - o0.l1_clean, n1);
            ck_assert_uint_eq(o1.l2_clean - o0.l2_clean, n2);
            ck_assert_uint_eq(o1.l1_inv + o1.l1_clean_inv, o0.l1_inv + o0.l1_clean_inv);
            ck_assert_uint_eq(dev_cost, n1 * l1m + n2 * l2m + dsb);
        } else {
            ck_assert_uint_eq(o1.l1_inv + o1.l1_clean_inv - o0.l1_inv - o0.l1_clean_inv, n1);
            ck_assert_uint_eq(o1.l2_inv + o1.l2_clean_inv - o0.l2_inv - o0.l2_clean_inv, n2);
            ck_assert_uint_eq(o1.l1_clean, o0.l1_clean);
        }
        ck_assert_uint_eq(o1.syncs - o0.syncs, outer ? 1 : 0);
        if (getenv("FECSIM_PROFILE_TABLE"))
            fprintf(stderr, "profile %s size %u: sync_for_cpu %u+%u ops %.0f ns, sync_for_device %.0f ns\n", name,
                    size, n1, outer ? n2 + 1 : n2, cpu_cost / 1000.0, dev_cost / 1000.0);
    }
}
END_TEST

// A line the CPU dirtied inside an RX buffer while the device wrote it:
// sync_for_cpu(FROM_DEVICE) drops the CPU's bytes on a core whose
// invalidate is a real one (the device's data is read), and writes them over
// the device's data on a core that carries out an invalidate as
// clean+invalidate (Cortex-A53, A35).
START_TEST(test_profile_dirty_line_in_rx_buffer)
{
    const char* name = k_profiles[_i];
    const sim::soc_config cfg = load_profile(name);
    hierarchy h(memory_of(cfg));
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    cpu_caches cc = caches_of(h, 0, cfg.kernel.arch);
    const unsigned lb = cfg.mem.l1.line_bytes;
    const uint64_t buf = BASE + 0x200000, line = buf + 4 * lb;
    tick_t t = arm_dma_sync_for_device(cc, buf, 2033, dma_dir::from_device, 0);
    std::vector<uint8_t> cpu_bytes(lb, 0x5a);
    t += h.l1[0]->write(line, lb, t);
    std::memcpy(h.mem.cpu_view(line), cpu_bytes.data(), lb);
    std::memset(h.mem.dram_view(buf), 0xd7, 2033);  // the uDMA's frame
    t = arm_dma_sync_for_cpu(cc, buf, 2033, dma_dir::from_device, t);
    t += h.l1[0]->read(line, lb, t);
    const uint8_t got = h.mem.cpu_view(line)[0];
    if (cfg.mem.l1.inv_is_clean_inv) {
        ck_assert_uint_eq(got, 0x5a);
        ck_assert_uint_eq(h.l1[0]->stats().dirty_lost + h.l2.stats().dirty_lost, 0);
    } else {
        ck_assert_uint_eq(got, 0xd7);
        ck_assert_uint_eq(h.l1[0]->stats().dirty_lost, 1);
    }
}
END_TEST

// The unchanged 6.12 driver on every profile, through one sweep that selects
// the profile (--vary scenario.soc): it probes, links and receives each
// frame the link partner sends (RX at 5 k frames/s of 1518 B), and each
// point's resolved scenario is its own profile's.
START_TEST(test_profiles_run_the_6_12_driver)
{
    if (!exists("/usr/src/linux-source-6.12.tar.xz"))
        return;  // the tree is a Debian package (linux-source-6.12)
    const std::string dir = tmp_dir();
    const std::string ini = dir + "/rx.ini";
    FILE* f = fopen(ini.c_str(), "w");
    ck_assert(f);
    fputs("[scenario]\nid=rx\nsoc=imx6q\nwarmup=10ms\nduration=10ms\n"
          "[traffic]\nmode=constant\nframe_bytes=1518\nframe_rate=5000\nstart=5ms\n"
          "[stress]\nenabled=false\n[driver]\ntree=/usr/src/linux-source-6.12.tar.xz\nname=fec\n",
          f);
    fclose(f);
    std::string socs = "scenario.soc=";
    for (unsigned i = 0; i < k_profile_count; i++)
        socs += std::string(i ? "," : "") + k_profiles[i];
    const proc_result r = fecsim({"sweep", ini, "--vary", socs, "--out", dir + "/out", "-j", "2"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    const std::string sw = only_subdir(dir + "/out/rx");
    for (unsigned i = 0; i < k_profile_count; i++) {
        const std::string base = read_text(sw + "/base-" + k_profiles[i] + ".ini");
        ck_assert_msg(base.find("\nprofile=" + std::string(k_profiles[i]) + "\n") != std::string::npos,
                      "base-%s.ini is not that profile's", k_profiles[i]);
    }
    const proc_result c = shell("awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i; next} "
                                "{print $h[\"scenario.soc\"], $h[\"frames_offered\"], $h[\"frames_delivered\"], "
                                "$h[\"frames_in_flight_start\"], $h[\"frames_in_flight\"]}' " + sw + "/sweep.csv");
    ck_assert_int_eq(c.status, 0);
    unsigned rows = 0;
    size_t pos = 0;
    while (pos < c.out.size()) {
        const size_t e = c.out.find('\n', pos);
        const std::string line = c.out.substr(pos, e - pos);
        pos = e == std::string::npos ? c.out.size() : e + 1;
        char soc[32];
        long offered = -1, delivered = -1, start = -1, end = -1;
        ck_assert_msg(sscanf(line.c_str(), "%31s %ld %ld %ld %ld", soc, &offered, &delivered, &start, &end) == 5,
                      "row '%s'", line.c_str());
        // Nothing lost: what is not delivered is still in flight (coalescing
        // holds a few frames in the ring up to 1 ms).
        ck_assert_msg(offered >= 45 && delivered + end == offered + start && end <= 6,
                      "%s: %ld offered, %ld delivered, %ld in flight at the start, %ld at the end", soc, offered,
                      delivered, start, end);
        rows++;
    }
    ck_assert_uint_eq(rows, k_profile_count);
    rm_rf(dir);
}
END_TEST

// A sender on the core that takes the interrupt (the only core of an
// i.MX6UL or a Vybrid): its first send time was posted before the boot's
// wake-ups, which fired while the core was busy; it must still run.
START_TEST(test_sender_on_the_interrupt_core)
{
    if (!exists("/usr/src/linux-source-6.12.tar.xz"))
        return;
    const std::string dir = tmp_dir();
    const proc_result r =
        fecsim({"run", fecsim_srcdir() + "/scenarios/tx-ring/udp-tx.ini", "-o", "tx.core=0", "-o",
                "scenario.warmup=1ms", "-o", "scenario.duration=30ms", "--run-dir", dir + "/run", "-q"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    // 25 ms of a 100 Mbit/s link at 8 127 frames/s after the sends begin.
    const long long on_wire = stats_txt(dir + "/run/stats.txt")["sink.verified"];
    ck_assert_msg(on_wire > 150, "%lld frames on the wire", on_wire);
    rm_rf(dir);
}
END_TEST

// A socket send buffer bounds what one sender has below the stack: with
// 192 KiB the ring holds about 100 1518-B frames and the queue never stops,
// and the link stays full; without it the ring fills to its stop
// threshold (805 frames).
START_TEST(test_send_buffer_bounds_the_ring)
{
    if (!exists("/usr/src/linux-source-6.12.tar.xz"))
        return;
    const std::string dir = tmp_dir();
    auto run = [&](const char* sndbuf, const char* tag) {
        const proc_result r =
            fecsim({"run", fecsim_srcdir() + "/scenarios/tx-ring/udp-tx.ini", "-o", std::string("tx.sndbuf=") + sndbuf,
                    "-o", "scenario.warmup=150ms", "-o", "scenario.duration=100ms", "--run-dir", dir + "/" + tag,
                    "-q"});
        ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
        return stats_txt(dir + "/" + tag + "/stats.txt");
    };
    auto bounded = run("192KiB", "b");
    ck_assert_int_eq(bounded["txq.stops"], 0);
    ck_assert_msg(bounded["txq.inflight_skb_max"] >= 80 && bounded["txq.inflight_skb_max"] <= 110, "%lld in flight",
                  bounded["txq.inflight_skb_max"]);
    ck_assert_msg(bounded["sink.verified"] >= 800, "%lld frames verified in 100 ms", bounded["sink.verified"]);
    auto unbounded = run("0B", "u");
    ck_assert_int_ge(unbounded["txq.inflight_skb_max"], 800);
    ck_assert_int_gt(unbounded["txq.stops"], 0);
    rm_rf(dir);
}
END_TEST

// scenario.soc: an unknown profile and a scenario whose include= names
// another profile are refused with the place; a valid one checks.
START_TEST(test_soc_key_errors)
{
    const std::string ring = fecsim_srcdir() + "/scenarios/tx-ring/";
    proc_result r = fecsim({"check", ring + "udp-tx.ini", "-o", "scenario.soc=imx8mm"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    r = fecsim({"check", ring + "udp-tx.ini", "-o", "scenario.soc=imx9"});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(r.err.find("-o scenario.soc=imx9: scenario.soc: no profile 'imx9'") != std::string::npos, "%s",
                  r.err.c_str());
    r = fecsim({"check", ring + "udp-tx.ini", "-o", "scenario.soc=../imx6q"});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(r.err.find("is not a valid name") != std::string::npos, "%s", r.err.c_str());
    r = fecsim({"check", ring + "imx6q-100m-udp-tx.ini", "-o", "scenario.soc=imx8mm"});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(r.err.find("profiles/imx6q.ini:") != std::string::npos &&
                      r.err.find("overrides the profile scenario.soc selects, 'imx8mm'") != std::string::npos,
                  "%s", r.err.c_str());
}
END_TEST

Suite* suite_profiles(void)
{
    Suite* s = suite_create("profiles");
    TCase* tc = tcase_create("memory");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_profile_sync_counts_and_costs, 0, k_profile_count);
    tcase_add_loop_test(tc, test_profile_dirty_line_in_rx_buffer, 0, k_profile_count);
    suite_add_tcase(s, tc);
    TCase* run = tcase_create("run");
    tcase_set_timeout(run, 600);
    tcase_add_test(run, test_profiles_run_the_6_12_driver);
    tcase_add_test(run, test_soc_key_errors);
    tcase_add_test(run, test_sender_on_the_interrupt_core);
    tcase_add_test(run, test_send_buffer_bounds_the_ring);
    suite_add_tcase(s, run);
    return s;
}
