// Shared-resource timeline: first-fit booking under out-of-order arrivals.
#include "tests/lib.h"
#include <algorithm>
#include <vector>
#include <utility>
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

// A small seeded generator of request times and lengths.
struct lcg {
    uint64_t x;
    explicit lcg(uint64_t seed) : x(seed) {}
    uint64_t below(uint64_t n)
    {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return (x >> 33) % n;
    }
};

// A run (slot_run) booked as one record answers book() and free_at() as
// its slots booked one by one as intervals would: random requests, in and
// around runs of every shape (a plain period with gaps, rounds of four with
// gaps inside and between them, back-to-back slots, a last round cut short).
START_TEST(test_run_equals_its_slots)
{
    using models::slot_run;
    lcg rng(12345);
    auto next = [&rng](uint64_t n) { return rng.below(n); };
    const slot_run shapes[] = {
        {1000, 25, 0, 10, 40, 1},     // period 25, busy 10
        {1000, 102, 15, 15, 37, 4},   // rounds of 4 slots 15 apart (back to back), every 102
        {1000, 120, 20, 7, 30, 4},    // gaps of 13 inside a round, 59 between rounds
        {1000, 30, 0, 30, 20, 1},     // one continuous block
        {5000, 200, 40, 40, 9, 3},    // last round of one slot
    };
    for (const slot_run& r : shapes) {
        for (int trial = 0; trial < 40; trial++) {
            timeline a(1ull << 40), b(1ull << 40);
            a.book_run(r);
            for (uint64_t j = 0; j < r.n; j++)
                ck_assert_uint_eq(b.book(r.slot_start(j), r.busy), r.slot_start(j));
            for (int k = 0; k < 30; k++) {
                const uint64_t t = 900 + next(r.end() - 800), dur = next(3 * (r.round + 1));
                if (next(4) == 0) {
                    ck_assert_uint_eq(a.free_at(t), b.free_at(t));
                } else {
                    const uint64_t sa = a.book(t, dur), sb = b.book(t, dur);
                    ck_assert_msg(sa == sb, "run (start %llu round %llu spacing %llu busy %llu n %llu m %llu): "
                                  "book(%llu, %llu) = %llu, slots as intervals %llu",
                                  (unsigned long long)r.start, (unsigned long long)r.round,
                                  (unsigned long long)r.spacing, (unsigned long long)r.busy, (unsigned long long)r.n,
                                  (unsigned long long)r.m, (unsigned long long)t, (unsigned long long)dur,
                                  (unsigned long long)sa, (unsigned long long)sb);
                }
            }
        }
    }
}
END_TEST

// Several runs on one timeline, booked in their time order (those starting
// after a request are skipped as a suffix) and out of it (every run looked
// at): each answers book() and free_at() as all their slots booked one by
// one as intervals.
START_TEST(test_runs_equal_their_slots)
{
    using models::slot_run;
    lcg rng(777);
    auto next = [&rng](uint64_t n) { return rng.below(n); };
    for (bool in_order : {true, false}) {
        for (int trial = 0; trial < 40; trial++) {
            // Eight runs one after another (rounds of 1 to 4 slots), gaps between them.
            std::vector<slot_run> runs;
            uint64_t t0 = 1000;
            for (int i = 0; i < 8; i++) {
                slot_run r;
                r.m = 1 + next(4);
                r.busy = 5 + next(20);
                r.spacing = r.m > 1 ? r.busy + next(10) : 0;
                r.round = (r.m - 1) * r.spacing + r.busy + 1 + next(60);
                r.n = 1 + next(30);
                r.start = t0;
                runs.push_back(r);
                t0 = r.end() + next(200);
            }
            timeline a(1ull << 40), b(1ull << 40);
            if (!in_order)
                std::swap(runs[1], runs[6]);
            for (const slot_run& r : runs) {
                a.book_run(r);
                for (uint64_t j = 0; j < r.n; j++)
                    ck_assert_uint_eq(b.book(r.slot_start(j), r.busy), r.slot_start(j));
            }
            for (int k = 0; k < 200; k++) {
                const uint64_t t = 900 + next(t0 - 800), dur = next(120);
                if (next(4) == 0) {
                    ck_assert_uint_eq(a.free_at(t), b.free_at(t));
                } else {
                    const uint64_t sa = a.book(t, dur), sb = b.book(t, dur);
                    ck_assert_msg(sa == sb, "%s: book(%llu, %llu) = %llu, slots as intervals %llu",
                                  in_order ? "in order" : "out of order", (unsigned long long)t,
                                  (unsigned long long)dur, (unsigned long long)sa, (unsigned long long)sb);
                }
            }
        }
    }
}
END_TEST

// First fit over a plain sorted list of disjoint, non-touching intervals,
// nothing forgotten: what the timeline's bookings must come to however it
// stores them.
struct interval_list {
    std::vector<std::pair<uint64_t, uint64_t>> v;  // [start, end)
    uint64_t book(uint64_t t, uint64_t dur)
    {
        const uint64_t need = dur ? dur : 1;
        size_t i = 0;
        while (i < v.size() && v[i].second <= t)
            i++;
        uint64_t s = t;
        for (; i < v.size() && v[i].first < s + need; i++)
            s = std::max(s, v[i].second);
        if (dur == 0)
            return s;
        v.insert(v.begin() + (long)i, {s, s + dur});
        if (i + 1 < v.size() && v[i + 1].first == v[i].second) {
            v[i].second = v[i + 1].second;
            v.erase(v.begin() + (long)i + 1);
        }
        if (i > 0 && v[i - 1].second == v[i].first) {
            v[i - 1].second = v[i].second;
            v.erase(v.begin() + (long)i);
        }
        return s;
    }
};

// Bookings as the memory hog and another master make them: one stream
// running ahead (appends at the end), requests a little behind it (placed
// among the latest intervals, a few apart from one another), some far
// behind (with a short horizon: just inside it), lengths on a coarse grid
// so that bookings often fill a gap exactly (joining the intervals on both
// sides). Every answer as the plain list's, and while nothing is forgotten
// the number of intervals too; with a short horizon no request goes further
// back than the horizon from the latest one (asserted), so that nothing
// forgotten could have mattered.
START_TEST(test_bookings_equal_interval_list)
{
    for (uint64_t seed : {1u, 2u, 3u, 4u}) {
        for (int mode = 0; mode < 3; mode++) {
            // 0: nothing forgotten; 1: a short horizon; 2: a short horizon
            // and nothing placed among the latest intervals, only at the
            // end and among the oldest ones, which are forgotten meanwhile.
            const bool short_horizon = mode > 0, middle = mode < 2;
            lcg rng(seed);
            const uint64_t horizon = short_horizon ? 20000 : 1ull << 40;
            timeline tl(horizon);
            interval_list ref;
            uint64_t ahead = 1000, latest = 0;
            for (int k = 0; k < 20000; k++) {
                uint64_t t;
                const uint64_t kind = rng.below(16);
                if (kind < 6 || (kind < 15 && !middle)) {
                    ahead += 10 * rng.below(8);
                    t = ahead;
                } else if (kind < 15) {
                    const uint64_t back = 10 * rng.below(200);
                    t = ahead > back ? ahead - back : 0;
                } else if (!short_horizon) {
                    const uint64_t back = 10 * rng.below(5000);
                    t = ahead > back ? ahead - back : 0;
                } else {
                    // Just inside the horizon: among the oldest live intervals.
                    t = latest + 1000 + 10 * rng.below(50);
                    t = t > horizon ? t - horizon : 0;
                }
                ck_assert(!short_horizon || t + horizon >= latest + 1000);
                latest = std::max(latest, t);
                const uint64_t dur = 10 * rng.below(6);  // 0: the first idle instant
                const uint64_t a = tl.book(t, dur), b = ref.book(t, dur);
                ck_assert_msg(a == b, "seed %llu mode %d op %d: book(%llu, %llu) = %llu, interval list %llu",
                              (unsigned long long)seed, mode, k, (unsigned long long)t, (unsigned long long)dur,
                              (unsigned long long)a, (unsigned long long)b);
                if (!short_horizon)
                    ck_assert_uint_eq(tl.live_intervals(), ref.v.size());
                if (rng.below(8) == 0) {
                    // Where it booked, or (short horizon) among the oldest
                    // intervals not forgotten.
                    uint64_t q = t + 10 * rng.below(100);
                    if (short_horizon && rng.below(2)) {
                        q = latest + 1000 + 10 * rng.below(200);
                        q = q > horizon ? q - horizon : 0;
                    }
                    ck_assert_uint_eq(tl.free_at(q), ref.book(q, 0));
                }
            }
        }
    }
}
END_TEST

Suite* suite_timeline(void)
{
    Suite* s = suite_create("timeline");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_in_order_serialises);
    tcase_add_test(tc, test_run_equals_its_slots);
    tcase_add_test(tc, test_runs_equal_their_slots);
    tcase_add_test(tc, test_out_of_order_fills_gap);
    tcase_add_test(tc, test_zero_length_is_first_idle);
    tcase_add_test(tc, test_horizon_prunes);
    tcase_add_test(tc, test_horizon_prunes_late_booking);
    tcase_add_test(tc, test_bookings_equal_interval_list);
    suite_add_tcase(s, tc);
    return s;
}
