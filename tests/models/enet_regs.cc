// ENET register file: reset values, write-1-to-clear, masks, soft reset, MDIO,
// MIB control, coalescing registers per profile, guest errors.
#include "tests/lib.h"
#include "tests/models/enet_tb.h"

using namespace enet_tb;

START_TEST(test_reset_values)
{
    bench b;
    b.run_until(0);
    static const struct {
        uint32_t off, val;
        const char* name;
    } k[] = {
        {REG_EIR, 0, "EIR"},           {REG_EIMR, 0, "EIMR"},         {REG_RDAR, 0, "RDAR"},
        {REG_TDAR, 0, "TDAR"},         {REG_ECR, 0xF0000000, "ECR"},  {REG_MMFR, 0, "MMFR"},
        {REG_MSCR, 0, "MSCR"},         {REG_MIBC, 0xC0000000, "MIBC"}, {REG_RCR, 0x05EE0001, "RCR"},
        {REG_TCR, 0, "TCR"},           {REG_PALR, 0, "PALR"},         {REG_PAUR, 0x8808, "PAUR"},
        {REG_OPD, 0x00010000, "OPD"},  {REG_IAUR, 0, "IAUR"},         {REG_IALR, 0, "IALR"},
        {REG_GAUR, 0, "GAUR"},         {REG_GALR, 0, "GALR"},         {REG_TFWR, 0, "TFWR"},
        {REG_RDSR, 0, "RDSR"},         {REG_TDSR, 0, "TDSR"},         {REG_MRBR, 0, "MRBR"},
        {REG_RSFL, 0, "RSFL"},         {REG_RSEM, 0, "RSEM"},         {REG_RAEM, 4, "RAEM"},
        {REG_RAFL, 4, "RAFL"},         {REG_TSEM, 0, "TSEM"},         {REG_TAEM, 4, "TAEM"},
        {REG_TAFL, 8, "TAFL"},         {REG_TIPG, 12, "TIPG"},        {REG_FTRL, 0x7FF, "FTRL"},
        {REG_TACC, 0, "TACC"},         {REG_RACC, 0, "RACC"},
        {IEEE_R_MACERR, 0, "IEEE_R_MACERR"}, {IEEE_R_FRAME_OK, 0, "IEEE_R_FRAME_OK"},
        {RMON_R_PACKETS, 0, "RMON_R_PACKETS"}, {RMON_T_PACKETS, 0, "RMON_T_PACKETS"},
        {IEEE_T_MACERR, 0, "IEEE_T_MACERR"},
    };
    for (const auto& r : k)
        ck_assert_msg(b.cpu.rd(r.off) == r.val, "%s (0x%03x) resets to 0x%08x, read 0x%08x", r.name, r.off, r.val,
                      b.cpu.rd(r.off));
    ck_assert_msg(!b.irq.read(), "irq low after reset");
}
END_TEST

START_TEST(test_eir_write1_clear_and_irq)
{
    enet_config cfg;
    cfg.irq_latency_cycles = 10;
    bench b(cfg);
    b.run_until(0);
    // An MDIO read of PHY register 2 (clause 22: ST=01, OP=10, PA=1, RA=2).
    b.cpu.wr(REG_MMFR, 0x60000000u | 1u << 23 | 2u << 18 | 2u << 16);
    const tick_t mdio = clock_domain(cfg.clock_hz).cycles(cfg.mdio_cycles);
    b.run_until(mdio - 1);
    ck_assert_msg(b.cpu.rd(REG_EIR) == 0, "MII not yet done one ps before mdio_cycles");
    b.run_until(mdio);
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), EIR_MII);
    ck_assert_msg((b.cpu.rd(REG_MMFR) & 0xFFFF) == 0x0022, "PHY ID1 read back, got 0x%04x", b.cpu.rd(REG_MMFR) & 0xFFFF);
    ck_assert_msg(!b.irq.read(), "MII masked: no irq");
    b.cpu.wr(REG_EIR, EIR_RXF | EIR_TXF);  // other bits: no effect
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), EIR_MII);
    b.cpu.wr(REG_EIMR, EIR_MII);
    const tick_t lat = clock_domain(cfg.clock_hz).cycles(10);
    const tick_t t0 = now_ps();
    b.run_until(t0 + lat - 1);
    ck_assert_msg(!b.irq.read(), "irq waits irq_latency_cycles");
    b.run_until(t0 + lat);
    ck_assert_msg(b.irq.read(), "irq asserted when EIR & EIMR != 0");
    b.cpu.wr(REG_EIR, EIR_MII);
    ck_assert_uint_eq(b.cpu.rd(REG_EIR), 0);
    b.run_until(now_ps() + lat);
    ck_assert_msg(!b.irq.read(), "irq drops after write-1-to-clear");
    ck_assert_uint_eq(b.mac.stats().irq_assertions, 1);
    ck_assert_uint_eq(b.mac.stats().mdio_frames, 1);
}
END_TEST

// MDIO through the MAC: the PHY answers only at enet.phy_addr (reads
// elsewhere return the pull-up 0xffff, writes there change nothing); a
// write at its address sticks except for read-only registers; the PHY
// reports 1000BASE-T ability (ESTATUS) and the partner's pages.
START_TEST(test_mdio_phy_address)
{
    enet_config cfg;
    cfg.link_speed = 1e9;
    bench b(cfg);
    b.run_until(0);
    const tick_t mdio = clock_domain(cfg.clock_hz).cycles(cfg.mdio_cycles);
    auto frame = [&](unsigned op, unsigned pa, unsigned ra, unsigned data) {
        b.cpu.wr(REG_EIR, EIR_MII);
        b.cpu.wr(REG_MMFR, 1u << 30 | op << 28 | pa << 23 | ra << 18 | 2u << 16 | data);
        b.run_until(now_ps() + mdio);
        ck_assert_uint_eq(b.cpu.rd(REG_EIR) & EIR_MII, EIR_MII);
        return b.cpu.rd(REG_MMFR) & 0xFFFF;
    };
    ck_assert_uint_eq(frame(2, 1, 2, 0), 0x0022);
    ck_assert_uint_eq(frame(2, 1, 3, 0), 0x1622);
    for (unsigned pa : {0u, 2u, 31u})
        ck_assert_msg(frame(2, pa, 2, 0) == 0xFFFF, "address %u answered", pa);
    frame(1, 0, 4, 0x0001);  // nobody at 0
    ck_assert_uint_eq(frame(2, 1, 4, 0), 0x05E1);
    frame(1, 1, 4, 0x01E1);
    ck_assert_uint_eq(frame(2, 1, 4, 0), 0x01E1);
    frame(1, 1, 1, 0);  // BMSR is read-only
    ck_assert_uint_eq(frame(2, 1, 1, 0) & 0x0024, 0x0024);  // link up, autoneg complete
    ck_assert_uint_eq(frame(2, 1, 15, 0), 0x3000);
    ck_assert_uint_eq(frame(2, 1, 10, 0) & 0x0C00, 0x0C00);  // partner 1000BASE-T at 1 Gbit/s
    ck_assert_uint_eq(b.mac.stats().mdio_frames, 13);
}
END_TEST

// The 1588 timer: with ATINC.INC = 8 at the 125-MHz timer clock the counter
// counts nanoseconds; ATCR.CAPTURE latches it into ATVR; it wraps at ATPER;
// a written ATVR sets it; RESTART zeroes it; a soft reset clears the block.
START_TEST(test_1588_timer)
{
    enet_config cfg;
    bench b(cfg);
    b.run_until(0);
    b.cpu.wr(REG_ATINC, 8);
    b.cpu.wr(REG_ATPER, 1000000);
    b.cpu.wr(REG_ATCR, ATCR_EN | ATCR_RESTART);
    auto capture = [&] {
        b.cpu.wr(REG_ATCR, ATCR_EN | ATCR_CAPTURE);
        ck_assert_uint_eq(b.cpu.rd(REG_ATCR), ATCR_EN);  // CAPTURE self-clears
        return b.cpu.rd(REG_ATVR);
    };
    const tick_t t0 = now_ps();
    b.run_until(t0 + 1000 * PS_PER_NS);
    ck_assert_uint_eq(capture(), 1000);
    b.run_until(t0 + 1000500 * PS_PER_NS);
    ck_assert_uint_eq(capture(), 496);  // wrapped at 1000000; 8-ns steps
    b.cpu.wr(REG_ATVR, 5000);
    ck_assert_uint_eq(capture(), 5000);
    b.cpu.wr(REG_ATCR, 0);  // stopped: it holds
    b.run_until(now_ps() + 1000 * PS_PER_NS);
    b.cpu.wr(REG_ATCR, ATCR_CAPTURE);
    ck_assert_uint_eq(b.cpu.rd(REG_ATVR), 5000);
    b.cpu.wr(REG_ECR, ECR_RESET);
    ck_assert_uint_eq(b.cpu.rd(REG_ATINC), 0);
    ck_assert_uint_eq(b.cpu.rd(REG_ATCR), 0);
}
END_TEST

START_TEST(test_masks_and_soft_reset)
{
    bench b;
    b.run_until(0);
    b.cpu.wr(REG_PAUR, 0x12345678);
    ck_assert_uint_eq(b.cpu.rd(REG_PAUR), 0x12348808);
    b.cpu.wr(REG_OPD, 0xFFFFFFF0);
    ck_assert_uint_eq(b.cpu.rd(REG_OPD), 0x0001FFF0);
    b.cpu.wr(REG_MRBR, 0xFFFFFFFF);
    ck_assert_uint_eq(b.cpu.rd(REG_MRBR), 0x3FF0);
    b.cpu.wr(REG_TIPG, 0xFF);
    ck_assert_uint_eq(b.cpu.rd(REG_TIPG), 0x1F);
    b.cpu.wr(REG_ECR, ECR_ETHEREN | ECR_DBSWP | ECR_EN1588);
    ck_assert_uint_eq(b.cpu.rd(REG_ECR), 0xF0000112);
    b.cpu.wr(REG_EIMR, 0xFFFFFFFF);
    ck_assert_uint_eq(b.cpu.rd(REG_EIMR), EIR_IMPL_MASK);
    b.cpu.wr(REG_RCR, 0xFFFFFFFF);
    ck_assert_msg((b.cpu.rd(REG_RCR) & RCR_GRS) == 0, "RCR.GRS is read-only");
    b.cpu.wr(REG_ECR, ECR_RESET);
    ck_assert_uint_eq(b.cpu.rd(REG_ECR), 0xF0000000);
    ck_assert_uint_eq(b.cpu.rd(REG_RCR), 0x05EE0001);
    ck_assert_uint_eq(b.cpu.rd(REG_MRBR), 0);
    ck_assert_uint_eq(b.cpu.rd(REG_OPD), 0x00010000);
    ck_assert_uint_eq(b.cpu.rd(REG_TIPG), 12);
    ck_assert_uint_eq(b.cpu.rd(REG_EIMR), 0);
}
END_TEST

START_TEST(test_guest_errors_and_unimp)
{
    bench b;
    b.run_until(0);
    const uint64_t ge = log_count(log_level::guest_error);
    b.cpu.wr(REG_RDAR, 0);
    ck_assert_msg(log_count(log_level::guest_error) == ge + 1, "RDAR with ETHEREN clear is a guest error");
    ck_assert_uint_eq(b.cpu.rd(REG_RDAR), 0);
    b.cpu.wr(REG_RDSR, 0x10100004);
    ck_assert_msg(log_count(log_level::guest_error) == ge + 2, "misaligned RDSR is a guest error");
    ck_assert_uint_eq(b.cpu.rd(REG_RDSR), 0x10100000);
    const uint64_t un = log_count(log_level::unimp);
    ck_assert_uint_eq(b.cpu.rd(0x3F0), 0);  // no register there
    ck_assert_msg(log_count(log_level::unimp) == un + 1, "unimplemented offset logged");
}
END_TEST

START_TEST(test_mib_freeze_and_clear)
{
    bench b;
    traffic::traffic_config tc;
    tc.count = 3;
    tc.start_ps = PS_PER_US;
    traffic::traffic_source src("src", tc);
    src.out.bind(b.mac.phy_rx);
    b.start();
    b.arm_rx_ring(8, 8);
    b.cpu.wr(REG_RDAR, 0);
    b.run_until(22 * PS_PER_US);  // frame 0 only (frame 1 starts at 22.28 us)
    ck_assert_uint_eq(b.cpu.rd(RMON_R_PACKETS), 1);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_FRAME_OK), 1);
    ck_assert_uint_eq(b.cpu.rd(RMON_R_OCTETS), 246);
    ck_assert_uint_eq(b.cpu.rd(RMON_R_P128TO255), 1);
    b.cpu.wr(REG_MIBC, MIBC_DIS);
    b.run_until(43 * PS_PER_US);  // frame 1 while frozen
    ck_assert_msg(b.cpu.rd(RMON_R_PACKETS) == 1, "MIB frozen while MIBC.DIS");
    b.cpu.wr(REG_MIBC, 0);
    b.run_until(70 * PS_PER_US);  // frame 2 (starts at 43.56 us)
    ck_assert_uint_eq(b.cpu.rd(RMON_R_PACKETS), 2);
    b.cpu.wr(REG_MIBC, MIBC_DIS | MIBC_CLEAR);
    ck_assert_uint_eq(b.cpu.rd(RMON_R_PACKETS), 0);
    ck_assert_uint_eq(b.cpu.rd(IEEE_R_OCTETS_OK), 0);
    ck_assert_uint_eq(b.mac.stats().rx_delivered, 3);
}
END_TEST

START_TEST(test_coalesce_absent_on_imx6q)
{
    bench b;  // default profile: i.MX6Q, has_coalesce = false
    b.run_until(0);
    const uint64_t un = log_count(log_level::unimp);
    b.cpu.wr(REG_RXIC0, IC_EN | 4u << IC_FT_SHIFT | 100);
    ck_assert_uint_eq(b.cpu.rd(REG_RXIC0), 0);
    b.cpu.wr(REG_TXIC0, IC_EN | 4u << IC_FT_SHIFT | 100);
    ck_assert_uint_eq(b.cpu.rd(REG_TXIC0), 0);
    ck_assert_msg(log_count(log_level::unimp) == un + 4, "RXIC0/TXIC0 accesses logged as unimplemented (%llu)",
                  (unsigned long long)(log_count(log_level::unimp) - un));
}
END_TEST

// The multi-queue ENET's ring 1/2 registers (docs/sources.md §1.7), as the
// 6.12 fec driver programs them for three queues (fec_enet_enable_ring:
// ERDSR/MRBR, RCMR = MATCHEN | priorities, DMAnCFG = DMA_CLASS_EN | idle
// slope; RDAR1/2): stored and read back with queues = 3; absent (read 0)
// with queues = 1, the i.MX6Q; ring 2 absent with queues = 2.
static void ring_regs_case(uint32_t queues)
{
    enet_config cfg;
    cfg.queues = queues;
    cfg.has_coalesce = true;
    bench b(cfg);
    b.start();
    const uint64_t unimp = log_count(log_level::unimp);
    b.cpu.wr(REG_RDSR1, 0x10120004);  // low bits ignored
    b.cpu.wr(REG_MRBR1, 0x7C0);
    b.cpu.wr(REG_RCMR1, 0x13210);
    b.cpu.wr(REG_DMA1CFG, 0x10200);
    b.cpu.wr(REG_RXIC1, IC_EN | 0x1000);
    b.cpu.wr(REG_RDAR1, 0);
    b.cpu.wr(REG_TDSR2, 0x10130000);
    b.cpu.wr(REG_RCMR2, 0x17654);
    b.cpu.wr(REG_RDAR2, 0);
    b.cpu.wr(REG_QOS, 1);
    b.cpu.wr(REG_EIMR, 0xFFFFFFFFu);
    const bool r1 = queues >= 2, r2 = queues >= 3;
    ck_assert_uint_eq(b.cpu.rd(REG_RDSR1), r1 ? 0x10120000u : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_MRBR1), r1 ? 0x7C0u : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_RCMR1), r1 ? 0x13210u : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_DMA1CFG), r1 ? 0x10200u : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_RXIC1), r1 ? (uint32_t)IC_EN | 0x1000u : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_RDAR1), r1 ? RDAR_ACTIVE : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_TDSR2), r2 ? 0x10130000u : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_RCMR2), r2 ? 0x17654u : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_RDAR2), r2 ? RDAR_ACTIVE : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_QOS), r1 ? 1u : 0u);
    ck_assert_uint_eq(b.cpu.rd(REG_EIMR), r1 ? 0xFFFF80AAu : 0xFFFF8000u);  // RXF1/TXF1/RXF2/TXF2 bits
    // Unimplemented accesses are logged: 10 writes and 10 reads on the i.MX6Q,
    // the ring 2 ones (3 + 3) with two rings, none with three.
    const uint64_t logged = log_count(log_level::unimp) - unimp;
    ck_assert_uint_eq(logged, queues == 1 ? 20u : queues == 2 ? 6u : 0u);
    // ETHEREN clear stops the rings (RDAR1/2 read 0), as ring 0.
    b.cpu.wr(REG_ECR, ECR_EN1588 | ECR_DBSWP);
    ck_assert_uint_eq(b.cpu.rd(REG_RDAR1), 0);
    ck_assert_uint_eq(b.cpu.rd(REG_RDSR1), r1 ? 0x10120000u : 0u);  // registers kept
}

START_TEST(test_ring_registers_three_queues)
{
    ring_regs_case(3);
}
END_TEST

START_TEST(test_ring_registers_two_queues)
{
    ring_regs_case(2);
}
END_TEST

START_TEST(test_ring_registers_absent_on_imx6q)
{
    ring_regs_case(1);
}
END_TEST

Suite* suite_enet_regs(void)
{
    Suite* s = suite_create("enet_regs");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_MODEL);
    tcase_add_test(tc, test_reset_values);
    tcase_add_test(tc, test_eir_write1_clear_and_irq);
    tcase_add_test(tc, test_mdio_phy_address);
    tcase_add_test(tc, test_1588_timer);
    tcase_add_test(tc, test_masks_and_soft_reset);
    tcase_add_test(tc, test_guest_errors_and_unimp);
    tcase_add_test(tc, test_mib_freeze_and_clear);
    tcase_add_test(tc, test_coalesce_absent_on_imx6q);
    tcase_add_test(tc, test_ring_registers_three_queues);
    tcase_add_test(tc, test_ring_registers_two_queues);
    tcase_add_test(tc, test_ring_registers_absent_on_imx6q);
    suite_add_tcase(s, tc);
    return s;
}
