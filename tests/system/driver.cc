// Driver in the loop: our FEC driver, built at run time, against the MAC,
// the caches, the CPU model and the stack/app models.
#include "tests/lib.h"
#include "tests/system/sys.h"
#include "drivers/shim/shim.h"
#include "sim/driver_build.h"

using namespace models;

START_TEST(test_frames_reach_app_verified)
{
    sim::soc s(sys_config(10000, 20));
    const sim::run_summary r = s.run();
    ck_assert_msg(r.frames_offered >= 195 && r.frames_offered <= 205, "offered %llu", (unsigned long long)r.frames_offered);
    ck_assert_msg(r.frames_delivered + 3 >= r.frames_offered, "delivered %llu of %llu",
                  (unsigned long long)r.frames_delivered, (unsigned long long)r.frames_offered);
    ck_assert_uint_eq(r.payload_corrupted, 0);
    ck_assert_uint_eq(r.drops_mac_fifo, 0);
    ck_assert_uint_eq(r.drops_socket, 0);
    ck_assert_uint_eq(sys_stat(s, "ethtool.IEEE_rx_macerr"), 0);
}
END_TEST

Suite* suite_driver(void)
{
    Suite* s = suite_create("driver");
    TCase* tc = tests_tcase("in_the_loop", 120);
    tcase_add_test(tc, test_frames_reach_app_verified);
    suite_add_tcase(s, tc);
    return s;
}
