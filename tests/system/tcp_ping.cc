// The board's TCP stream (tx.protocol=tcp_cubic: iperf3 -c through the
// board's stack, qdisc and the 6.12 fec driver, clocked by the link
// partner's ACKs) and ping beside it (scenarios/tx-ring/tcp-tx.ini); the
// desktop's stream to the board (peer.tcp_send: iperf3 -s on the board,
// GRO, its ACKs through the qdisc; scenarios/tx-ring/tcp-rx.ini).
#include "tests/lib.h"
#include <string>
#include <vector>
#include "tests/system/cli.h"

static const char* const k_tree = "/usr/src/linux-source-6.12.tar.xz";

// One run of scenarios/tx-ring/<ini> with the settings base and then opts
// (-o each), into dir/tag; its stats.txt.
static std::map<std::string, long long> run_ini(const std::string& dir, const std::string& tag, const char* ini,
                                                std::vector<std::string> base, const std::vector<std::string>& opts)
{
    base.insert(base.end(), opts.begin(), opts.end());
    std::vector<std::string> args = {"run", fecsim_srcdir() + "/scenarios/tx-ring/" + ini};
    for (const std::string& o : base) {
        args.push_back("-o");
        args.push_back(o);
    }
    args.insert(args.end(), {"--run-dir", dir + "/" + tag, "-q"});
    const proc_result r = fecsim(args);
    ck_assert_msg(r.status == 0, "%s: exit %d: %s", tag.c_str(), r.status, r.err.c_str());
    return stats_txt(dir + "/" + tag + "/stats.txt");
}

// One run of tcp-tx.ini (500 ms after 200 ms) with extra -o settings.
static std::map<std::string, long long> run_tcp(const std::string& dir, const std::string& tag,
                                                const std::vector<std::string>& opts)
{
    return run_ini(dir, tag, "tcp-tx.ini",
                   {"scenario.warmup=200ms", "scenario.duration=500ms", "peer.ping_interval=50ms",
                    "peer.ping_start=100ms"},
                   opts);
}

static double goodput_bps(std::map<std::string, long long>& s) { return s["peer.tcp_bytes"] * 8 / 0.5; }
static double rtt_avg_ms(std::map<std::string, long long>& s)
{
    return s["peer.ping_received"] ? s["peer.rtt_sum_ns"] / 1e6 / s["peer.ping_received"] : 0;
}

// At 100 Mbit/s the stream fills the link: 1448 payload bytes in every
// 1538 byte times (preamble, header, FCS, gap) is 94.15 Mbit/s. TCP Small
// Queues keep a few TSO skbs below the socket, not the ring's 1024 entries;
// every echo request is answered, after at least two frames' wire time.
START_TEST(test_stream_fills_the_link_and_ping_answers)
{
    if (!exists(k_tree))
        return;
    const std::string dir = tmp_dir();
    auto s = run_tcp(dir, "a", {});
    const double g = goodput_bps(s);
    ck_assert_msg(g > 92e6 && g <= 94.16e6, "goodput %.2f Mbit/s", g / 1e6);
    ck_assert_int_eq(s["sink.corrupted"], 0);
    ck_assert_int_eq(s["sink.csum_errors"], 0);
    ck_assert_int_eq(s["tcp.retrans_segs"], 0);
    ck_assert_msg(s["txq.inflight_skb_max"] >= 2 && s["txq.inflight_skb_max"] <= 4, "%lld skbs in the driver",
                  s["txq.inflight_skb_max"]);
    ck_assert_int_gt(s["txq.gso_segments"], 3000);  // TSO: segments built by the driver
    ck_assert_int_ge(s["peer.ping_sent"], 9);
    ck_assert_int_eq(s["peer.ping_received"], s["peer.ping_sent"]);
    ck_assert_int_eq(s["peer.ping_bad"], 0);
    ck_assert_int_eq(s["stack.icmp_echo_requests"], s["stack.icmp_echo_replies"]);
    // a 98-B datagram each way (102 B + preamble + gap on the wire: 9.8 us)
    ck_assert_msg(s["peer.rtt_min_ns"] > 19600, "rtt min %lld ns", s["peer.rtt_min_ns"]);
    ck_assert_int_eq(s["flight.end"], 0);
    rm_rf(dir);
}
END_TEST

// The ping reply waits behind what TSQ lets the stream keep in the ring:
// a smaller tcp_limit_output_bytes leaves less there and the RTT drops.
START_TEST(test_tsq_limit_sets_the_ping_rtt)
{
    if (!exists(k_tree))
        return;
    const std::string dir = tmp_dir();
    auto big = run_tcp(dir, "big", {});
    auto small = run_tcp(dir, "small", {"tx.tcp_limit_output_bytes=8KiB"});
    const double rb = rtt_avg_ms(big), rs = rtt_avg_ms(small);
    ck_assert_msg(rb > 2.0 && rs < 0.7 * rb, "rtt %.3f ms with the default limit, %.3f ms with 8 KiB", rb, rs);
    ck_assert_int_lt(small["txq.inflight_bd_max"], big["txq.inflight_bd_max"]);
    const double g = goodput_bps(small);
    ck_assert_msg(g > 85e6, "goodput %.2f Mbit/s with 8 KiB", g / 1e6);
    rm_rf(dir);
}
END_TEST

// pfifo_fast instead of fq_codel: the same stream and answers; and a
// 1 Gbit/s profile's stream (i.MX8MP) is above 800 Mbit/s, its descriptors
// within the ring.
START_TEST(test_pfifo_fast_and_a_gigabit_profile)
{
    if (!exists(k_tree))
        return;
    const std::string dir = tmp_dir();
    auto p = run_tcp(dir, "p", {"qdisc.kind=pfifo_fast"});
    ck_assert_msg(goodput_bps(p) > 92e6, "goodput %.2f Mbit/s", goodput_bps(p) / 1e6);
    ck_assert_int_eq(p["peer.ping_received"], p["peer.ping_sent"]);
    ck_assert_int_eq(p["qdisc.enqueued"], p["stack.tcp_skbs"] + p["stack.icmp_echo_replies"]);
    auto g = run_tcp(dir, "g", {"scenario.soc=imx8mp", "scenario.duration=100ms", "scenario.warmup=100ms",
                                "peer.ping_start=50ms", "peer.ping_interval=10ms"});
    const double bps = g["peer.tcp_bytes"] * 8 / 0.1;
    ck_assert_msg(bps > 800e6 && bps < 950e6, "goodput %.1f Mbit/s", bps / 1e6);
    ck_assert_int_lt(g["txq.inflight_bd_max"], 1024);
    ck_assert_int_eq(g["sink.corrupted"], 0);
    ck_assert_int_eq(g["peer.ping_received"], g["peer.ping_sent"]);
    // the same scenario and seed give the same statistics, ACK timing and all
    auto g2 = run_tcp(dir, "g2", {"scenario.soc=imx8mp", "scenario.duration=100ms", "scenario.warmup=100ms",
                                  "peer.ping_start=50ms", "peer.ping_interval=10ms"});
    ck_assert(g == g2);
    rm_rf(dir);
}
END_TEST

// A sweep of the TCP scenario draws the transmit side: goodput, ping RTT
// and ring use, besides the usual plots.
START_TEST(test_sweep_plots_the_stream)
{
    if (!exists(k_tree))
        return;
    const std::string dir = tmp_dir();
    const proc_result r =
        fecsim({"sweep", fecsim_srcdir() + "/scenarios/tx-ring/tcp-tx.ini", "-o", "scenario.warmup=50ms", "-o",
                "scenario.duration=50ms", "-o", "peer.ping_start=20ms", "-o", "peer.ping_interval=10ms", "--vary",
                "qdisc.kind=pfifo_fast,fq_codel", "--out", dir, "-q"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    std::string sweep = shell("ls -d " + dir + "/tcp-tx/sweep-*", dir).out;
    while (!sweep.empty() && (sweep.back() == '\n' || sweep.back() == ' '))
        sweep.pop_back();
    for (const char* f : {"tcp.svg", "ping.svg", "txq.svg", "cpu.svg"})
        ck_assert_msg(exists(sweep + "/plots/" + f), "%s/plots/%s", sweep.c_str(), f);
    const std::string csv = read_text(sweep + "/sweep.csv");
    ck_assert(csv.find("tcp.goodput_mbps") != std::string::npos && csv.find("ping.rtt_avg_ms") != std::string::npos);
    rm_rf(dir);
}
END_TEST

// fecsim's own driver has no 6.x transmit path: ping and the TCP stream are
// refused before the run, naming the key.
START_TEST(test_own_driver_refuses_stream_and_ping)
{
    proc_result r = fecsim({"check", fecsim_srcdir() + "/scenarios/default.ini", "-o", "peer.ping=true"});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(r.err.find("peer.ping needs a kernel tree's driver (driver.tree)") != std::string::npos, "%s",
                  r.err.c_str());
    r = fecsim({"check", fecsim_srcdir() + "/scenarios/default.ini", "-o", "tx.enabled=true", "-o",
                "tx.protocol=tcp_cubic"});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(r.err.find("tx.protocol=tcp_cubic") != std::string::npos, "%s", r.err.c_str());
}
END_TEST

// One run of tcp-rx.ini (the desktop's stream to the board), measured for
// `ms` after 100 ms of warm-up, with extra -o settings.
static std::map<std::string, long long> run_rx(const std::string& dir, const std::string& tag, int ms,
                                               const std::vector<std::string>& opts)
{
    return run_ini(dir, tag, "tcp-rx.ini",
                   {"scenario.warmup=100ms", "scenario.duration=" + std::to_string(ms) + "ms",
                    "peer.ping_interval=20ms", "peer.ping_start=50ms"},
                   opts);
}

// The board as the iperf3 server on a gigabit profile with interrupt
// coalescing: the stream fills the link (1448 of every 1538 byte times:
// 941.5 Mbit/s), GRO merges the segments of one poll into aggregates of
// several segments, one ACK goes per aggregate at most, every byte the
// application reads is the stream's at its offset, and every frame is
// accounted for; the same seed gives the same statistics.
START_TEST(test_board_receives_a_gigabit_stream)
{
    if (!exists(k_tree))
        return;
    const std::string dir = tmp_dir();
    const std::vector<std::string> o = {"scenario.soc=imx8mp"};
    auto s = run_rx(dir, "a", 200, o);
    const double bps = s["app.bytes"] * 8 / 0.2;
    ck_assert_msg(bps > 900e6 && bps < 941.6e6, "goodput %.1f Mbit/s", bps / 1e6);
    ck_assert_int_eq(s["app.corrupted"], 0);
    ck_assert_int_gt(s["app.verified"], 100);
    ck_assert_int_eq(s["app.verified"], s["stack.tcp_rx_reads"]);
    ck_assert_int_eq(s["app.bytes"], s["stack.tcp_rx_bytes_read"]);
    ck_assert_msg(s["stack.tcp_rx_segs"] >= 4 * s["stack.tcp_rx_gro_units"], "%lld segments in %lld aggregates",
                  s["stack.tcp_rx_segs"], s["stack.tcp_rx_gro_units"]);
    ck_assert_int_le(s["stack.tcp_rx_acks"], s["stack.tcp_rx_gro_units"] + s["stack.tcp_rx_window_updates"]);
    ck_assert_int_eq(s["peer.tx_retrans_segs"], 0);
    ck_assert_int_eq(s["peer.ping_received"], s["peer.ping_sent"]);
    // frames still in the FIFO and ring at the end are those the counters leave in flight
    ck_assert_int_eq(s["flight.end"], s["flight.observed_end"]);
    // the skbs the socket still holds are not leaks
    ck_assert_int_gt(s["stack.tcp_rx_rmem_max"], 20000);
    ck_assert_int_eq(s["coherence.violations"], 0);
    auto s2 = run_rx(dir, "b", 200, o);
    ck_assert(s == s2);
    rm_rf(dir);
}
END_TEST

// Without coalescing (the i.MX6Q) at 100 Mbit/s every frame has its own
// interrupt and poll: GRO finds nothing to merge and the application reads
// a segment at a time. At 1 Gbit/s the i.MX6Q's receive path saturates its
// cores below the link and its bus limit; the MAC's pause frames hold the
// desktop back instead of the FIFO overflowing.
START_TEST(test_imx6q_receive_without_coalescing)
{
    if (!exists(k_tree))
        return;
    const std::string dir = tmp_dir();
    auto f = run_rx(dir, "fast", 200, {});
    const double bf = f["app.bytes"] * 8 / 0.2;
    ck_assert_msg(bf > 93e6 && bf < 94.16e6, "goodput %.2f Mbit/s", bf / 1e6);
    ck_assert_int_eq(f["stack.tcp_rx_segs"], f["stack.tcp_rx_gro_units"]);
    auto g = run_rx(dir, "giga", 200, {"enet.link_speed=1Gbps", "traffic.link_speed=1Gbps"});
    const double bg = g["app.bytes"] * 8 / 0.2;
    ck_assert_msg(bg > 200e6 && bg < 470e6, "goodput %.1f Mbit/s", bg / 1e6);
    ck_assert_int_gt(g["traffic.pauses"], 1000);
    ck_assert_int_eq(g["enet.rx_fifo_drops"] + g["enet.rx_truncated"], 0);
    ck_assert_int_eq(g["app.corrupted"], 0);
    rm_rf(dir);
}
END_TEST

// A link partner slow to obey pause frames overflows the FIFO: segments are
// lost, the next ones wait in the out-of-order queue, the desktop
// retransmits, and the application still reads the stream in order.
START_TEST(test_losses_are_repaired_in_order)
{
    if (!exists(k_tree))
        return;
    const std::string dir = tmp_dir();
    auto s = run_rx(dir, "a", 1000, {"enet.link_speed=1Gbps", "traffic.link_speed=1Gbps", "enet.pause_reaction=100us"});
    ck_assert_int_gt(s["enet.rx_fifo_drops"] + s["enet.rx_truncated"], 0);
    ck_assert_int_gt(s["stack.tcp_rx_ofo_segs"], 0);
    ck_assert_int_gt(s["peer.tx_retrans_segs"], 0);
    ck_assert_int_gt(s["app.verified"], 0);
    ck_assert_int_eq(s["app.corrupted"], 0);
    ck_assert_int_eq(s["flight.end"], s["flight.observed_end"]);
    rm_rf(dir);
}
END_TEST

// A receive buffer far below the path's bandwidth-delay product limits the
// stream to about a window per round trip; the application's reads then
// send window updates. The stream needs the board's application.
START_TEST(test_receive_buffer_limits_the_stream)
{
    if (!exists(k_tree))
        return;
    const std::string dir = tmp_dir();
    auto s = run_rx(dir, "a", 200, {"scenario.soc=imx8mp", "stack.tcp_rcvbuf=64KiB"});
    const double bps = s["app.bytes"] * 8 / 0.2;
    ck_assert_msg(bps < 700e6, "goodput %.1f Mbit/s with a 64-KiB buffer", bps / 1e6);
    ck_assert_int_le(s["stack.tcp_rx_rmem_max"], 64 * 1024 + 8192);
    ck_assert_int_eq(s["app.corrupted"], 0);
    const proc_result r = fecsim({"check", fecsim_srcdir() + "/scenarios/tx-ring/tcp-rx.ini", "-o", "app.enabled=false"});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(r.err.find("peer.tcp_send needs the board's application (app.enabled=true)") != std::string::npos,
                  "%s", r.err.c_str());
    rm_rf(dir);
}
END_TEST

Suite* suite_tcp_ping(void)
{
    Suite* s = suite_create("tcp_ping");
    TCase* tc = tcase_create("run");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_stream_fills_the_link_and_ping_answers);
    tcase_add_test(tc, test_tsq_limit_sets_the_ping_rtt);
    tcase_add_test(tc, test_pfifo_fast_and_a_gigabit_profile);
    tcase_add_test(tc, test_sweep_plots_the_stream);
    tcase_add_test(tc, test_own_driver_refuses_stream_and_ping);
    tcase_add_test(tc, test_board_receives_a_gigabit_stream);
    tcase_add_test(tc, test_imx6q_receive_without_coalescing);
    tcase_add_test(tc, test_losses_are_repaired_in_order);
    tcase_add_test(tc, test_receive_buffer_limits_the_stream);
    suite_add_tcase(s, tc);
    return s;
}
