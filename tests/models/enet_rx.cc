// ENET receive path: descriptors, data in DRAM, SHIFT16, wrap, ring
// exhaustion and FIFO overflow (IEEE_R_MACERR, OV), multi-BD frames, line-rate
// timing, flow control, interrupt coalescing, store and forward against
// cut-through (RSFL) and the receive accelerator's discards (RACC).
#include "tests/lib.h"
#include "tests/models/enet_tb.h"

using namespace enet_tb;

static const tick_t US = PS_PER_US;

START_TEST(test_rx_frame_lands_in_dram)
{
    enet_config cfg;
    cfg.irq_latency_cycles = 0;
    bench b(cfg);
    traffic::traffic_config tc;
    tc.count = 1;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start(/*eimr=*/0);
    b.arm_rx_ring(4, 4);
    b.cpu.wr(REG_RDAR, 0);
    ck_assert_uint_eq(b.cpu.rd(REG_RDAR), RDAR_ACTIVE);
    // The frame ends on the wire at 1 us + (8 + 246) * 80 ns = 21.32 us.
    b.run_until(1 * US + 254 * 80000 - 1);
    ck_assert_msg(b.rx_bd(0).sc & RXBD_E, "status is written only after the last byte");
    b.run_until(23 * US);
    const bd d = b.rx_bd(0);
    ck_assert_msg(!(d.sc & RXBD_E), "E cleared, sc = 0x%04x", d.sc);
    ck_assert_msg(d.sc & RXBD_L, "L set on the only BD");
    ck_assert_msg(!(d.sc & (RXBD_LG | RXBD_CR | RXBD_OV | RXBD_TR | RXBD_M | RXBD_BC | RXBD_MC)),
                  "no error bits, sc = 0x%04x", d.sc);
    ck_assert_uint_eq(d.datlen, 246);  // FCS included
    ck_assert_uint_eq(d.bufaddr, (uint32_t)b.rx_buf(0));
    ck_assert_msg(d.esc == (RXESC_INT | RXESC_UC), "esc 0x%08x: INT kept, unicast", d.esc);
    ck_assert_uint_eq(d.bdu, BDU_BIT);
    const auto exp = expected_frame(tc, 246, 0);
    ck_assert_mem_eq(b.pm.dram_view(b.rx_buf(0)), exp.data(), 246);
    ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(0)), 246), 0);
    ck_assert_msg(b.rx_bd(1).sc & RXBD_E, "next BD untouched");
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), EIR_RXF);
    ck_assert_msg(!b.irq.read(), "RXF masked: no irq");
    ck_assert_uint_eq(b.cpu.rd(REG_RDAR), RDAR_ACTIVE);
    b.cpu.wr(REG_EIMR, EIR_RXF);
    b.run_until(now_ps() + 1);
    ck_assert_msg(b.irq.read(), "irq once RXF is unmasked");
    b.cpu.wr(REG_EIR, EIR_RXF);
    b.run_until(now_ps() + 1);
    ck_assert_msg(!b.irq.read(), "irq drops when RXF is cleared");
    const enet_stats& st = b.mac.stats();
    ck_assert_uint_eq(st.rx_frames, 1);
    ck_assert_uint_eq(st.rx_delivered, 1);
    ck_assert_uint_eq(st.bd_fetches, 1);
    ck_assert_uint_eq(st.bd_writebacks, 1);
    // 246 B into a 64-B aligned buffer: 4 bursts; BD write-back: 2 writes (enhanced words, then status).
    ck_assert_uint_eq(st.dma_bytes_written, 246 + 12 + 4);
    ck_assert_uint_eq(st.dma_writes, 4 + 2);
    ck_assert_uint_eq(st.dma_reads, 1);
    ck_assert_uint_eq(st.dma_bytes_read, 32);
    ck_assert_uint_eq(st.irq_assertions, 1);
    ck_assert_uint_eq(b.noc.stats().enet_transactions, 7);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_FRAME_OK), 1);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), 0);
}
END_TEST

START_TEST(test_rx_shift16)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 1;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start(0, RACC_SHIFT16);
    b.arm_rx_ring(4, 4);
    std::memset(b.pm.dram_view(b.rx_buf(0)), 0xEE, 4);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(30 * US);
    const bd d = b.rx_bd(0);
    ck_assert_msg(d.sc & RXBD_L, "frame delivered, sc 0x%04x", d.sc);
    // The length counts the 2 shift bytes (the driver skb_pulls them, docs/sources.md §2.2).
    ck_assert_uint_eq(d.datlen, 248);
    const uint8_t* buf = b.pm.dram_view(b.rx_buf(0));
    ck_assert_msg(buf[0] == 0 && buf[1] == 0, "2 pad bytes written before the frame");
    const auto exp = expected_frame(tc, 246, 0);
    ck_assert_mem_eq(buf + 2, exp.data(), 246);
    ck_assert_uint_eq(b.mac.stats().dma_bytes_written, 248 + 16);
}
END_TEST

START_TEST(test_rx_legacy_bigendian_bd)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 1;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start(0, 0, /*enhanced=*/false, /*le=*/false);
    ck_assert_uint_eq(b.mac.bd_bytes(), 8);
    b.arm_rx_ring(2, 2);
    const uint8_t* raw = b.pm.dram_view(b.rx_bd_addr(0));
    ck_assert_msg(raw[0] == 0x80 && raw[1] == 0x00, "big-endian layout: sc first, E in byte 0");
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(30 * US);
    // sc = L (0x0800), datlen = 246 (0x00F6), bufaddr big-endian.
    ck_assert_msg(raw[0] == 0x08 && raw[1] == 0x00 && raw[2] == 0x00 && raw[3] == 0xF6,
                  "raw BD %02x %02x %02x %02x", raw[0], raw[1], raw[2], raw[3]);
    ck_assert_msg(raw[4] == 0x10 && raw[5] == 0x20 && raw[6] == 0x00 && raw[7] == 0x00, "bufaddr big-endian");
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), EIR_RXF);  // legacy BDs: no INT bit gates the event
    ck_assert_uint_eq(b.mac.stats().dma_bytes_read, 8);
}
END_TEST

START_TEST(test_rx_wrap_returns_to_ring_start)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 3;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start();
    b.arm_rx_ring(2, 2);  // BD1 carries W
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(30 * US);  // frame 0 in BD0
    ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(0)), 246), 0);
    b.arm_rx(0, false);  // the driver returns BD0
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(80 * US);
    const bd d1 = b.rx_bd(1);
    ck_assert_msg((d1.sc & (RXBD_L | RXBD_W | RXBD_E)) == (RXBD_L | RXBD_W), "BD1 used, W kept: sc 0x%04x", d1.sc);
    ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(1)), 246), 1);
    ck_assert_msg(!(b.rx_bd(0).sc & RXBD_E), "frame 2 wrapped to BD0");
    ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(0)), 246), 2);
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 3);
    ck_assert_uint_eq(b.mac.stats().rx_stalls, 0);
}
END_TEST

// 40 back-to-back frames of 246 B into a ring with 8 empty BDs, 4096-B FIFO of
// 8-B words: 8 frames reach memory; then the uDMA stops, 16 frames fill
// 16 * 248 = 3968 B, the 17th keeps the remaining 128 B and is truncated (OV),
// the other 15 find the FIFO full and are dropped. IEEE_R_MACERR = 40-8-16 = 16.
START_TEST(test_rx_ring_exhaustion_macerr_and_resume)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 40;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    tb_tap merge("merge");  // two link partners in turn on one wire
    src.out.bind(merge.in);
    merge.out.bind(b.mac.phy_rx);
    traffic::traffic_config tc2 = tc;
    tc2.count = 2;
    tc2.start_ps = 1100 * US;
    traffic::traffic_source src2("src2", tc2);
    src2.out.bind(merge.in);
    b.start();
    b.arm_rx_ring(32, 8);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(900 * US);  // all 40 frames are over by 851.24 us
    const enet_stats& st = b.mac.stats();
    const uint32_t fifo = 4096, frame_words = (246 + 7) / 8 * 8;
    const uint32_t fit = fifo / frame_words;
    const uint32_t expect_macerr = 40 - 8 - fit;
    ck_assert_uint_eq(fit, 16);
    ck_assert_uint_eq(st.rx_delivered, 8);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), expect_macerr);
    ck_assert_uint_eq(st.rx_fifo_drops, expect_macerr - 1);
    ck_assert_uint_eq(st.rx_truncated, 1);
    ck_assert_uint_eq(b.mac.rx_fifo_level(), fifo);
    ck_assert_uint_eq(st.rx_fifo_hwm_bytes, fifo);
    ck_assert_uint_eq(b.cpu.rd(REG_RDAR), 0);
    ck_assert_uint_eq(st.rx_stalls, 1);
    ck_assert_uint_eq(b.cpu.rd(RMON_R_PACKETS), 40);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_FRAME_OK), 8 + 16);
    // The driver returns BDs 8..31 and writes RDAR: the FIFO drains.
    for (unsigned i = 8; i < 32; i++)
        b.arm_rx(i, i == 31);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(1000 * US);
    ck_assert_uint_eq(st.rx_delivered, 8 + 17);
    ck_assert_msg(st.rx_stall_ps > 700 * US, "uDMA stalled from frame 8 until the RDAR write (%llu ps)",
                  (unsigned long long)st.rx_stall_ps);
    for (unsigned i = 0; i < 24; i++) {
        const bd d = b.rx_bd(i);
        ck_assert_msg((d.sc & (RXBD_E | RXBD_L | RXBD_OV)) == RXBD_L && d.datlen == 246,
                      "BD%u: sc 0x%04x len %u", i, d.sc, d.datlen);
        ck_assert_msg(buffer_seq(b.pm.dram_view(b.rx_buf(i)), 246) == (long)i, "BD%u holds frame %u", i, i);
    }
    const bd t = b.rx_bd(24);
    ck_assert_msg((t.sc & (RXBD_E | RXBD_L | RXBD_OV)) == (RXBD_L | RXBD_OV), "truncated frame has OV: sc 0x%04x",
                  t.sc);
    ck_assert_uint_eq(t.datlen, fifo - fit * frame_words);
    ck_assert_msg(t.esc & RXESC_ME, "MAC error flagged in esc");
    const auto exp24 = expected_frame(tc, 246, 24);
    ck_assert_mem_eq(b.pm.dram_view(b.rx_buf(24)), exp24.data(), 128);
    ck_assert_msg(b.rx_bd(25).sc & RXBD_E, "nothing after the truncated frame");
    ck_assert_uint_eq(b.mac.rx_fifo_level(), 0);
    ck_assert_uint_eq(b.cpu.rd(REG_RDAR), RDAR_ACTIVE);
    // New traffic (src2, from 1100 us) is received again.
    b.run_until(1200 * US);
    ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(25)), 246), 0);
    ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(26)), 246), 1);
    ck_assert_uint_eq(st.rx_delivered, 27);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), expect_macerr);
}
END_TEST

// Frames the MAC refuses whatever they hold (uDMA stopped on a full ring,
// FIFO full; the MAC disabled) go over late, with their own times
// (frame_sink_if::refuses_all): the counts are those of frames taken one by
// one at their start. _i = 0: through a tap, which never refuses, so every
// frame goes at its time; _i = 1: straight to the MAC, late, in runs of
// evenly spaced frames (frames_refused); _i = 2: late, one by one (a size
// list of one size: not a run); _i = 3: late in runs, at a constant rate
// below the line rate (40 k frames/s: each frame at its ideal time). All
// must give the same numbers at every look, by register or by statistics.
START_TEST(test_rx_refused_frames_late_same_counts)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 60;
    tc.start_ps = 1 * US;
    if (_i == 2) {
        tc.size_mode = traffic::SIZE_LIST;
        tc.size_list = {246};
    }
    if (_i == 3)
        tc.rate_fps = 40000;
    traffic::traffic_source src("src", tc);
    std::unique_ptr<tb_tap> tap;
    if (_i == 0) {
        tap.reset(new tb_tap("tap"));
        src.out.bind(tap->in);
        tap->out.bind(b.mac.phy_rx);
    } else {
        src.out.bind(b.mac.phy_rx);
    }
    // 246-B frames at 100 Mbit/s take (8 + 246 + 12) * 80 ns on the wire: back
    // to back one a wire time, at 40 k/s one every 25 us.
    const tick_t wire = 266 * 80000, ideal_gap = _i == 3 ? 25 * US : 0, gap = std::max(wire, ideal_gap);
    auto started_before = [&](tick_t t) { return (uint64_t)((t - tc.start_ps + gap - 1) / gap); };
    b.run_until(30 * US);  // the MAC is off: two frames refused (rx_disabled)
    ck_assert_uint_eq(b.mac.stats().rx_disabled, started_before(30 * US));
    b.start();
    b.arm_rx_ring(64, 8);
    b.cpu.wr(REG_RDAR, 0);
    const uint64_t off = b.mac.stats().rx_disabled;
    // 8 frames into the ring, 16 whole ones and a truncated one into the
    // FIFO: from then on every frame is dropped (IEEE_R_MACERR).
    const uint64_t kept = 8 + 16 + 1;
    for (tick_t t : {700 * US, 700 * US + gap / 2, 850 * US}) {
        b.run_until(t);
        const uint64_t n = started_before(t);
        ck_assert_uint_eq(src.stats().frames, n);
        ck_assert_uint_eq(b.mac.stats().rx_frames, n - off);
        ck_assert_uint_eq(b.mac.stats().rx_fifo_drops, n - off - kept);
        ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), n - off - kept + 1);
        ck_assert_uint_eq(b.cpu.rd(RMON_R_PACKETS), n - off);
        ck_assert_uint_eq(b.cpu.rd(RMON_R_P128TO255), n - off);
        ck_assert_uint_eq(b.cpu.rd(RMON_R_OCTETS), (n - off) * 246);
        ck_assert_uint_eq(b.mac.stats().rx_bytes, (n - off) * 246);
        ck_assert_uint_eq(src.stats().bytes, n * 246);
        // Back to back each frame after the first starts a wire time after its
        // ideal (the previous start + ideal_gap); at 40 k/s on it.
        ck_assert_uint_eq(src.stats().late_ps, (n - 1) * (gap - ideal_gap));
        ck_assert_uint_eq(src.next_seq(), n + 1);
    }
    // The driver gives back BDs 8..63: the FIFO drains, frames are taken again.
    for (unsigned i = 8; i < 64; i++)
        b.arm_rx(i, i == 63);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(1600 * US);  // the 60 frames are over by 1277 us (1497 us at 40 k/s)
    const enet_stats& st = b.mac.stats();
    ck_assert_uint_eq(src.stats().frames, 60);
    ck_assert_uint_eq(st.rx_frames + st.rx_disabled, 60);
    ck_assert_uint_eq(st.rx_delivered + st.rx_fifo_drops, st.rx_frames);  // the truncated one written with OV
    ck_assert_uint_eq(st.rx_truncated, 1);
    // Dropped until the RDAR write at 850 us, all taken after it (the ring
    // has room for them): the first frame after the write is delivered.
    const uint64_t before_write = started_before(850 * US) - off;
    ck_assert_uint_eq(st.rx_fifo_drops, before_write - kept);
    ck_assert_uint_eq(st.rx_delivered, kept + (60 - off - before_write));
    ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(25)), 246), (long)(started_before(850 * US)));
    if (_i == 0) {
        ck_assert_uint_eq(src.late_frames(), 0);
    } else {
        // Every frame the full FIFO dropped went over late (the MAC was not
        // yet seen receiving while off: those went at their time).
        ck_assert_msg(src.late_frames() == st.rx_fifo_drops && st.rx_fifo_drops >= 5,
                      "late %llu, FIFO drops %llu", (unsigned long long)src.late_frames(),
                      (unsigned long long)st.rx_fifo_drops);
        if (_i == 2)
            ck_assert_uint_eq(src.late_runs(), 0);
        else
            ck_assert_msg(src.late_runs() >= 1, "refused frames went over in runs");
    }
}
END_TEST

// A 512-B FIFO and no empty BD: frames 0 and 1 fit (2 x 248 B), frame 2 keeps
// the last 16 B of space and is written with OV and length 16; frame 3 is dropped.
START_TEST(test_rx_overrun_truncates_with_ov)
{
    enet_config cfg;
    cfg.rx_fifo_bytes = 512;
    bench b(cfg);
    traffic::traffic_config tc;
    tc.count = 4;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start();
    b.arm_rx_ring(8, 0);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(100 * US);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), 2);
    ck_assert_uint_eq(b.mac.stats().rx_truncated, 1);
    ck_assert_uint_eq(b.mac.stats().rx_fifo_drops, 1);
    for (unsigned i = 0; i < 8; i++)
        b.arm_rx(i, i == 7);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(120 * US);
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 3);
    const bd d = b.rx_bd(2);
    ck_assert_msg((d.sc & (RXBD_E | RXBD_L | RXBD_OV)) == (RXBD_L | RXBD_OV), "OV on the truncated frame: sc 0x%04x",
                  d.sc);
    ck_assert_uint_eq(d.datlen, 16);
    ck_assert_msg(!(b.rx_bd(1).sc & RXBD_OV) && b.rx_bd(1).datlen == 246, "frame 1 intact");
    ck_assert_msg(b.rx_bd(3).sc & RXBD_E, "dropped frame never reaches a BD");
}
END_TEST

START_TEST(test_rx_frame_spans_bds_and_length_errors)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 1;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start();
    b.cpu.wr(REG_MRBR, 128);
    b.cpu.wr(REG_RCR, (200u << RCR_MAX_FL_SHIFT) | RCR_MII_MODE);  // MAX_FL 200 < 246
    b.arm_rx_ring(4, 4);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(30 * US);
    const bd d0 = b.rx_bd(0), d1 = b.rx_bd(1);
    ck_assert_msg((d0.sc & (RXBD_E | RXBD_L | RXBD_LG)) == 0 && d0.datlen == 128, "BD0 full, not last: sc 0x%04x len %u",
                  d0.sc, d0.datlen);
    ck_assert_msg((d1.sc & (RXBD_E | RXBD_L | RXBD_LG)) == (RXBD_L | RXBD_LG), "BD1 last with LG: sc 0x%04x", d1.sc);
    ck_assert_uint_eq(d1.datlen, 246);  // last BD: whole frame length
    const auto exp = expected_frame(tc, 246, 0);
    ck_assert_mem_eq(b.pm.dram_view(b.rx_buf(0)), exp.data(), 128);
    ck_assert_mem_eq(b.pm.dram_view(b.rx_buf(1)), exp.data() + 128, 118);
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), EIR_RXB | EIR_RXF);
    ck_assert_uint_eq(b.cpu.rd(RMON_R_OVERSIZE), 1);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_FRAME_OK), 0);
}
END_TEST

START_TEST(test_rx_line_rate_spacing)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 6;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    tb_tap tap("tap");
    src.out.bind(tap.in);
    tap.out.bind(b.mac.phy_rx);
    b.start(EIR_RXF);
    b.arm_rx_ring(8, 8);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(200 * US);
    ck_assert_uint_eq(tap.starts.size(), 6);
    for (size_t i = 1; i < tap.starts.size(); i++)
        ck_assert_msg(tap.starts[i] - tap.starts[i - 1] == 21280000, "(246+20)*8*10 ns = 21.28 us, got %llu ps",
                      (unsigned long long)(tap.starts[i] - tap.starts[i - 1]));
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 6);
}
END_TEST

START_TEST(test_rx_gigabit_line_rate)
{
    enet_config cfg;
    cfg.link_speed = 1e9;
    bench b(cfg);
    traffic::traffic_config tc;
    tc.link_speed = 1e9;
    tc.count = 20;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    tb_tap tap("tap");
    src.out.bind(tap.in);
    tap.out.bind(b.mac.phy_rx);
    const uint64_t ge = log_count(log_level::guest_error);
    b.start(0, 0, true, true, ECR_SPEED);
    b.arm_rx_ring(32, 32);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(100 * US);
    ck_assert_uint_eq(tap.starts.size(), 20);
    for (size_t i = 1; i < tap.starts.size(); i++)
        ck_assert_uint_eq(tap.starts[i] - tap.starts[i - 1], 2128000);  // 266 byte times of 8 ns
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 20);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), 0);
    ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(19)), 246), 19);
    ck_assert_msg(log_count(log_level::guest_error) == ge, "ECR.SPEED matches a 1 Gbit/s link: no guest error");
}
END_TEST

// ERR004512 (docs/sources.md §1.6): at 1 Gbit/s, 1518-B frames back to back
// are more than the 470 Mbit/s path between the FIFOs and the fabric can move.
// With every BD empty the uDMA never stops for the ring, yet the RX FIFO
// fills and overruns: the delivered bytes stay within the path's rate and its
// 8 KiB of credit, the rest is counted in IEEE_R_MACERR. Without the limit
// (bus_limit 0) every frame arrives.
static void rx_gigabit_bus_case(double limit)
{
    enet_config cfg;
    cfg.link_speed = 1e9;
    cfg.bus_limit = limit;
    bench b(cfg);
    traffic::traffic_config tc;
    tc.link_speed = 1e9;
    tc.frame_bytes = 1518;
    tc.count = 200;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start(0, 0, true, true, ECR_SPEED);
    b.arm_rx_ring(256, 256);
    b.cpu.wr(REG_RDAR, 0);
    const tick_t t_end = 1 * US + 200 * (tick_t)(8 + 1518 + 12) * 8000;  // last frame's end on the wire
    b.run_until(t_end);
    const enet_stats at_end = b.mac.stats();
    b.run_until(t_end + 500 * US);  // the FIFO drains
    const enet_stats& st = b.mac.stats();
    ck_assert_uint_eq(st.rx_frames, 200);
    const uint64_t lost = st.rx_fifo_drops + st.rx_truncated;
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), lost);
    ck_assert_uint_eq(st.rx_stalls, 0);  // the ring never ran out: the loss is the path's
    if (limit == 0) {
        ck_assert_uint_eq(lost, 0);
        ck_assert_uint_eq(st.rx_delivered, 200);
        ck_assert_uint_eq(st.bus_waits, 0);
        return;
    }
    // Bytes through the path by the end of the traffic: at most its rate over
    // the time plus its credit (one burst of rounding).
    const double path = limit / 8 * (double)(t_end - 1 * US) / 1e12 + cfg.bus_limit_burst + cfg.burst_bytes;
    ck_assert_msg((double)at_end.rx_delivered_bytes <= path, "delivered %llu B, the path moves at most %.0f B",
                  (unsigned long long)at_end.rx_delivered_bytes, path);
    // ... and it is kept busy: no less than its rate less a frame in flight and the FIFO.
    const double floor = limit / 8 * (double)(t_end - 1 * US) / 1e12 - cfg.rx_fifo_bytes - 2 * 1518;
    ck_assert_msg((double)at_end.rx_delivered_bytes >= floor, "delivered %llu B, the path keeps up %.0f B",
                  (unsigned long long)at_end.rx_delivered_bytes, floor);
    ck_assert_msg(lost > 60, "about half the frames lost to FIFO overrun, got %llu", (unsigned long long)lost);
    ck_assert_uint_eq(st.rx_delivered + st.rx_fifo_drops, 200);  // truncated ones are delivered with OV
    ck_assert_msg(st.bus_waits > 0 && st.bus_wait_ps > 0, "the uDMA waited for the path");
}

START_TEST(test_rx_gigabit_bus_limit)
{
    rx_gigabit_bus_case(470e6);
}
END_TEST

START_TEST(test_rx_gigabit_no_bus_limit)
{
    rx_gigabit_bus_case(0);
}
END_TEST

// ECR.SPEED against the link: enabling the MAC at 10/100 on a 1 Gbit/s link
// is what a driver does before the PHY has told it the speed, no error; the
// first frame that arrives in that state is a guest error, once.
START_TEST(test_rx_speed_mismatch_at_frame)
{
    enet_config cfg;
    cfg.link_speed = 1e9;
    bench b(cfg);
    traffic::traffic_config tc;
    tc.link_speed = 1e9;
    tc.count = 5;
    tc.start_ps = 50 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    const uint64_t ge = log_count(log_level::guest_error);
    b.start(0, 0, true, true, 0);
    b.arm_rx_ring(32, 32);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(40 * US);
    ck_assert_msg(log_count(log_level::guest_error) == ge, "MAC enabled at 10/100 on a 1 Gbit/s link, no frame yet");
    b.run_until(100 * US);
    ck_assert_msg(log_count(log_level::guest_error) == ge + 1, "frames at the wrong ECR.SPEED: one guest error, got %llu",
                  (unsigned long long)(log_count(log_level::guest_error) - ge));
}
END_TEST

// Flow control: with RCR.FCE and RSEM, a stalled ring makes the MAC send XOFF;
// the source holds, nothing overflows; once BDs return, XON, and all frames arrive.
START_TEST(test_rx_pause_prevents_overflow)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 40;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.mac.phy_pause.bind(src.pause_in);
    b.start();
    b.cpu.wr(REG_RCR, (1984u << RCR_MAX_FL_SHIFT) | RCR_MII_MODE | RCR_FCE);
    b.cpu.wr(REG_RSEM, 0x84);  // 1056 B, as Linux sets with pause on (docs/sources.md §1.2)
    b.cpu.wr(REG_OPD, 1000);   // 1000 quanta = 5.12 ms at 100 Mbit/s
    b.arm_rx_ring(64, 4);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(400 * US);
    const enet_stats& st = b.mac.stats();
    ck_assert_uint_eq(st.pause_sent, 1);
    ck_assert_uint_eq(b.cpu.rd(IEEE_T_FDXFC), 1);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), 0);
    ck_assert_msg(src.stats().frames < 12, "source held by XOFF (%llu frames sent)",
                  (unsigned long long)src.stats().frames);
    ck_assert_uint_eq(b.sink.stats().pause_frames, 1);
    for (unsigned i = 4; i < 64; i++)
        b.arm_rx(i, i == 63);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(2000 * US);
    ck_assert_uint_eq(st.xon_sent, 1);
    ck_assert_uint_eq(st.rx_delivered, 40);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), 0);
    ck_assert_msg(src.stats().paused_ps > 0, "source recorded pause time");
}
END_TEST

// RSFL = 0 is store and forward: no byte of a frame reaches memory before its
// last byte is in; RSFL = 16 words is cut-through: the first 64-B bursts are
// written while the frame still arrives (docs/sources.md §1.2).
START_TEST(test_rx_store_and_forward_vs_cut_through)
{
    // a loop test (one bench per process): _i = 0 store and forward, 1 cut-through
    const uint32_t rsfl = _i ? 16 : 0;
    bench b;
    traffic::traffic_config tc;
    tc.count = 1;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start();
    b.cpu.wr(REG_RSFL, rsfl);
    b.arm_rx_ring(4, 4);
    b.cpu.wr(REG_RDAR, 0);
    const auto exp = expected_frame(tc, 246, 0);
    // 200 byte times after the preamble: 128 B (RSFL) and a burst more are in.
    b.run_until(1 * US + (8 + 200) * 80000);
    const bool head_written = std::memcmp(b.pm.dram_view(b.rx_buf(0)), exp.data(), 64) == 0;
    ck_assert_msg(head_written == (rsfl != 0), "RSFL %u: first burst %s before the frame's end", rsfl,
                  head_written ? "written" : "not written");
    // The last byte is in at 21.32 us; the frame lands soon after in both modes.
    b.run_until(23 * US);
    ck_assert_msg(!(b.rx_bd(0).sc & RXBD_E), "RSFL %u: BD written back", rsfl);
    ck_assert_mem_eq(b.pm.dram_view(b.rx_buf(0)), exp.data(), 246);
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 1);
}
END_TEST

// Link tap that gives every second frame a wrong UDP checksum (the FCS made
// right again: a sender that computed a bad checksum).
struct udp_csum_breaker : sc_core::sc_module, frame_sink_if {
    sc_core::sc_export<frame_sink_if> in;
    sc_core::sc_port<frame_sink_if> out;
    unsigned n = 0;
    std::vector<uint8_t> buf;
    explicit udp_csum_breaker(sc_core::sc_module_name nm) : sc_module(nm), in("in"), out("out") { in.bind(*this); }
    void frame_start(const eth_frame& f) override
    {
        if (n++ % 2 == 0)
            return out->frame_start(f);
        f.complete();
        buf.assign(f.data, f.data + f.len);
        buf[14 + 20 + 6] ^= 0x5A;  // UDP checksum, high byte
        traffic_append_fcs(buf.data(), f.len - 4);
        eth_frame g = f;
        g.data = buf.data();
        g.body = nullptr;
        out->frame_start(g);
    }
};

// RACC.IPDIS | PRODIS discard a frame with a bad checksum whole, no BD used,
// only in store and forward (RSFL = 0); in cut-through, or without the bits,
// the frame is written with PCR in its enhanced status.
START_TEST(test_rx_accel_discards_bad_checksum)
{
    struct mode {
        uint32_t rsfl, racc;
        bool discards;
    };
    const mode modes[] = {{0, RACC_IPDIS | RACC_PRODIS, true}, {16, RACC_IPDIS | RACC_PRODIS, false}, {0, 0, false}};
    // a loop test over the modes (one bench per process)
    const mode m = modes[_i];
    bench b;
    traffic::traffic_config tc;
    tc.count = 4;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    udp_csum_breaker brk("brk");
    src.out.bind(brk.in);
    brk.out.bind(b.mac.phy_rx);
    b.start(0, m.racc);
    b.cpu.wr(REG_RSFL, m.rsfl);
    b.arm_rx_ring(8, 8);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(200 * US);
    const enet_stats& st = b.mac.stats();
    ck_assert_uint_eq(st.rx_frames, 4);
    if (m.discards) {
        ck_assert_uint_eq(st.rx_accel_discards, 2);
        ck_assert_uint_eq(st.rx_delivered, 2);
        ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(0)), 246), 0);
        ck_assert_int_eq(buffer_seq(b.pm.dram_view(b.rx_buf(1)), 246), 2);
        ck_assert_msg(b.rx_bd(2).sc & RXBD_E, "no BD for the discarded frames");
    } else {
        ck_assert_uint_eq(st.rx_accel_discards, 0);
        ck_assert_uint_eq(st.rx_delivered, 4);
        for (unsigned i = 0; i < 4; i++)
            ck_assert_msg(((b.rx_bd(i).esc & RXESC_PCR) != 0) == (i % 2 == 1), "RSFL %u RACC 0x%x: BD %u esc 0x%08x",
                          m.rsfl, m.racc, i, b.rx_bd(i).esc);
    }
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_MACERR), 0);
}
END_TEST

// A MAC disable while the uDMA writes a frame's last BD back: the BD is in
// memory already, so the frame is the ring's (lost to the driver's ring
// re-initialisation), not flushed from the FIFO as well: one fate, not two.
START_TEST(test_rx_disable_during_writeback_counts_once)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 1;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.mac.set_ring_peek([&b](uint32_t pa) -> const uint8_t* { return b.pm.dram_view(pa); });
    b.start();
    b.arm_rx_ring(4, 4);
    b.cpu.wr(REG_RDAR, 0);
    // The last byte is in at 21.32 us; step until the status word is in
    // memory, then disable at once, before the write-back transfer ends.
    b.run_until(1 * US + 254 * 80000);
    tick_t t = now_ps();
    while ((b.rx_bd(0).sc & RXBD_E) && t < 30 * US)
        b.run_until(t += 1000);
    ck_assert_msg(!(b.rx_bd(0).sc & RXBD_E), "the BD was written back");
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 0);  // its transfer is still under way
    b.cpu.wr(REG_ECR, ECR_DBSWP | ECR_EN1588);
    const enet_stats& st = b.mac.stats();
    ck_assert_uint_eq(st.rx_ring_discarded, 1);
    ck_assert_uint_eq(st.rx_flushed, 0);
}
END_TEST

START_TEST(test_coalesce_functional)
{
    enet_config cfg;
    cfg.has_coalesce = true;
    bench b(cfg);
    traffic::traffic_config tc;
    tc.count = 5;
    tc.start_ps = 1 * US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start(EIR_RXF);
    b.arm_rx_ring(8, 8);
    const uint32_t ic = IC_EN | 4u << IC_FT_SHIFT | 0xFFFF;
    b.cpu.wr(REG_RXIC0, ic);
    ck_assert_uint_eq(b.cpu.rd(REG_RXIC0), ic);
    b.cpu.wr(REG_TXIC0, 0x12345678);
    ck_assert_uint_eq(b.cpu.rd(REG_TXIC0), 0x12345678 & 0xCFF0FFFF);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(80 * US);  // frames 0..2 delivered (~21.6, 42.9, 64.2 us)
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 3);
    ck_assert_msg(b.cpu.rd(REG_EIR) == 0 && !b.irq.read(), "3 < ICFT frames: no RXF yet");
    b.run_until(90 * US);  // frame 3 (~85.5 us)
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), EIR_RXF);
    ck_assert_msg(b.irq.read(), "irq after ICFT frames");
    b.cpu.wr(REG_EIR, EIR_RXF);
    // Timer: ICTT = 100 units of 64 clocks = 6400 cycles at 264 MHz = 24.24 us after frame 4 (~106.8 us).
    b.cpu.wr(REG_RXIC0, IC_EN | 100u << IC_FT_SHIFT | 100);
    b.run_until(125 * US);
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 5);
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), 0);
    b.run_until(135 * US);
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), EIR_RXF);
}
END_TEST

Suite* suite_enet_rx(void)
{
    Suite* s = suite_create("enet_rx");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_MODEL);
    tcase_add_test(tc, test_rx_frame_lands_in_dram);
    tcase_add_test(tc, test_rx_shift16);
    tcase_add_test(tc, test_rx_legacy_bigendian_bd);
    tcase_add_test(tc, test_rx_wrap_returns_to_ring_start);
    tcase_add_test(tc, test_rx_ring_exhaustion_macerr_and_resume);
    tcase_add_test(tc, test_rx_overrun_truncates_with_ov);
    tcase_add_test(tc, test_rx_frame_spans_bds_and_length_errors);
    tcase_add_test(tc, test_rx_line_rate_spacing);
    tcase_add_test(tc, test_rx_gigabit_line_rate);
    tcase_add_test(tc, test_rx_gigabit_bus_limit);
    tcase_add_test(tc, test_rx_gigabit_no_bus_limit);
    tcase_add_test(tc, test_rx_speed_mismatch_at_frame);
    tcase_add_test(tc, test_rx_pause_prevents_overflow);
    tcase_add_test(tc, test_coalesce_functional);
    tcase_add_loop_test(tc, test_rx_store_and_forward_vs_cut_through, 0, 2);
    tcase_add_test(tc, test_rx_disable_during_writeback_counts_once);
    tcase_add_loop_test(tc, test_rx_accel_discards_bad_checksum, 0, 3);
    tcase_add_loop_test(tc, test_rx_refused_frames_late_same_counts, 0, 4);
    suite_add_tcase(s, tc);
    return s;
}
