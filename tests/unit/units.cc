// Unit strings: parsing of every kind, the errors, and format/parse round trips.
#include "tests/lib.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include "models/common/rng.h"
#include "sim/config/registry.h"
#include "sim/config/units.h"

using models::param_desc;
using models::param_kind;
using sim::units_format_kind;
using sim::units_parse_kind;

static double ok(param_kind k, const char* text, double cpu_hz = 0)
{
    double v = -1;
    std::string err;
    sim::units_context ctx;
    ctx.cpu_hz = cpu_hz;
    ck_assert_msg(units_parse_kind(k, text, &v, &err, ctx), "'%s' should parse: %s", text, err.c_str());
    return v;
}

// Fails to parse; the message must contain `needle`.
static void bad(param_kind k, const char* text, const char* needle, double cpu_hz = 0)
{
    double v = -1;
    std::string err;
    sim::units_context ctx;
    ctx.cpu_hz = cpu_hz;
    ck_assert_msg(!units_parse_kind(k, text, &v, &err, ctx), "'%s' should not parse (got %g)", text, v);
    ck_assert_msg(err.find(needle) != std::string::npos, "error for '%s' should mention '%s': %s", text, needle,
                  err.c_str());
}

START_TEST(test_bytes)
{
    ck_assert(ok(param_kind::bytes, "32KiB") == 32768);
    ck_assert(ok(param_kind::bytes, "2KiB") == 2048);
    ck_assert(ok(param_kind::bytes, "100MB") == 100e6);
    ck_assert(ok(param_kind::bytes, "1MiB") == 1048576);
    ck_assert(ok(param_kind::bytes, "1GiB") == 1073741824.0);
    ck_assert(ok(param_kind::bytes, "4kB") == 4000);
    ck_assert(ok(param_kind::bytes, "1.5KiB") == 1536);
    ck_assert(ok(param_kind::bytes, "4096") == 4096);
    ck_assert(ok(param_kind::bytes, "32B") == 32);
    ck_assert(ok(param_kind::bytes, " 32 MiB ") == 33554432);
    ck_assert(ok(param_kind::bytes, "0x20") == 32);
    bad(param_kind::bytes, "1.3KiB", "whole number of bytes");
    bad(param_kind::bytes, "32KB", "ambiguous");
    bad(param_kind::bytes, "32K", "ambiguous");
    bad(param_kind::bytes, "32kib", "wrong case");
    bad(param_kind::bytes, "32XB", "unknown unit 'XB'");
    bad(param_kind::bytes, "abc", "not a number");
    bad(param_kind::bytes, "", "empty value");
    bad(param_kind::bytes, "32XB", "KiB, MiB, GiB");  // says what is allowed
}
END_TEST

START_TEST(test_rates)
{
    ck_assert(ok(param_kind::hz, "996MHz") == 996e6);
    ck_assert(ok(param_kind::hz, "1GHz") == 1e9);
    ck_assert(ok(param_kind::hz, "1ghz") == 1e9);
    ck_assert(ok(param_kind::hz, "528e6") == 528e6);
    ck_assert(ok(param_kind::hz, "100kHz") == 100e3);
    ck_assert(ok(param_kind::hz, "996.5MHz") == 996.5e6);
    bad(param_kind::hz, "996MB", "unknown unit 'MB'");
    ck_assert(ok(param_kind::bps, "100Mbps") == 100e6);
    ck_assert(ok(param_kind::bps, "1Gbps") == 1e9);
    ck_assert(ok(param_kind::bps, "1Gbit/s") == 1e9);
    bad(param_kind::bps, "100MBps", "wrong case");
    bad(param_kind::bps, "100furlongs", "Mbps");
}
END_TEST

START_TEST(test_time)
{
    ck_assert(ok(param_kind::time, "21us") == 21e6);
    ck_assert(ok(param_kind::time, "21.28us") == 21280000);
    ck_assert(ok(param_kind::time, "1ms") == 1e9);
    ck_assert(ok(param_kind::time, "10s") == 10e12);
    ck_assert(ok(param_kind::time, "500ns") == 500e3);
    ck_assert(ok(param_kind::time, "1ps") == 1);
    ck_assert(ok(param_kind::time, "2\xc2\xb5s") == 2e6);
    // Cycles of the CPU clock: 996 MHz -> 1004 ps per cycle (rounded as clock_domain does).
    ck_assert(ok(param_kind::time, "1cycle", 996e6) == 1004);
    ck_assert(ok(param_kind::time, "3cycles", 996e6) == 3012);
    bad(param_kind::time, "5", "needs a unit");
    bad(param_kind::time, "1.5ps", "whole number of picoseconds");
    bad(param_kind::time, "1cycle", "CPU clock");
    bad(param_kind::time, "1.5cycles", "whole", 996e6);
    bad(param_kind::time, "3min", "unknown unit 'min'");
}
END_TEST

// shortest_number's definition: whole numbers below 1e15 with %.0f, else
// the fewest significant digits (1..17) whose %.*g text reads back as v.
static std::string shortest_by_definition(double v)
{
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return buf;
    }
    for (int p = 1; p <= 17; p++) {
        std::snprintf(buf, sizeof buf, "%.*g", p, v);
        if (std::strtod(buf, nullptr) == v)
            break;
    }
    return buf;
}

// The same text as the definition for chosen values (decimal fractions,
// percentages, powers of ten at the edges of %g's exponent rule, the limits
// of double, infinities, NaN) and for 40 000 doubles of every exponent
// (random bit patterns) and of the magnitudes a run's series hold.
START_TEST(test_shortest_number)
{
    const double chosen[] = {0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 99.8660682, 0.001, 1e-4, 1e-5, 123456.5,
                             1234567.5, 1e15, 1e16, 1.5e15, 9.999999999999999e22, 1e23, 5e-324,
                             2.2250738585072014e-308, 1.7976931348623157e308, -0.5, -1e-7,
                             INFINITY, -INFINITY, NAN, 0.0, -0.0, 4.35, 2.675, 1e21, 1e-310,
                             0x1.265f6393d8d9bp-16};
    for (double v : chosen) {
        const std::string got = sim::shortest_number(v), want = shortest_by_definition(v);
        ck_assert_str_eq(got.c_str(), want.c_str());
    }
    models::rng r(1);
    for (int i = 0; i < 40000; i++) {
        double v;
        if (i % 2) {
            const uint64_t bits = r.next();
            std::memcpy(&v, &bits, sizeof v);
        } else {
            v = r.uniform() * std::pow(10.0, (double)(i % 15) - 4);
        }
        const std::string got = sim::shortest_number(v), want = shortest_by_definition(v);
        ck_assert_msg(got == want, "%a: '%s', by definition '%s'", v, got.c_str(), want.c_str());
    }
}
END_TEST

START_TEST(test_plain_numbers)
{
    ck_assert(ok(param_kind::cycles, "25") == 25);
    ck_assert(ok(param_kind::cycles, "25cycles") == 25);
    ck_assert(ok(param_kind::cycles, "1 cycle") == 1);
    bad(param_kind::cycles, "25ns", "unknown unit 'ns'");
    ck_assert(ok(param_kind::count, "4") == 4);
    ck_assert(ok(param_kind::count, "-4") == -4);  // the range check says no, not the parser
    ck_assert(ok(param_kind::count, "9007199254740992") == 9007199254740992.0);
    // Beyond any range: parsed as infinite, so that the range check reports it.
    ck_assert(std::isinf(ok(param_kind::count, "1e400")));
    ck_assert(ok(param_kind::bytes, "99999999999999999999999999999999999999KiB") > 1e40);
    bad(param_kind::count, "4x", "no unit expected");
    bad(param_kind::count, "2.5", "whole number");
    ck_assert(ok(param_kind::ratio, "0.25") == 0.25);
    ck_assert(ok(param_kind::ratio, "25%") == 0.25);
    ck_assert(ok(param_kind::ratio, "1e-3") == 1e-3);
    bad(param_kind::ratio, "abc", "not a number");
    bad(param_kind::ratio, "0.5x", "real number");
}
END_TEST

START_TEST(test_boolean_and_choice)
{
    for (const char* t : {"true", "yes", "on", "1", "TRUE", "Yes"})
        ck_assert(ok(param_kind::boolean, t) == 1);
    for (const char* f : {"false", "no", "off", "0", "False"})
        ck_assert(ok(param_kind::boolean, f) == 0);
    bad(param_kind::boolean, "maybe", "true/false, yes/no, on/off or 1/0");
    param_desc d{
        "replacement", param_kind::choice, "random|round_robin|lru", 0, 0, 2, "", 0, models::param_storage::u32};
    double v = -1;
    std::string err;
    ck_assert(sim::units_parse(d, "lru", &v, &err));
    ck_assert(v == 2);
    ck_assert(!sim::units_parse(d, "fifo", &v, &err));
    CK_STR_EQ(err.c_str(), "'fifo' is not one of: random, round_robin, lru");
    CK_STR_EQ(sim::units_format(d, 1).c_str(), "round_robin");
}
END_TEST

START_TEST(test_format)
{
    CK_STR_EQ(units_format_kind(param_kind::bytes, 32768).c_str(), "32KiB");
    CK_STR_EQ(units_format_kind(param_kind::bytes, 100e6).c_str(), "100MB");
    CK_STR_EQ(units_format_kind(param_kind::bytes, 1536).c_str(), "1536B");
    CK_STR_EQ(units_format_kind(param_kind::bytes, 2048000).c_str(), "2000KiB");
    CK_STR_EQ(units_format_kind(param_kind::bytes, 1u << 30).c_str(), "1GiB");
    CK_STR_EQ(units_format_kind(param_kind::bytes, 0).c_str(), "0B");
    CK_STR_EQ(units_format_kind(param_kind::hz, 996e6).c_str(), "996MHz");
    CK_STR_EQ(units_format_kind(param_kind::hz, 1e9).c_str(), "1GHz");
    CK_STR_EQ(units_format_kind(param_kind::hz, 996.5e6).c_str(), "996.5MHz");
    CK_STR_EQ(units_format_kind(param_kind::bps, 100e6).c_str(), "100Mbps");
    CK_STR_EQ(units_format_kind(param_kind::time, 1e9).c_str(), "1ms");
    CK_STR_EQ(units_format_kind(param_kind::time, 21280000).c_str(), "21.28us");
    CK_STR_EQ(units_format_kind(param_kind::time, 1004).c_str(), "1.004ns");
    CK_STR_EQ(units_format_kind(param_kind::time, 7).c_str(), "7ps");
    CK_STR_EQ(units_format_kind(param_kind::time, 0).c_str(), "0s");
    CK_STR_EQ(units_format_kind(param_kind::boolean, 1).c_str(), "true");
    CK_STR_EQ(units_format_kind(param_kind::ratio, 0.25).c_str(), "0.25");
    CK_STR_EQ(units_format_kind(param_kind::ratio, 100).c_str(), "100");
    CK_STR_EQ(units_format_kind(param_kind::count, 9007199254740992.0).c_str(), "9007199254740992");
}
END_TEST

// Addresses: their usual notation in and out, integers still accepted.
START_TEST(test_addresses)
{
    ck_assert(ok(param_kind::mac, "02:00:00:00:00:01") == 0x020000000001ull);
    ck_assert(ok(param_kind::mac, "01-00-5E-00-00-01") == 0x01005E000001ull);
    ck_assert(ok(param_kind::mac, "1:2:3:a:b:FF") == 0x0102030A0BFFull);
    ck_assert(ok(param_kind::mac, "0x020000000001") == 0x020000000001ull);
    ck_assert(ok(param_kind::mac, "2199023255553") == 0x020000000001ull);
    bad(param_kind::mac, "02:00:00:00:00", "is not a MAC address");
    bad(param_kind::mac, "02:00:00:00:00:01:02", "is not a MAC address");
    bad(param_kind::mac, "02:00-00:00:00:01", "is not a MAC address");
    bad(param_kind::mac, "002:00:00:00:00:01", "is not a MAC address");
    bad(param_kind::mac, "02:00:00:00:00:0g", "is not a MAC address");
    bad(param_kind::mac, "1.5", "is not a whole number");
    ck_assert(ok(param_kind::ipv4, "239.0.0.1") == 4009754625.0);
    ck_assert(ok(param_kind::ipv4, "4009754625") == 4009754625.0);
    ck_assert(ok(param_kind::ipv4, "0xEF000001") == 4009754625.0);
    bad(param_kind::ipv4, "239.0.0", "is not an IPv4 address");
    bad(param_kind::ipv4, "256.0.0.1", "is not an IPv4 address");
    bad(param_kind::ipv4, "1.2.3.4.5", "is not an IPv4 address");
    bad(param_kind::ipv4, "1.2.3.4 ms", "is not an IPv4 address");
    CK_STR_EQ(units_format_kind(param_kind::mac, (double)0x01005E000001ull).c_str(), "01:00:5e:00:00:01");
    CK_STR_EQ(units_format_kind(param_kind::ipv4, 4009754625.0).c_str(), "239.0.0.1");
    CK_STR_EQ(units_format_kind(param_kind::ipv4, 0).c_str(), "0.0.0.0");
}
END_TEST

// parse(format(v)) == v for the default, min and max of every registered parameter.
START_TEST(test_round_trip_all_tables)
{
    sim::units_context ctx;
    ctx.cpu_hz = 996e6;
    for (const auto& g : sim::registry_groups()) {
        if (!g.table)
            continue;
        for (const auto& d : *g.table)
            for (double v : {d.def, d.min, d.max}) {
                const std::string t = sim::units_format(d, v);
                double back = -1;
                std::string err;
                ck_assert_msg(sim::units_parse(d, t, &back, &err, ctx), "%s.%s: '%s' does not parse: %s", g.name, d.key,
                              t.c_str(), err.c_str());
                ck_assert_msg(back == v, "%s.%s: %.17g -> '%s' -> %.17g", g.name, d.key, v, t.c_str(), back);
            }
    }
}
END_TEST

Suite* suite_units(void)
{
    Suite* s = suite_create("units");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_test(tc, test_bytes);
    tcase_add_test(tc, test_rates);
    tcase_add_test(tc, test_time);
    tcase_add_test(tc, test_plain_numbers);
    tcase_add_test(tc, test_shortest_number);
    tcase_add_test(tc, test_boolean_and_choice);
    tcase_add_test(tc, test_format);
    tcase_add_test(tc, test_addresses);
    tcase_add_test(tc, test_round_trip_all_tables);
    suite_add_tcase(s, tc);
    return s;
}
