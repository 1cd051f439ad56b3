// ENET transmit path: BD chains to the wire in order, R cleared, line-rate
// spacing, ERR006358 on and off.
#include <cmath>
#include "tests/lib.h"
#include "tests/models/enet_tb.h"

using namespace enet_tb;

static const tick_t US = PS_PER_US;

static std::vector<uint8_t> pattern(unsigned n, unsigned salt)
{
    std::vector<uint8_t> v(n);
    for (unsigned i = 0; i < n; i++)
        v[i] = (uint8_t)(i * 13 + salt * 101 + 7);
    return v;
}

START_TEST(test_tx_chain_in_order)
{
    bench b;
    b.start(EIR_TXF);
    const auto f0 = pattern(100, 0), f1 = pattern(200, 1), f2a = pattern(300, 2), f2b = pattern(400, 3),
               f3 = pattern(60, 4);
    const uint16_t RL = TXBD_R | TXBD_L | TXBD_TC;
    b.put_tx(0, f0.data(), 100, RL);
    b.put_tx(1, f1.data(), 200, RL);
    b.put_tx(2, f2a.data(), 300, TXBD_R | TXBD_TC);  // frame 2 spans BD2 + BD3
    b.put_tx(3, f2b.data(), 400, RL);
    b.put_tx(4, f3.data(), 60, RL | TXBD_W);
    b.cpu.wr(REG_TDAR, 0);
    ck_assert_uint_eq(b.cpu.rd(REG_TDAR), TDAR_ACTIVE);
    b.run_until(200 * US);
    ck_assert_uint_eq(b.tx_frames.size(), 4);
    std::vector<uint8_t> f2(f2a);
    f2.insert(f2.end(), f2b.begin(), f2b.end());
    const std::vector<uint8_t>* want[] = {&f0, &f1, &f2, &f3};
    for (int i = 0; i < 4; i++) {
        const auto& got = b.tx_frames[i].data;
        ck_assert_msg(got.size() == want[i]->size() + 4, "frame %d: %zu B on the wire", i, got.size());
        ck_assert_msg(std::memcmp(got.data(), want[i]->data(), want[i]->size()) == 0, "frame %d bytes", i);
        ck_assert_msg(traffic_fcs_ok(got.data(), got.size()), "frame %d FCS appended", i);
    }
    // Back to back on the wire: each start = previous start + (8 + len + 12) byte times.
    for (int i = 1; i < 4; i++)
        ck_assert_msg(b.tx_frames[i].start - b.tx_frames[i - 1].start ==
                          (tick_t)(8 + b.tx_frames[i - 1].data.size() + 12) * 80000,
                      "frame %d spacing", i);
    for (unsigned i = 0; i < 5; i++) {
        const bd d = b.tx_bd(i);
        ck_assert_msg(!(d.sc & TXBD_R), "BD%u: R cleared (sc 0x%04x)", i, d.sc);
        ck_assert_msg(d.bdu == BDU_BIT, "BD%u: BDU set", i);
    }
    ck_assert_msg(b.tx_bd(4).sc & TXBD_W, "W kept");
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), EIR_TXF | EIR_TXB);
    ck_assert_msg(b.irq.read(), "TXF unmasked: irq");
    ck_assert_uint_eq(b.cpu.rd(REG_TDAR), 0);
    const enet_stats& st = b.mac.stats();
    ck_assert_uint_eq(st.tx_frames, 4);
    ck_assert_uint_eq(st.tx_bytes, 104 + 204 + 704 + 64);
    ck_assert_uint_eq(b.cpu.rd(RMON_T_PACKETS), 4);
    ck_assert_uint_eq(b.cpu.rd(IEEE_T_FRAME_OK), 4);
    ck_assert_uint_eq(b.cpu.rd(IEEE_T_MACERR), 0);
    ck_assert_uint_eq(st.dma_bytes_read, 1060 + 6 * 32);  // data + 5 ready BDs + the non-ready one after the wrap
    ck_assert_uint_eq(b.sink.stats().frames, 4);
}
END_TEST

START_TEST(test_tx_line_rate_spacing)
{
    bench b;
    b.start();
    traffic::traffic_config tc;
    const auto fr = expected_frame(tc, 246, 0);
    for (unsigned i = 0; i < 4; i++)
        b.put_tx(i, fr.data(), 242, (uint16_t)(TXBD_R | TXBD_L | TXBD_TC | (i == 3 ? TXBD_W : 0)));
    b.cpu.wr(REG_TDAR, 0);
    b.run_until(200 * US);
    ck_assert_uint_eq(b.tx_frames.size(), 4);
    for (int i = 1; i < 4; i++)
        ck_assert_msg(b.tx_frames[i].start - b.tx_frames[i - 1].start == 21280000,
                      "246-B frames every 21.28 us at 100 Mbit/s, got %llu ps",
                      (unsigned long long)(b.tx_frames[i].start - b.tx_frames[i - 1].start));
    ck_assert_mem_eq(b.tx_frames[0].data.data(), fr.data(), 246);  // FCS recomputed identically
    ck_assert_uint_eq(b.sink.stats().verified, 4);
}
END_TEST

// ERR004512 (docs/sources.md §1.6): 24 frames of 1518 B queued at once on a
// 1 Gbit/s link. The uDMA reads them into the TX FIFO at fabric speed while
// the path's 8 KiB of credit lasts, then at 470 Mbit/s: once the credit is
// spent, frames leave one per 1514 B of path time (25.8 us), not back to back
// at line rate (12.3 us). Without the limit they go back to back throughout.
static void tx_gigabit_bus_case(double limit)
{
    enet_config cfg;
    cfg.link_speed = 1e9;
    cfg.bus_limit = limit;
    bench b(cfg);
    b.start(0, 0, true, true, ECR_SPEED);
    const auto f = pattern(1514, 5);
    const unsigned n = 24;
    for (unsigned i = 0; i < n; i++)
        b.put_tx(i, f.data(), 1514, (uint16_t)(TXBD_R | TXBD_L | TXBD_TC | (i + 1 == n ? TXBD_W : 0)));
    b.cpu.wr(REG_TDAR, 0);
    b.run_until(1000 * US);
    ck_assert_uint_eq(b.tx_frames.size(), n);
    const tick_t line = (tick_t)(8 + 1518 + 12) * 8000;
    const tick_t path = (tick_t)std::llround(1514 * 8e12 / 470e6);
    for (unsigned i = n - 8; i < n; i++) {
        const tick_t gap = b.tx_frames[i].start - b.tx_frames[i - 1].start;
        if (limit == 0)
            ck_assert_msg(gap == line, "frame %u: %llu ps after the previous, line rate %llu", i,
                          (unsigned long long)gap, (unsigned long long)line);
        else
            ck_assert_msg(gap + 100000 >= path && gap <= path + 100000, "frame %u: %llu ps after the previous, path %llu",
                          i, (unsigned long long)gap, (unsigned long long)path);
    }
    ck_assert_uint_eq(b.tx_frames[1].start - b.tx_frames[0].start, line);  // the credit covers the first ones
}

START_TEST(test_tx_gigabit_bus_limit)
{
    tx_gigabit_bus_case(470e6);
}
END_TEST

START_TEST(test_tx_gigabit_no_bus_limit)
{
    tx_gigabit_bus_case(0);
}
END_TEST

// BD0 ready (1000 B, 80 us on the wire), BD1 not. While BD0 is being sent the
// driver readies BD1 and writes TDAR.
static void err006358_case(bool erratum)
{
    enet_config cfg;
    cfg.err006358 = erratum;
    bench b(cfg);
    b.start();
    const auto f = pattern(1000, 9);
    b.put_tx(0, f.data(), 1000, TXBD_R | TXBD_L | TXBD_TC);
    b.put_tx(1, f.data(), 1000, TXBD_L | TXBD_TC);
    b.put_tx(2, f.data(), 1000, TXBD_L | TXBD_TC | TXBD_W);
    b.cpu.wr(REG_TDAR, 0);
    b.run_until(20 * US);
    ck_assert_uint_eq(b.tx_frames.size(), 1);
    ck_assert_uint_eq(b.cpu.rd(REG_TDAR), TDAR_ACTIVE);
    b.put_tx(1, f.data(), 1000, TXBD_R | TXBD_L | TXBD_TC);
    b.cpu.wr(REG_TDAR, 0);
    b.run_until(300 * US);
    if (erratum) {
        ck_assert_msg(b.tx_frames.size() == 1, "ERR006358: the TDAR write is lost, BD1 waits");
        ck_assert_uint_eq(b.cpu.rd(REG_TDAR), 0);
        ck_assert_msg(b.tx_bd(1).sc & TXBD_R, "BD1 still ready");
        ck_assert_uint_eq(b.mac.stats().tx_tdar_lost, 1);
        b.cpu.wr(REG_TDAR, 0);  // the driver's workaround: TDAR reads 0 with work pending
        b.run_until(500 * US);
    } else {
        ck_assert_uint_eq(b.mac.stats().tx_tdar_lost, 0);
    }
    ck_assert_uint_eq(b.tx_frames.size(), 2);
    ck_assert_msg(!(b.tx_bd(1).sc & TXBD_R), "BD1 sent");
    ck_assert_uint_eq(b.cpu.rd(REG_TDAR), 0);
}

START_TEST(test_tx_err006358)
{
    err006358_case(true);
}
END_TEST

START_TEST(test_tx_without_err006358)
{
    err006358_case(false);
}
END_TEST

START_TEST(test_etheren_clear_resets_rings)
{
    bench b;
    b.start();
    const auto f = pattern(100, 1);
    b.put_tx(0, f.data(), 100, TXBD_R | TXBD_L | TXBD_TC);
    b.put_tx(1, f.data(), 100, TXBD_L | TXBD_TC | TXBD_W);
    b.cpu.wr(REG_TDAR, 0);
    b.run_until(50 * US);
    ck_assert_uint_eq(b.tx_frames.size(), 1);
    b.cpu.wr(REG_ECR, ECR_EN1588 | ECR_DBSWP);  // ETHEREN clear: uDMA pointers back to TDSR
    b.cpu.wr(REG_ECR, ECR_ETHEREN | ECR_EN1588 | ECR_DBSWP);
    b.put_tx(0, f.data(), 100, TXBD_R | TXBD_L | TXBD_TC);
    b.cpu.wr(REG_TDAR, 0);
    b.run_until(100 * US);
    ck_assert_msg(b.tx_frames.size() == 2, "walk restarted at BD0 (%zu frames)", b.tx_frames.size());
    ck_assert_msg(!(b.tx_bd(0).sc & TXBD_R), "BD0 sent again");
}
END_TEST

Suite* suite_enet_tx(void)
{
    Suite* s = suite_create("enet_tx");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_MODEL);
    tcase_add_test(tc, test_tx_chain_in_order);
    tcase_add_test(tc, test_tx_line_rate_spacing);
    tcase_add_test(tc, test_tx_gigabit_bus_limit);
    tcase_add_test(tc, test_tx_gigabit_no_bus_limit);
    tcase_add_test(tc, test_tx_err006358);
    tcase_add_test(tc, test_tx_without_err006358);
    tcase_add_test(tc, test_etheren_clear_resets_rings);
    suite_add_tcase(s, tc);
    return s;
}
