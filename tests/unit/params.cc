// Parameter tables: defaults, range checks, choices.
#include "tests/lib.h"
#include "mem/dram.h"
#include <string>

using namespace models;

START_TEST(test_defaults_match_table)
{
    mem::dram_config c;  // member defaults come from the same .def rows
    mem::dram_config d;
    d.latency_cycles = 1;
    param_defaults(&d, mem::dram_param_table);
    ck_assert_uint_eq(d.latency_cycles, c.latency_cycles);
    ck_assert_uint_eq(c.latency_cycles, 42);
    ck_assert(c.clock_hz == 528e6);
    ck_assert_uint_eq(c.backed, 64u << 20);
}
END_TEST

START_TEST(test_range_rejected_with_key)
{
    mem::dram_config c;
    std::string err;
    const param_desc* d = mem::dram_param_table.find("latency_cycles");
    ck_assert_ptr_nonnull(d);
    ck_assert(!param_set(&c, *d, 5000, &err));
    ck_assert_msg(err.find("latency_cycles") != std::string::npos, "error names the key: %s", err.c_str());
    ck_assert(!param_set(&c, *d, 2.5, &err));
    ck_assert(param_set(&c, *d, 50, &err));
    ck_assert_uint_eq(c.latency_cycles, 50);
    ck_assert(param_get(&c, *d) == 50);
}
END_TEST

START_TEST(test_choice_names)
{
    param_desc d{"replacement", param_kind::choice, "random|round_robin|lru", 0, 0, 2, "", 0,
                 param_storage::u32};
    CK_STR_EQ(param_choice_name(d, 1), "round_robin");
    ck_assert_int_eq(param_choice_index(d, "lru"), 2);
    ck_assert_int_eq(param_choice_index(d, "fifo"), -1);
    CK_STR_EQ(param_choice_name(d, 3), "");
}
END_TEST

Suite* suite_params(void)
{
    Suite* s = suite_create("params");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_defaults_match_table);
    tcase_add_test(tc, test_range_rejected_with_key);
    tcase_add_test(tc, test_choice_names);
    suite_add_tcase(s, tc);
    return s;
}
