// Shared-resource timeline: first-fit booking under out-of-order arrivals.
#include "tests/lib.h"
#include "common/timeline.h"

using models::timeline;

START_TEST(test_in_order_serialises)
{
    timeline tl;
    ck_assert_uint_eq(tl.book(100, 50), 100);
    ck_assert_uint_eq(tl.book(120, 50), 150);  // waits for the first
    ck_assert_uint_eq(tl.book(400, 10), 400);  // idle again
    ck_assert_uint_eq(tl.live_intervals(), 2); // [100,200) merged, [400,410)
}
END_TEST

START_TEST(test_out_of_order_fills_gap)
{
    timeline tl;
    ck_assert_uint_eq(tl.book(1000, 100), 1000);
    // An earlier request that fits before the booking takes the gap...
    ck_assert_uint_eq(tl.book(200, 300), 200);
    // ...one that does not fit goes after it.
    ck_assert_uint_eq(tl.book(850, 200), 1100);
    ck_assert_uint_eq(tl.free_at(250), 500);
    ck_assert_uint_eq(tl.free_at(600), 600);
    ck_assert_uint_eq(tl.free_at(1000), 1300);
}
END_TEST

START_TEST(test_zero_length_is_first_idle)
{
    timeline tl;
    tl.book(100, 100);
    ck_assert_uint_eq(tl.book(100, 0), 200);
    ck_assert_uint_eq(tl.book(99, 0), 99);
    ck_assert_uint_eq(tl.live_intervals(), 1);
}
END_TEST

START_TEST(test_horizon_prunes)
{
    timeline tl(1000);
    for (int i = 0; i < 1000; i++)
        tl.book((models::tick_t)i * 100, 10);
    ck_assert_uint_le(tl.live_intervals(), 12);
}
END_TEST

// The prune bound follows a booking placed before the first live interval
// (an initiator far behind the others): it is forgotten once it is older
// than the horizon, like any other.
START_TEST(test_horizon_prunes_late_booking)
{
    timeline tl(1000);
    ck_assert_uint_eq(tl.book(5000, 10), 5000);
    ck_assert_uint_eq(tl.book(100, 10), 100);  // before the latest: inserted in front
    ck_assert_uint_eq(tl.live_intervals(), 2);
    ck_assert_uint_eq(tl.book(2000, 10), 2000);  // 2000 - horizon > 110: [100, 110) goes
    ck_assert_uint_eq(tl.live_intervals(), 2);
    ck_assert_uint_eq(tl.book(105, 0), 105);  // forgotten: idle
}
END_TEST

Suite* suite_timeline(void)
{
    Suite* s = suite_create("timeline");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_in_order_serialises);
    tcase_add_test(tc, test_out_of_order_fills_gap);
    tcase_add_test(tc, test_zero_length_is_first_idle);
    tcase_add_test(tc, test_horizon_prunes);
    tcase_add_test(tc, test_horizon_prunes_late_booking);
    suite_add_tcase(s, tc);
    return s;
}
