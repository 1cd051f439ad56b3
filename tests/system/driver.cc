// Driver in the loop: our FEC driver, built at run time, against the MAC,
// the caches, the CPU model and the stack/app models.
#include "tests/lib.h"
#include "tests/system/sys.h"
#include "drivers/shim/shim.h"
#include "drivers/khost/driver_build.h"
#include <cstring>
#include <glib.h>

using namespace models;

START_TEST(test_frames_reach_app_verified)
{
    sim::soc s(sys_config(10000, 20));
    const sim::run_summary r = s.run();
    ck_assert_msg(r.frames_offered >= 199 && r.frames_offered <= 201, "offered %llu", (unsigned long long)r.frames_offered);
    ck_assert_uint_eq(r.frames_delivered, r.frames_offered);
    ck_assert_uint_eq(r.payload_corrupted, 0);
    ck_assert_uint_eq(r.drops_mac_fifo + r.drops_socket + r.drops_driver, 0);
    ck_assert_uint_eq(sys_stat(s, "ethtool.IEEE_rx_macerr"), 0);
    ck_assert_uint_eq(sys_stat(s, "snmp.Udp.InDatagrams"), r.frames_delivered);
}
END_TEST

// Per copybreak frame: the stock driver syncs 2033 B for the CPU and for the
// device: 2 x (64 L1 + 64 PL310 line operations + 1 CACHE_SYNC).
START_TEST(test_stock_sync_line_ops_per_frame)
{
    sim::soc s(sys_config(10000, 10));
    const sim::run_summary r = s.run();
    const uint64_t frames = sys_stat(s, "netdev.rx_packets");
    ck_assert_uint_eq(frames, 100);
    ck_assert_uint_eq(r.dma_sync_calls, 2 * frames);
    ck_assert_uint_eq(r.dma_sync_lines, 256 * frames);
    ck_assert_uint_eq(sys_stat(s, "cpu0.cat_dma_sync") > 0, 1);
    ck_assert_uint_eq(sys_stat(s, "kernel.dma_sync_cpu_calls"), frames);
    ck_assert_uint_eq(sys_stat(s, "kernel.dma_sync_device_calls"), frames);
    // The PL310 saw those operations and a CACHE_SYNC per call (others come from wmb()).
    ck_assert_uint_ge(sys_stat(s, "l2.inv_line_ops") + sys_stat(s, "l2.clean_inv_line_ops"), 128 * frames);
}
END_TEST

// The measured "patched" driver: sync_for_cpu of the frame only (244 B with
// the SHIFT16 bytes: 8 lines), no sync_for_device.
START_TEST(test_partial_sync_line_ops_per_frame)
{
    sim::soc_config c = sys_config(10000, 10);
    c.driver.patches.push_back(std::string(FECSIM_SRCDIR) + "/drivers/fec/patches/partial-sync.patch");
    sim::soc s(c);
    const sim::run_summary r = s.run();
    const uint64_t frames = sys_stat(s, "netdev.rx_packets");
    ck_assert_uint_eq(frames, 100);
    ck_assert_uint_eq(r.dma_sync_calls, frames);
    ck_assert_uint_eq(r.dma_sync_lines, 16 * frames);
    ck_assert_uint_eq(sys_stat(s, "kernel.dma_sync_device_calls"), 0);
    ck_assert_uint_eq(r.payload_corrupted, 0);
    ck_assert_uint_eq(r.frames_delivered, r.frames_offered);
}
END_TEST

// A driver that never syncs reads lines cached from the previous use of the
// buffer: the application gets the old frame again (its bytes are a valid old
// payload, so they show as duplicates; partly stale frames as corrupted).
START_TEST(test_missing_sync_reads_stale_data)
{
    sim::soc_config c = sys_config(10000, 20);
    c.driver.patches.push_back(sys_fixture("no-sync.patch"));
    c.driver.rx_ring_size = 16;  // buffers come round again while their lines are still cached
    sim::soc s(c);
    const sim::run_summary r = s.run();
    ck_assert_uint_eq(r.dma_sync_calls, 0);
    ck_assert_msg(r.payload_duplicated + r.payload_corrupted > r.frames_offered / 2,
                  "duplicated %llu + corrupted %llu of %llu", (unsigned long long)r.payload_duplicated,
                  (unsigned long long)r.payload_corrupted, (unsigned long long)r.frames_offered);
    ck_assert_uint_eq(r.payload_verified + r.payload_corrupted, sys_stat(s, "app.datagrams"));
}
END_TEST

// Light load: every frame raises the interrupt, the handler masks RX/TX in
// EIMR and schedules NAPI, the poll finishes under budget and unmasks.
START_TEST(test_irq_masked_during_poll_and_reenabled)
{
    sim::soc s(sys_config(5000, 10));
    const sim::run_summary r = s.run();
    const uint64_t frames = sys_stat(s, "netdev.rx_packets");
    ck_assert_uint_eq(frames, 50);
    ck_assert_uint_eq(sys_stat(s, "cpu0.irqs"), frames);
    ck_assert_uint_eq(r.napi_polls, frames);
    ck_assert_uint_eq(sys_stat(s, "napi.completions"), frames);
    ck_assert_uint_eq(sys_stat(s, "cpu0.softirq_inline"), frames);
    ck_assert_uint_eq(sys_stat(s, "cpu0.ksoftirqd_runs"), 0);
    ck_assert_uint_eq(sys_stat(s, "enet.irq_assertions"), frames);
}
END_TEST

// Overload: polls use their whole budget, softirq work moves to ksoftirqd and
// the device interrupt stays masked; frames are lost in the MAC FIFO.
START_TEST(test_overload_moves_to_ksoftirqd)
{
    sim::soc_config c = sys_config(46300, 30);
    c.stack.frame_cycles = 30000;
    sim::soc s(c);
    const sim::run_summary r = s.run();
    ck_assert_uint_gt(sys_stat(s, "cpu0.ksoftirqd_runs"), 10);
    ck_assert_msg(sys_stat(s, "cpu0.irqs") < 5, "irqs %llu", (unsigned long long)sys_stat(s, "cpu0.irqs"));
    ck_assert_msg(r.cpu[0].softirq_pct > 99.0, "cpu0 softirq %.1f%%", r.cpu[0].softirq_pct);
    ck_assert_uint_gt(r.drops_mac_fifo, 100);
    ck_assert_uint_eq(r.drops_socket, 0);
    ck_assert_uint_eq(sys_stat(s, "ethtool.IEEE_rx_macerr"), sys_stat(s, "enet.rx_fifo_drops") + sys_stat(s, "enet.rx_truncated"));
}
END_TEST

// One memory-hog worker of 8 MiB on `core`, 20 k frames/s for 30 ms.
static sim::soc_config hog_config(unsigned core)
{
    sim::soc_config c = sys_config(20000, 30);
    c.stress.enabled = true;
    c.stress.core = core;
    c.stress.vm_bytes = 8 << 20;
    return c;
}

// A memory-hog worker on the RX interrupt core (stress -m N with N = the
// number of cores puts one there) is a task of that core: it takes the time
// NAPI leaves and shares the core with ksoftirqd under overload; its time is
// %sys/%usr and CAT_OTHER, not part of the cycles per received frame.
START_TEST(test_hog_shares_rx_core)
{
    const sim::soc_config c = hog_config(0);
    sim::soc s(c);
    const sim::run_summary r = s.run();
    ck_assert_uint_gt(r.frames_delivered, 100);
    ck_assert_msg(r.cpu[0].idle_pct < 1.0, "cpu0 idle %.1f%%", r.cpu[0].idle_pct);
    ck_assert_msg(r.cpu[0].sys_pct > 20.0, "cpu0 sys %.1f%%", r.cpu[0].sys_pct);
    const double other_ps = (double)models::clock_domain(c.cpu.clock_hz).cycles(sys_stat(s, "cpu0.cat_other"));
    const double other_pct = 100.0 * other_ps / (double)c.scenario.duration_ps;
    ck_assert_msg(other_pct > 20.0, "cpu0 CAT_OTHER %.1f%% of the window", other_pct);
    ck_assert_uint_gt(sys_stat(s, "stress.pages"), 100);
    // The hog's cycles are not the network path's: per frame the RX core
    // costs what it costs without the hog, plus its memory interference.
    ck_assert_msg(r.cpf_total < 45000, "cycles per frame %.0f", r.cpf_total);
    // No worker runs outside the core models: the other cores stay idle.
    ck_assert_msg(r.cpu[2].idle_pct > 99.9 && r.cpu[3].idle_pct > 99.9, "cpu2 idle %.1f%%", r.cpu[2].idle_pct);
}
END_TEST

// A worker given a core of its own runs outside the core models; its core
// still shows it busy (stress runs at ~98 % sys: page faults and zeroing).
START_TEST(test_dedicated_hog_core_accounted)
{
    sim::soc s(hog_config(2));
    const sim::run_summary r = s.run();
    ck_assert_msg(r.cpu[2].idle_pct < 0.5, "cpu2 idle %.1f%%", r.cpu[2].idle_pct);
    ck_assert_msg(r.cpu[2].sys_pct > 80.0 && r.cpu[2].user_pct > 0.5, "cpu2 sys %.1f%% user %.1f%%",
                  r.cpu[2].sys_pct, r.cpu[2].user_pct);
    ck_assert_msg(r.cpu[0].sys_pct < 1.0, "cpu0 sys %.1f%%", r.cpu[0].sys_pct);
    ck_assert_uint_eq(sys_stat(s, "cpu0.cat_other"), 0);
    ck_assert_msg(r.cpu[3].idle_pct > 99.9, "cpu3 idle %.1f%%", r.cpu[3].idle_pct);
}
END_TEST

// Multicast: frames to 239.0.0.1 pass the MAC's group hash only once the
// socket has joined the group and the driver's ndo_set_rx_mode has
// programmed the bit (CRC-32 of 01:00:5e:00:00:01) that the MAC checks.
static sim::soc_config multicast_config(bool join)
{
    sim::soc_config c = sys_config(10000, 20);
    c.traffic.dst_mac = 0x01005E000001ull;
    c.traffic.dst_ip = 0xEF000001u;
    c.app.join_group = join ? 0xEF000001u : 0;
    return c;
}

START_TEST(test_multicast_filtered_without_join)
{
    sim::soc s(multicast_config(false));
    const sim::run_summary r = s.run();
    ck_assert_uint_gt(r.frames_offered, 100);
    ck_assert_uint_eq(r.frames_delivered, 0);
    ck_assert_uint_eq(sys_stat(s, "enet.rx_filtered"), r.frames_offered);
}
END_TEST

START_TEST(test_multicast_received_after_join)
{
    sim::soc s(multicast_config(true));
    const sim::run_summary r = s.run();
    ck_assert_uint_gt(r.frames_offered, 100);
    ck_assert_uint_eq(sys_stat(s, "enet.rx_filtered"), 0);
    ck_assert_uint_eq(r.frames_delivered, r.frames_offered);
}
END_TEST

// A slow reader loses datagrams at the socket, not in the MAC.
START_TEST(test_socket_drops_counted_apart)
{
    sim::soc_config c = sys_config(20000, 40);
    c.app.datagram_cycles = 400000;  // 400 us per datagram: 2.5 k/s against 20 k/s
    sim::soc s(c);
    const sim::run_summary r = s.run();
    ck_assert_uint_gt(r.drops_socket, 100);
    ck_assert_uint_eq(r.drops_mac_fifo, 0);
    ck_assert_uint_eq(sys_stat(s, "snmp.Udp.RcvbufErrors"), r.drops_socket);
    ck_assert_uint_eq(sys_stat(s, "ethtool.IEEE_rx_macerr"), 0);
}
END_TEST

// Transmit: a sender on core 1 hands datagrams to ndo_start_xmit; the MAC
// sends them; the link partner verifies every one. TX completion interrupts
// free the buffers (unmap TO_DEVICE) without coherence violations.
START_TEST(test_tx_path_verified)
{
    sim::soc_config c = sys_config(5000, 20);
    c.tx.enabled = true;
    c.tx.rate_fps = 20000;
    c.tx.start_ps = 4000 * PS_PER_US;
    sim::soc s(c);
    const sim::run_summary r = s.run();
    ck_assert_msg(r.tx_sent >= 395 && r.tx_sent <= 401, "sent %llu", (unsigned long long)r.tx_sent);
    ck_assert_uint_eq(r.tx_refused, 0);
    ck_assert_msg(r.tx_verified + 2 >= r.tx_sent, "verified %llu of %llu", (unsigned long long)r.tx_verified,
                  (unsigned long long)r.tx_sent);
    ck_assert_uint_eq(r.tx_corrupted, 0);
    ck_assert_uint_eq(r.coherence_violations, 0);
    ck_assert_uint_eq(r.frames_delivered, r.frames_offered);  // RX at the same time is unharmed
    ck_assert_uint_ge(sys_stat(s, "kernel.dma_map_calls"), r.tx_sent);  // every TX frame mapped TO_DEVICE
    ck_assert_uint_ge(sys_stat(s, "ethtool.IEEE_tx_frame_ok"), r.tx_verified);
    // With the application and the sender both running, every counter a
    // summary row sums is in the stat tree (sys_stat fails on a missing one).
    size_t n = 0;
    const sim::summary_metric* rows = sim::summary_metrics(&n);
    for (size_t i = 0; i < n; i++) {
        if (rows[i].row != sim::summary_row::counter)
            continue;
        uint64_t sum = 0;
        gchar** terms = g_strsplit(rows[i].source, " + ", -1);
        for (gchar** t = terms; *t; t++)
            sum += sys_stat(s, *t);
        g_strfreev(terms);
        ck_assert_msg(sum == rows[i].count(&r), "%s: %llu, counters sum to %llu", rows[i].name,
                      (unsigned long long)rows[i].count(&r), (unsigned long long)sum);
    }
}
END_TEST

START_TEST(test_unknown_kernel_symbol_named)
{
    khost::driver_build_config b;
    b.source_dir = sys_fixture("bad-symbol");
    try {
        khost::driver_load(b);
        ck_abort_msg("loading a driver with an unknown kernel symbol succeeded");
    } catch (const khost::driver_error& e) {
        ck_assert_msg(std::strstr(e.what(), "phy_start_aneg_not_in_shim"), "message: %s", e.what());
    }
}
END_TEST

START_TEST(test_bad_patch_and_compile_errors)
{
    khost::driver_build_config b;
    b.patches.push_back(sys_fixture("does-not-apply.patch"));
    try {
        khost::driver_load(b);
        ck_abort_msg("a patch that does not apply was accepted");
    } catch (const khost::driver_error& e) {
        ck_assert_msg(std::strstr(e.what(), "does-not-apply.patch") && std::strstr(e.what(), "does not apply"),
                      "message: %s", e.what());
    }
    khost::driver_build_config c;
    c.source_dir = sys_fixture("bad-compile");
    try {
        khost::driver_load(c);
        ck_abort_msg("a driver that does not compile was accepted");
    } catch (const khost::driver_error& e) {
        ck_assert_msg(std::strstr(e.what(), "does not compile") && std::strstr(e.what(), "undeclared_identifier"),
                      "message: %s", e.what());
    }
}
END_TEST

Suite* suite_driver(void)
{
    Suite* s = suite_create("driver");
    TCase* tc = tests_tcase("in_the_loop", 120);
    tcase_add_test(tc, test_frames_reach_app_verified);
    tcase_add_test(tc, test_stock_sync_line_ops_per_frame);
    tcase_add_test(tc, test_partial_sync_line_ops_per_frame);
    tcase_add_test(tc, test_missing_sync_reads_stale_data);
    tcase_add_test(tc, test_irq_masked_during_poll_and_reenabled);
    tcase_add_test(tc, test_overload_moves_to_ksoftirqd);
    tcase_add_test(tc, test_socket_drops_counted_apart);
    tcase_add_test(tc, test_hog_shares_rx_core);
    tcase_add_test(tc, test_multicast_filtered_without_join);
    tcase_add_test(tc, test_multicast_received_after_join);
    tcase_add_test(tc, test_dedicated_hog_core_accounted);
    tcase_add_test(tc, test_tx_path_verified);
    tcase_add_test(tc, test_unknown_kernel_symbol_named);
    tcase_add_test(tc, test_bad_patch_and_compile_errors);
    suite_add_tcase(s, tc);
    return s;
}
