// Round-robin port: a late-booked request waits for one slot of another
// master's burst, not for the burst; the displaced master owes the time.
#include "tests/lib.h"
#include "common/rr_port.h"

using models::rr_port;
using models::tick_t;

START_TEST(test_own_requests_in_order)
{
    rr_port p(2);
    ck_assert_uint_eq(p.grant(0, 100).start, 100);
    p.commit(0, 100, 50, 50, false);
    const rr_port::grant_info g = p.grant(0, 120);
    ck_assert_uint_eq(g.start, 150);
    ck_assert_int_eq(g.behind, -1);
    ck_assert_uint_eq(p.grant(1, 120).start, 150);  // another master: the one request in service
}
END_TEST

START_TEST(test_late_request_waits_one_slot)
{
    rr_port p(2);
    // Master 1 (running ahead) booked 10 back-to-back requests of 10 ps.
    p.commit(1, 1000, 100, 10, false);
    // Master 0 asks at 1035: it waits for the slot in progress, not for 1100.
    const rr_port::grant_info g = p.grant(0, 1035);
    ck_assert_uint_eq(g.start, 1040);
    ck_assert_int_eq(g.behind, 1);
    ck_assert_uint_eq(g.behind_slot_start, 1030);
    ck_assert(!g.behind_maint);
    p.commit(0, g.start, 50, 50, true);
    // Master 1's remaining six requests move back by 50 ps and it owes 50 ps.
    ck_assert_uint_eq(p.debt(1), 50);
    ck_assert_uint_eq(p.grant(1, 2000).start, 2050);
    // A third request of master 0 at 1150 still finds master 1 busy (its
    // envelope now ends at 1150): no wait.
    ck_assert_uint_eq(p.grant(0, 1150).start, 1150);
}
END_TEST

START_TEST(test_backlogged_masters_alternate)
{
    rr_port p(2);
    p.commit(1, 0, 200, 10, false);  // 20 requests of 10 ps
    // Master 0 issues five 50-ps requests, each as soon as the previous ends:
    // every one waits for exactly one request of master 1.
    const tick_t want[5] = {10, 70, 130, 190, 250};
    tick_t t = 0;
    for (int k = 0; k < 5; k++) {
        const rr_port::grant_info g = p.grant(0, t);
        ck_assert_uint_eq(g.start, want[k]);
        p.commit(0, g.start, 50, 50, false);
        t = g.start + 50;
    }
    // Occupancy is conserved: master 1's 200 ps plus the 250 ps it gave up.
    ck_assert_uint_eq(p.debt(1), 250);
    ck_assert_uint_eq(p.others_next_busy(0, 449), 449);  // master 1 ends at 450
    ck_assert_uint_eq(p.others_next_busy(0, 450), ~(tick_t)0);
}
END_TEST

START_TEST(test_block_has_slot_granularity)
{
    rr_port p(2);
    p.commit(0, 0, 640, 64, true);  // a range of ten 64-ps maintenance operations
    const rr_port::grant_info g = p.grant(1, 100);
    ck_assert_uint_eq(g.start, 128);
    ck_assert(g.behind_maint);
    p.commit(1, g.start, 8, 8, false);
    ck_assert_uint_eq(p.others_next_busy(1, 647), 647);  // the range ends at 648
    ck_assert_uint_eq(p.others_next_busy(1, 648), ~(tick_t)0);
    ck_assert_uint_eq(p.debt(0), 8);
}
END_TEST

START_TEST(test_later_envelopes_move_too)
{
    rr_port p(3);
    p.commit(2, 100, 40, 10, false);
    p.commit(2, 500, 40, 10, false);
    const rr_port::grant_info g = p.grant(0, 120);
    ck_assert_uint_eq(g.start, 130);
    p.commit(0, g.start, 30, 30, false);
    // Both of master 2's envelopes moved back by 30 ps.
    ck_assert_uint_eq(p.grant(1, 560).start, 570);
    ck_assert_uint_eq(p.grant(1, 535).start, 540);
    ck_assert_uint_eq(p.grant(1, 525).start, 525);  // first come: before it
    ck_assert_uint_eq(p.grant(1, 171).start, 171);  // between them: idle
    ck_assert_uint_eq(p.live_envelopes(2), 2);
}
END_TEST

START_TEST(test_others_next_busy)
{
    rr_port p(3);
    p.commit(2, 100, 40, 10, false);
    p.commit(2, 500, 40, 10, false);
    p.commit(1, 300, 20, 20, true);
    const tick_t none = ~(tick_t)0;
    ck_assert_uint_eq(p.others_next_busy(0, 0), 100);
    ck_assert_uint_eq(p.others_next_busy(0, 120), 120);  // inside an envelope: at once
    ck_assert_uint_eq(p.others_next_busy(0, 140), 300);  // an envelope's end is free
    ck_assert_uint_eq(p.others_next_busy(0, 320), 500);
    ck_assert_uint_eq(p.others_next_busy(0, 540), none);
    ck_assert_uint_eq(p.others_next_busy(2, 0), 300);  // its own envelopes do not count
    ck_assert_uint_eq(p.others_next_busy(1, 200), 500);
}
END_TEST

// A burst booked as one extension (rr_port::extends, extend_run) leaves the
// port as booking its requests one by one does: the same envelope, the same
// grants for others, the same envelopes forgotten (as of the last request).
START_TEST(test_run_extension_equals_line_by_line)
{
    const tick_t horizon = 1000;
    rr_port a(2, horizon), b(2, horizon);
    const tick_t holds[6] = {8, 12, 8, 20, 8, 9};  // a request may hold the port longer than its slot
    for (rr_port* p : {&a, &b}) {
        p->commit(0, 9000, 10, 10, false);  // old: forgotten once a request starts after 10010
        p->commit(1, 9500, 40, 8, false);
    }
    tick_t at = 10000, last = 0;
    for (int k = 0; k < 6; k++) {  // a: each request granted and committed
        const tick_t s = a.grant(0, at).start;
        a.commit(0, s, holds[k], 8, false);
        last = s;
        at = s + holds[k];
    }
    const tick_t s0 = b.grant(0, 10000).start;  // b: the first, then the run at once
    ck_assert_uint_eq(s0, 10000);
    b.commit(0, s0, holds[0], 8, false);
    ck_assert(b.extends(0, s0 + holds[0], 8, false));
    ck_assert(!b.extends(0, s0 + holds[0], 10, false));  // another slot length: not the fast path
    ck_assert(!b.extends(0, s0, 8, false));               // not where the envelope ends
    b.extend_run(0, at, last);
    ck_assert_uint_eq(a.live_envelopes(0), 1);  // 9000's was forgotten (last > 10010)
    ck_assert_uint_eq(b.live_envelopes(0), a.live_envelopes(0));
    for (tick_t t : {(tick_t)9990, (tick_t)10000, (tick_t)10013, (tick_t)10040, (tick_t)10064, at - 1, at}) {
        const rr_port::grant_info ga = a.grant(1, t), gb = b.grant(1, t);
        ck_assert_uint_eq(gb.start, ga.start);
        ck_assert_int_eq(gb.behind, ga.behind);
        ck_assert_uint_eq(gb.behind_slot_start, ga.behind_slot_start);
    }
    // Another master booked after the envelope's end: no run.
    b.commit(1, at + 5, 8, 8, false);
    ck_assert(!b.extends(0, at, 8, false));
}
END_TEST

Suite* suite_rr_port(void)
{
    Suite* s = suite_create("rr_port");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_own_requests_in_order);
    tcase_add_test(tc, test_late_request_waits_one_slot);
    tcase_add_test(tc, test_backlogged_masters_alternate);
    tcase_add_test(tc, test_block_has_slot_granularity);
    tcase_add_test(tc, test_later_envelopes_move_too);
    tcase_add_test(tc, test_others_next_busy);
    tcase_add_test(tc, test_run_extension_equals_line_by_line);
    suite_add_tcase(s, tc);
    return s;
}
