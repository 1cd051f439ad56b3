// Set-associative storage: mapping and seeded replacement.
#include "tests/lib.h"
#include "cache/cache_array.h"

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

Suite* suite_cache_array(void)
{
    Suite* s = suite_create("cache_array");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_mapping);
    tcase_add_test(tc, test_seeded_replacement);
    tcase_add_test(tc, test_invalid_way_first_then_policy);
    suite_add_tcase(s, tc);
    return s;
}
