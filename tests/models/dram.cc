// DRAM + interconnect: data, latency, bandwidth contention.
#include "tests/lib.h"
#include "mem/dram.h"
#include "mem/noc.h"
#include "mem/phys_mem.h"
#include <cstring>

using namespace models;
using namespace models::mem;

namespace {

// One DRAM channel at the default configuration over its own memory; the
// time resolution is fixed before any model exists.
struct dram_rig {
    struct time_first {
        time_first() { time_setup(); }
    } tf;
    dram_config cfg;
    phys_mem pm{cfg.phys()};
    dram d{"dram", cfg, pm};
};

} // namespace

START_TEST(test_read_write_data_and_latency)
{
    dram_rig rig;
    dram& d = rig.d;
    phys_mem& pm = rig.pm;
    mem_txn tx;
    uint8_t buf[32], out[32];
    for (int i = 0; i < 32; i++)
        buf[i] = (uint8_t)(i * 7);
    tx.set(tlm::TLM_WRITE_COMMAND, 0x10000040, buf, 32);
    tick_t wdone = d.access(tx.gp, 0);
    // 32 B at 16 B/cycle + 2 overhead = 4 cycles of 528 MHz (1894 ps each)
    ck_assert_uint_eq(wdone, 4 * clock_domain(528e6).period_ps);
    ck_assert_mem_eq(pm.dram_view(0x10000040), buf, 32);
    tx.set(tlm::TLM_READ_COMMAND, 0x10000040, out, 32);
    tick_t t0 = 1000 * PS_PER_NS;
    tick_t rdone = d.access(tx.gp, t0);
    ck_assert_uint_eq(rdone - t0, (42 + 4) * clock_domain(528e6).period_ps);
    ck_assert_mem_eq(out, buf, 32);
}
END_TEST

START_TEST(test_contention_raises_latency)
{
    dram_rig rig;
    dram& d = rig.d;
    mem_txn tx;
    uint8_t out[32];
    tx.set(tlm::TLM_READ_COMMAND, 0x10000000, out, 32);
    tick_t idle = d.access(tx.gp, 0);
    // Another master saturates the channel around t = 10 us with 4 KiB writes.
    mem_txn bg;
    bg.set(tlm::TLM_WRITE_COMMAND, 0x20000000, nullptr, 4096);
    for (int i = 0; i < 4; i++)
        d.access(bg.gp, 10 * PS_PER_US);
    tx.set(tlm::TLM_READ_COMMAND, 0x10000000, out, 32);
    tick_t t = 10 * PS_PER_US + 100;
    tick_t busy = d.access(tx.gp, t) - t;
    ck_assert_msg(busy > idle + 4 * 256 * clock_domain(528e6).period_ps - 1000,
                  "read behind 16 KiB of writes: %llu ps vs idle %llu ps", (unsigned long long)busy,
                  (unsigned long long)idle);
    ck_assert_uint_gt(d.stats().queue_ps, 0);
}
END_TEST

START_TEST(test_backing_is_lazy_and_timing_only_outside)
{
    dram_rig rig;
    dram& d = rig.d;
    const dram_config& cfg = rig.cfg;
    uint8_t out[32];
    std::memset(out, 0xAA, sizeof out);
    mem_txn tx;
    tx.set(tlm::TLM_READ_COMMAND, 0x10000000 + cfg.backed + 4096, out, 32);
    d.access(tx.gp, 0);
    for (int i = 0; i < 32; i++)
        ck_assert_uint_eq(out[i], 0);
    ck_assert_int_eq(tx.gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    tx.set(tlm::TLM_READ_COMMAND, 0x10000000 + cfg.size, out, 32);
    d.access(tx.gp, 0);
    ck_assert_int_eq(tx.gp.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}
END_TEST

START_TEST(test_uncached_alias)
{
    phys_mem pm(phys_mem_config{});
    pm.map_uncached(0x10000000 + (1 << 20), 1 << 16);
    uint8_t* w = pm.cpu_view(0x10000000 + (1 << 20) + 8);
    *w = 0x5A;
    ck_assert_uint_eq(*pm.dram_view(0x10000000 + (1 << 20) + 8), 0x5A);
    ck_assert(pm.is_uncached(0x10000000 + (1 << 20) + 100));
    ck_assert(!pm.is_uncached(0x10000000));
    *pm.cpu_view(0x10000000) = 1;  // cached range: views are separate
    ck_assert_uint_eq(*pm.dram_view(0x10000000), 0);
}
END_TEST

// Testbench master: sends one transaction through the fabric.
struct tb_master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<tb_master> sock;
    explicit tb_master(sc_core::sc_module_name n) : sc_module(n), sock("sock") {}
};

START_TEST(test_noc_adds_latency_and_routes)
{
    time_setup();
    dram_config dc;
    phys_mem pm(dc.phys());
    dram d("dram", dc, pm);
    noc n("noc", noc_config{});
    tb_master a("a"), b("b");
    a.sock.bind(n.masters);
    b.sock.bind(n.masters);
    n.mem_side.bind(d.bus);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    uint8_t out[32];
    mem_txn tx;
    tx.set(tlm::TLM_READ_COMMAND, 0x10000000, out, 32);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    a.sock->b_transport(tx.gp, delay);
    const tick_t hop = clock_domain(264e6).cycles(4);
    const tick_t dr = clock_domain(528e6).cycles(46);
    const tick_t port = clock_domain(264e6).cycles(4);
    ck_assert_uint_eq(to_ps(delay), 2 * hop + dr + 0 * port);
    ck_assert_uint_eq(n.stats().transactions, 1);
}
END_TEST

Suite* suite_dram(void)
{
    Suite* s = suite_create("dram");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_MODEL);
    tcase_add_test(tc, test_read_write_data_and_latency);
    tcase_add_test(tc, test_contention_raises_latency);
    tcase_add_test(tc, test_backing_is_lazy_and_timing_only_outside);
    tcase_add_test(tc, test_uncached_alias);
    tcase_add_test(tc, test_noc_adds_latency_and_routes);
    suite_add_tcase(s, tc);
    return s;
}
