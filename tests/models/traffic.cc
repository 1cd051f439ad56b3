// Traffic source and sink: frame format and payload verification, sequence
// accounting, arrival processes, pcap replay and capture.
#include "tests/lib.h"
#include "tests/models/enet_tb.h"
#include <pcap/pcap.h>
#include <cmath>
#include <cstdlib>
#include <unistd.h>

using namespace enet_tb;
using traffic::traffic_config;
using traffic::traffic_sink;
using traffic::traffic_source;

static const tick_t US = PS_PER_US;

START_TEST(test_frame_format_verifies_and_detects_corruption)
{
    traffic_config tc;
    auto f = expected_frame(tc, 246, 0x01020304);
    ck_assert_msg(traffic_fcs_ok(f.data(), f.size()), "FCS valid");
    int ip_ok = 0, l4_ok = 0;
    ck_assert_int_eq(traffic_ipv4_checks(f.data(), f.size() - 4, &ip_ok, &l4_ok), 0);
    ck_assert_msg(ip_ok && l4_ok, "IPv4 header and UDP checksums valid");
    ck_assert_msg(f[12] == 0x08 && f[13] == 0x00 && f[23] == 17, "Ethernet II / IPv4 / UDP");
    const uint8_t* p;
    size_t n;
    ck_assert_int_eq(traffic_udp_payload(f.data(), f.size() - 4, &p, &n), 0);
    ck_assert_uint_eq(n, 246 - 4 - 42);  // 200-B payload, as iperf3 -l 200
    uint32_t seq = 0;
    ck_assert_int_eq(traffic_verify_payload(p, n, &seq), TRAFFIC_OK);
    ck_assert_uint_eq(seq, 0x01020304);
    for (size_t off : {size_t(0), size_t(5), size_t(100), n - 1}) {
        std::vector<uint8_t> g(f);
        g[42 + off] ^= 0x10;
        ck_assert_msg(traffic_verify_payload(g.data() + 42, n, &seq) == TRAFFIC_CORRUPT,
                      "flipped payload byte %zu is detected", off);
        ck_assert_msg(!traffic_fcs_ok(g.data(), g.size()), "and breaks the FCS");
    }
    ck_assert_int_eq(traffic_verify_payload(p, 7, &seq), TRAFFIC_SHORT);
    ck_assert_uint_eq(traffic_build_frame(f.data(), 63, nullptr, 0), 0);
    // Smallest frame: 64 B carries an 18-B payload.
    auto m = expected_frame(tc, 64, 7);
    ck_assert_int_eq(traffic_udp_payload(m.data(), 60, &p, &n), 0);
    ck_assert_uint_eq(n, 18);
    ck_assert_int_eq(traffic_verify_payload(p, n, &seq), TRAFFIC_OK);
    ck_assert_uint_eq(seq, 7);
    // CRC-32 check value of "123456789".
    ck_assert_uint_eq(traffic_crc32((const uint8_t*)"123456789", 9), 0xCBF43926u);
}
END_TEST

// The receiver's UDP check: right, one byte off, no checksum sent, a UDP
// length beyond the bytes there or below the header.
START_TEST(test_udp4_checksum_check)
{
    traffic_config tc;
    auto f = expected_frame(tc, 246, 3);
    const size_t avail = 246 - 4 - 14 - 20;  // UDP header and payload, FCS excluded
    uint8_t* ip = f.data() + 14;
    ck_assert(traffic_udp4_checksum_ok(ip, avail));
    std::vector<uint8_t> g(f);
    g[14 + 20 + 8 + 50] ^= 0x01;
    ck_assert(!traffic_udp4_checksum_ok(g.data() + 14, avail));
    g[14 + 20 + 6] = g[14 + 20 + 7] = 0;
    ck_assert(traffic_udp4_checksum_ok(g.data() + 14, avail));
    ck_assert(!traffic_udp4_checksum_ok(ip, avail - 1));
    std::vector<uint8_t> h(f);
    h[14 + 20 + 4] = 0;
    h[14 + 20 + 5] = 7;
    ck_assert(!traffic_udp4_checksum_ok(h.data() + 14, avail));
}
END_TEST

START_TEST(test_seq_tracker)
{
    traffic_seq_tracker t;
    traffic_seq_init(&t);
    for (uint32_t s : {0u, 1u, 3u, 2u, 3u, 4u, 10u})
        traffic_seq_note(&t, s);
    ck_assert_uint_eq(t.received, 6);   // 0 1 3 2 4 10
    ck_assert_uint_eq(t.duplicated, 1); // the second 3
    ck_assert_uint_eq(t.reordered, 1);  // 2 after 3
    ck_assert_uint_eq(t.lost, 5);       // 5..9
}
END_TEST

START_TEST(test_source_constant_rate_and_cap)
{
    time_setup();
    traffic_config a;
    a.count = 5;
    a.rate_fps = 10000;  // 100 us apart
    traffic_config c = a;
    c.rate_fps = 1e6;    // above line rate: capped at 21.28 us
    traffic_config d = a;
    d.rate_fps = 0;
    d.rate_bps = 246 * 8 * 20000.0;  // 20 k frames/s of 246 B: 50 us
    traffic_source sa("a", a), sc_("c", c), sd("d", d);
    traffic_sink ka("ka"), kc("kc"), kd("kd");
    std::vector<tick_t> ta, tcv, td;
    ka.set_observer([&](const eth_frame& f) { ta.push_back(f.start_ps); });
    kc.set_observer([&](const eth_frame& f) { tcv.push_back(f.start_ps); });
    kd.set_observer([&](const eth_frame& f) { td.push_back(f.start_ps); });
    sa.out.bind(ka.in);
    sc_.out.bind(kc.in);
    sd.out.bind(kd.in);
    sc_core::sc_start(from_ps(1000 * US));
    ck_assert_uint_eq(ta.size(), 5);
    ck_assert_uint_eq(tcv.size(), 5);
    ck_assert_uint_eq(td.size(), 5);
    for (int i = 1; i < 5; i++) {
        ck_assert_uint_eq(ta[i] - ta[i - 1], 100 * US);
        ck_assert_uint_eq(tcv[i] - tcv[i - 1], 21280000);
        ck_assert_uint_eq(td[i] - td[i - 1], 50 * US);
    }
    ck_assert_uint_eq(ka.stats().verified, 5);
    ck_assert_uint_eq(ka.stats().lost, 0);
    ck_assert_msg(sa.done(), "count reached");
    ck_assert_uint_eq(sa.stats().bytes, 5 * 246);
}
END_TEST

START_TEST(test_source_burst_poisson_sizes)
{
    time_setup();
    traffic_config bc;
    bc.mode = traffic::MODE_BURST;
    bc.burst_frames = 3;
    bc.burst_period_ps = 200 * US;
    bc.count = 6;
    bc.size_mode = traffic::SIZE_LIST;
    bc.size_list = {64, 128, 1518};
    traffic_config pc;
    pc.mode = traffic::MODE_POISSON;
    pc.rate_fps = 20000;  // mean 50 us
    pc.count = 400;
    pc.size_mode = traffic::SIZE_UNIFORM;
    pc.size_min = 100;
    pc.size_max = 200;
    pc.seed = 42;
    traffic_source sb("b", bc), sp("p", pc);
    traffic_sink kb("kb"), kp("kp");
    std::vector<std::pair<tick_t, uint32_t>> tb, tp;
    kb.set_observer([&](const eth_frame& f) { tb.emplace_back(f.start_ps, f.len); });
    kp.set_observer([&](const eth_frame& f) { tp.emplace_back(f.start_ps, f.len); });
    sb.out.bind(kb.in);
    sp.out.bind(kp.in);
    sc_core::sc_start(from_ps(40000 * US));
    ck_assert_uint_eq(tb.size(), 6);
    const uint32_t sizes[] = {64, 128, 1518, 64, 128, 1518};
    for (int i = 0; i < 6; i++)
        ck_assert_msg(tb[i].second == sizes[i], "size list cycled: frame %d is %u B", i, tb[i].second);
    ck_assert_uint_eq(tb[0].first, 0);
    ck_assert_uint_eq(tb[1].first, (8 + 64 + 12) * 80000ull);
    ck_assert_uint_eq(tb[2].first, tb[1].first + (8 + 128 + 12) * 80000ull);
    ck_assert_uint_eq(tb[3].first, 200 * US);
    ck_assert_uint_eq(tp.size(), 400);
    double sum = 0;
    for (size_t i = 1; i < tp.size(); i++) {
        const tick_t gap = tp[i].first - tp[i - 1].first;
        ck_assert_msg(gap >= (8 + tp[i - 1].second + 12) * 80000ull, "Poisson gaps respect line rate");
        sum += (double)gap;
    }
    const double mean_us = sum / 399 / US;
    ck_assert_msg(std::fabs(mean_us - 50) < 5, "Poisson mean gap %.1f us, want 50 +- 5", mean_us);
    bool varied = false;
    for (const auto& x : tp) {
        ck_assert_msg(x.second >= 100 && x.second <= 200, "uniform size in range: %u", x.second);
        varied |= x.second != tp[0].second;
    }
    ck_assert_msg(varied, "uniform sizes vary");
    ck_assert_uint_eq(kp.stats().verified, 400);
}
END_TEST

// A pcap written here with libpcap is replayed; the frames (FCS added) and
// their relative timing come back, and the sink's capture holds the same bytes.
START_TEST(test_pcap_replay_and_capture)
{
    time_setup();
    char in_path[] = "/tmp/fecsim-in-XXXXXX", out_path[] = "/tmp/fecsim-out-XXXXXX";
    int fd = mkstemp(in_path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    fd = mkstemp(out_path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    const unsigned lens[] = {60, 100, 1000};
    const unsigned usec[] = {0, 100, 150};
    std::vector<std::vector<uint8_t>> frames;
    {
        pcap_t* p = pcap_open_dead(DLT_EN10MB, 65535);
        pcap_dumper_t* d = pcap_dump_open(p, in_path);
        ck_assert_ptr_nonnull(d);
        for (int i = 0; i < 3; i++) {
            std::vector<uint8_t> f(lens[i]);
            for (unsigned k = 0; k < lens[i]; k++)
                f[k] = (uint8_t)(k * 31 + i);
            struct pcap_pkthdr h = {};
            h.ts.tv_sec = 1000;
            h.ts.tv_usec = usec[i];
            h.caplen = h.len = lens[i];
            pcap_dump((u_char*)d, &h, f.data());
            frames.push_back(f);
        }
        pcap_dump_close(d);
        pcap_close(p);
    }
    traffic_config tc;
    tc.mode = traffic::MODE_PCAP;
    tc.pcap_file = in_path;
    tc.start_ps = 10 * US;
    traffic::sink_config kc;
    kc.pcap_file = out_path;
    std::vector<enet_tb::captured> got;
    {
        traffic_source src("src", tc);
        traffic_sink sink("sink", kc);
        sink.set_observer([&](const eth_frame& f) {
            got.push_back({std::vector<uint8_t>(f.data, f.data + f.len), f.start_ps});
        });
        src.out.bind(sink.in);
        sc_core::sc_start(from_ps(1000 * US));
        ck_assert_msg(src.done(), "file exhausted");
        ck_assert_uint_eq(src.stats().frames, 3);
        sink.flush();
    }
    ck_assert_uint_eq(got.size(), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(got[i].data.size(), lens[i] + 4);
        ck_assert_mem_eq(got[i].data.data(), frames[i].data(), lens[i]);
        ck_assert_msg(traffic_fcs_ok(got[i].data.data(), got[i].data.size()), "FCS added to frame %d", i);
        ck_assert_uint_eq(got[i].start, 10 * US + usec[i] * US);
    }
    char err[PCAP_ERRBUF_SIZE];
    pcap_t* r = pcap_open_offline_with_tstamp_precision(out_path, PCAP_TSTAMP_PRECISION_NANO, err);
    ck_assert_msg(r != nullptr, "capture readable: %s", err);
    for (int i = 0; i < 3; i++) {
        struct pcap_pkthdr* h;
        const u_char* d;
        ck_assert_int_eq(pcap_next_ex(r, &h, &d), 1);
        ck_assert_uint_eq(h->caplen, lens[i]);
        ck_assert_mem_eq(d, frames[i].data(), lens[i]);
        ck_assert_uint_eq((uint64_t)h->ts.tv_usec, (10 + usec[i]) * 1000ull);  // ns
    }
    pcap_close(r);
    unlink(in_path);
    unlink(out_path);
}
END_TEST

START_TEST(test_pcap_back_to_back)
{
    time_setup();
    char path[] = "/tmp/fecsim-b2b-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    pcap_t* p = pcap_open_dead(DLT_EN10MB, 65535);
    pcap_dumper_t* d = pcap_dump_open(p, path);
    std::vector<uint8_t> f(242, 0x5A);
    for (int i = 0; i < 3; i++) {
        struct pcap_pkthdr h = {};
        h.ts.tv_sec = i * 10;  // far apart in the file
        h.caplen = h.len = 242;
        pcap_dump((u_char*)d, &h, f.data());
    }
    pcap_dump_close(d);
    pcap_close(p);
    traffic_config tc;
    tc.mode = traffic::MODE_PCAP;
    tc.pcap_timing = traffic::PCAP_BACK_TO_BACK;
    tc.pcap_file = path;
    traffic_source src("src", tc);
    traffic_sink sink("sink");
    std::vector<tick_t> t;
    sink.set_observer([&](const eth_frame& e) { t.push_back(e.start_ps); });
    src.out.bind(sink.in);
    sc_core::sc_start(from_ps(1000 * US));
    ck_assert_uint_eq(t.size(), 3);
    ck_assert_uint_eq(t[1] - t[0], 21280000);
    ck_assert_uint_eq(t[2] - t[1], 21280000);
    unlink(path);
}
END_TEST

START_TEST(test_source_honours_pause)
{
    time_setup();
    traffic_config tc;
    tc.count = 10;
    traffic_source src("src", tc);
    traffic_sink sink("sink");
    std::vector<tick_t> t;
    sink.set_observer([&](const eth_frame& e) { t.push_back(e.start_ps); });
    src.out.bind(sink.in);
    sc_core::sc_start(from_ps(30 * US));  // frames at 0 and 21.28 us
    // XOFF effective at 40 us for 100 quanta = 100 * 512 bit times = 512 us: the
    // frame due at 42.56 us waits until 552 us.
    src.pause_in->pause(100, 40 * US);
    sc_core::sc_start(from_ps(540 * US));  // to 570 us
    ck_assert_uint_eq(t.size(), 3);
    ck_assert_uint_eq(t[2], 552 * US);
    ck_assert_uint_eq(src.stats().paused_ps, 552 * US - 42560000);
    // XOFF at 620 us, XON at 650 us: the frame due at 637.12 us starts at 650 us.
    src.pause_in->pause(100, 620 * US);
    sc_core::sc_start(from_ps(70 * US));  // to 640 us
    src.pause_in->pause(0, 650 * US);
    sc_core::sc_start(from_ps(60 * US));  // to 700 us
    ck_assert_uint_eq(t.size(), 9);
    ck_assert_uint_eq(t[5], 615840000);
    ck_assert_uint_eq(t[6], 650 * US);
    ck_assert_uint_eq(t[7], 650 * US + 21280000);
    ck_assert_uint_eq(src.stats().pauses, 3);
}
END_TEST

// Injected frames (the link partner's own endpoints): each starts at its
// time or when the line is free, between the generated frames, with a good
// FCS; a generated frame due while one is on the line waits for it.
START_TEST(test_source_injects_between_generated_frames)
{
    time_setup();
    traffic_config tc;
    tc.count = 3;
    tc.rate_fps = 10000;  // 246-B frames 100 us apart, 21.28 us on the wire each
    traffic_source src("src", tc);
    traffic_sink sink("sink");
    std::vector<std::pair<tick_t, uint32_t>> t;
    std::vector<int> fcs;
    sink.set_observer([&](const eth_frame& e) {
        t.push_back({e.start_ps, e.len});
        fcs.push_back(traffic_fcs_ok(e.data, e.len));
    });
    src.out.bind(sink.in);
    src.enable_injection();
    traffic_flow fl{};
    uint8_t ack[80];
    const size_t n = traffic_build_tcp_ack(ack, &fl, 0, 1000, 100, 1);  // 66 B: 70 B with the FCS
    src.inject(ack, (uint32_t)n, 10 * US);   // the line is busy until 21.28 us
    src.inject(ack, (uint32_t)n, 99 * US);   // on the line when frame 1 is due at 100 us
    src.inject(ack, 20, 150 * US);           // short: padded to 64 B
    sc_core::sc_start(from_ps(400 * US));
    ck_assert_uint_eq(t.size(), 6);
    ck_assert_uint_eq(t[0].first, 0);
    ck_assert_uint_eq(t[1].first, 21280000);
    ck_assert_uint_eq(t[1].second, 70);
    ck_assert_uint_eq(t[2].first, 99 * US);
    ck_assert_uint_eq(t[3].first, 99 * US + (8 + 70 + 12) * 80000);  // frame 1 after it
    ck_assert_uint_eq(t[3].second, 246);
    ck_assert_uint_eq(t[4].first, 150 * US);
    ck_assert_uint_eq(t[4].second, 64);
    ck_assert_uint_eq(t[5].second, 246);
    for (int ok : fcs)
        ck_assert(ok);
    ck_assert_uint_eq(src.stats().frames, 3);
    ck_assert_uint_eq(src.stats().injected, 3);
    ck_assert_uint_eq(sink.stats().verified, 3);
    ck_assert_uint_eq(sink.stats().lost, 0);
}
END_TEST

Suite* suite_traffic(void)
{
    Suite* s = suite_create("traffic");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_MODEL);
    tcase_add_test(tc, test_frame_format_verifies_and_detects_corruption);
    tcase_add_test(tc, test_udp4_checksum_check);
    tcase_add_test(tc, test_seq_tracker);
    tcase_add_test(tc, test_source_constant_rate_and_cap);
    tcase_add_test(tc, test_source_burst_poisson_sizes);
    tcase_add_test(tc, test_pcap_replay_and_capture);
    tcase_add_test(tc, test_pcap_back_to_back);
    tcase_add_test(tc, test_source_honours_pause);
    tcase_add_test(tc, test_source_injects_between_generated_frames);
    suite_add_tcase(s, tc);
    return s;
}
