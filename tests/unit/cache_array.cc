// Set-associative storage: mapping and seeded replacement.
#include "tests/lib.h"
#include "cache/cache_array.h"
#include <vector>
#include "common/rng.h"

using namespace models::cache;

static uint64_t victims(uint64_t seed, replacement_kind k)
{
    cache_array a(32768, 4, 32, k, seed, false);
    uint64_t sig = 0;
    for (int i = 0; i < 200; i++) {
        const uint64_t pa = 0x10000000 + (uint64_t)(i % 11) * 8192;  // one set
        if (a.find(pa) < 0) {
            int v = a.victim(pa);
            sig = sig * 131 + (uint64_t)(v % 4);
            a.install(v, pa, 0);
        }
    }
    return sig;
}

START_TEST(test_mapping)
{
    cache_array a(32768, 4, 32, replacement_kind::random, 1, false);
    ck_assert_uint_eq(a.sets(), 256);
    ck_assert_uint_eq(a.set_of(0x10000000 + 0x20), 1);
    ck_assert_uint_eq(a.set_of(0x10000000 + 8192 + 0x20), 1);
    int s = a.victim(0x10000020);
    a.install(s, 0x10000020, LINE_DIRTY);
    ck_assert_int_eq(a.find(0x1000003F), s);
    ck_assert_int_eq(a.find(0x10000040), -1);
    ck_assert_uint_eq(a.addr(s), 0x10000020);
    ck_assert(a.dirty(s));
    cache_array l2(1 << 20, 16, 32, replacement_kind::round_robin, 1, true);
    ck_assert_uint_eq(l2.sets(), 2048);
    ck_assert_ptr_nonnull(l2.data(0));
}
END_TEST

START_TEST(test_seeded_replacement)
{
    ck_assert_uint_eq(victims(7, replacement_kind::random), victims(7, replacement_kind::random));
    ck_assert_uint_ne(victims(7, replacement_kind::random), victims(8, replacement_kind::random));
    // Round-robin and LRU do not depend on the seed.
    ck_assert_uint_eq(victims(7, replacement_kind::round_robin), victims(8, replacement_kind::round_robin));
    ck_assert_uint_eq(victims(7, replacement_kind::lru), victims(8, replacement_kind::lru));
}
END_TEST

START_TEST(test_invalid_way_first_then_policy)
{
    cache_array a(4 * 32, 4, 32, replacement_kind::round_robin, 1, false);  // one set
    for (int i = 0; i < 4; i++) {
        int v = a.victim(0x1000 + i * 32);
        ck_assert_int_eq(v, i);
        a.install(v, 0x1000 + i * 32, 0);
    }
    ck_assert_int_eq(a.victim(0x2000), 0);
    ck_assert_int_eq(a.victim(0x2000), 1);
    a.drop(2);
    ck_assert_int_eq(a.victim(0x2000), 2);  // the invalid way, not the next in turn
}
END_TEST

// write_lines() against the same lines written one by one (find, then touch
// and the flags, or victim, the eviction and install) on a twin array: the
// same victims handed out (line index, address, dirty), the same state after
// (every line of the window looked up, its slot and flags), over runs that
// hit, miss, evict clean and dirty lines and wrap past the last set, for each
// replacement policy.
START_TEST(test_write_lines_equals_line_by_line)
{
    for (replacement_kind k : {replacement_kind::random, replacement_kind::round_robin, replacement_kind::lru}) {
        cache_array a(8192, 4, 32, k, 3, false), b(8192, 4, 32, k, 3, false);  // 64 sets
        models::rng r(11, 1);
        const uint64_t base = 0x20000000, window = 64 * 1024;
        std::vector<uint64_t> ea, eb;
        for (int round = 0; round < 300; round++) {
            const uint64_t pa = base + (r.below(window / 32) * 32);
            const uint64_t n = 1 + r.below(100);  // up to more than the sets
            const uint8_t f = r.below(2) ? LINE_DIRTY : 0;
            const uint64_t present = a.write_lines(pa, n, f, [&](uint64_t i, int slot) {
                ea.push_back(i * 1000003 + a.addr(slot) * 2 + (a.dirty(slot) ? 1 : 0));
                a.set_flags(slot, 0);  // what a write-back does
            });
            uint64_t pb = 0;
            for (uint64_t i = 0; i < n; i++) {
                const uint64_t lpa = pa + i * 32;
                int slot = b.find(lpa);
                if (slot >= 0) {
                    b.touch(slot);
                    b.set_flags(slot, f);
                    pb++;
                    continue;
                }
                slot = b.victim(lpa);
                if (b.valid(slot)) {
                    eb.push_back(i * 1000003 + b.addr(slot) * 2 + (b.dirty(slot) ? 1 : 0));
                    b.set_flags(slot, 0);
                }
                b.install(slot, lpa, f);
            }
            ck_assert_uint_eq(present, pb);
        }
        ck_assert_uint_gt(ea.size(), 1000);
        ck_assert(ea == eb);
        ck_assert_uint_eq(a.valid_lines(), b.valid_lines());
        for (uint64_t pa = base; pa < base + window + 100 * 32; pa += 32) {
            const int sa = a.find(pa), sb = b.find(pa);
            ck_assert_int_eq(sa, sb);
            if (sa >= 0)
                ck_assert_uint_eq(a.flags(sa), b.flags(sb));
        }
    }
}
END_TEST

Suite* suite_cache_array(void)
{
    Suite* s = suite_create("cache_array");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_mapping);
    tcase_add_test(tc, test_seeded_replacement);
    tcase_add_test(tc, test_invalid_way_first_then_policy);
    tcase_add_test(tc, test_write_lines_equals_line_by_line);
    suite_add_tcase(s, tc);
    return s;
}
