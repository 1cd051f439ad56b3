#include "sim/config/units.h"
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "sim/config/scenario.h"

namespace sim {

using models::param_desc;
using models::param_kind;

namespace {

struct unit_def {
    const char* name;
    double factor;  // base units per one of these (exact integers here)
};

// Decimal number as mantissa * 10^exp10, parsed from text without rounding.
struct decimal {
    unsigned __int128 mant = 0;
    int exp10 = 0;
    bool neg = false;
    bool lost = false;  // nonzero digits beyond what mant holds were dropped
};

std::string trim(const std::string& s)
{
    size_t a = 0, b = s.size();
    while (a < b && std::isspace((unsigned char)s[a]))
        a++;
    while (b > a && std::isspace((unsigned char)s[b - 1]))
        b--;
    return s.substr(a, b - a);
}

// Parses the numeric prefix of s; *rest gets the remainder (trimmed). Accepts
// [+-]digits[.digits][e[+-]digits] and 0x<hex>. Returns false if s does not
// start with a number or has more significant digits than we can hold.
bool parse_decimal(const std::string& s, decimal* d, std::string* rest)
{
    size_t i = 0;
    *d = decimal();
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        d->neg = s[i++] == '-';
    if (i + 1 < s.size() && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        size_t j = i + 2, n = 0;
        while (j < s.size() && std::isxdigit((unsigned char)s[j])) {
            const char c = (char)std::tolower((unsigned char)s[j]);
            d->mant = d->mant * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
            if (++n > 16)
                return false;
            j++;
        }
        if (!n)
            return false;
        *rest = trim(s.substr(j));
        return true;
    }
    size_t digits = 0, sig = 0;
    bool dot = false;
    for (; i < s.size(); i++) {
        const char c = s[i];
        if (std::isdigit((unsigned char)c)) {
            digits++;
            if (d->mant == 0 && c == '0') {
                if (dot)
                    d->exp10--;
                continue;
            }
            if (++sig > 30) {  // keep the magnitude, drop the digit
                d->lost |= c != '0';
                if (!dot)
                    d->exp10++;
                continue;
            }
            d->mant = d->mant * 10 + (unsigned)(c - '0');
            if (dot)
                d->exp10--;
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    if (!digits)
        return false;
    // Exponent: only if followed by digits (so "1e" or "1exa" stays a suffix).
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        bool eneg = false;
        if (j < s.size() && (s[j] == '+' || s[j] == '-'))
            eneg = s[j++] == '-';
        if (j < s.size() && std::isdigit((unsigned char)s[j])) {
            int e = 0;
            while (j < s.size() && std::isdigit((unsigned char)s[j])) {
                e = e * 10 + (s[j] - '0');
                if (e > 400)
                    return false;
                j++;
            }
            d->exp10 += eneg ? -e : e;
            i = j;
        }
    }
    *rest = trim(s.substr(i));
    return true;
}

// value = d * factor. *exact_int is set when the product is a whole number
// (computed exactly); otherwise *out is the nearest double.
bool decimal_times(const decimal& d, double factor, double* out, bool* exact_int)
{
    *exact_int = false;
    // factor is an integer <= 10^15 in every unit table below.
    unsigned __int128 f = (unsigned __int128)(uint64_t)factor;
    unsigned __int128 m = d.mant;
    int e = d.exp10;
    const unsigned __int128 limit = (unsigned __int128)1 << 100;
    while (e > 0 && m < limit) {
        m *= 10;
        e--;
    }
    if (e > 0 || (m && f > limit / m)) {
        *out = HUGE_VAL;  // beyond any range: let the range check say so
        *exact_int = true;
        if (d.neg)
            *out = -*out;
        return true;
    }
    unsigned __int128 p = m * f;
    unsigned __int128 div = 1;
    for (int k = e; k < 0; k++) {
        if (div > limit) {
            div = 0;
            break;
        }
        div *= 10;
    }
    if (div && p % div == 0 && !d.lost) {
        p /= div;
        *out = (double)p;
        *exact_int = true;
    } else {
        // Not whole: the double nearest to p * 10^e, by strtod of its decimal
        // text (arithmetic in doubles would round more than once, and the
        // shortest text units_format writes would not read back as the value).
        char digits[48];
        size_t n = sizeof digits;
        digits[--n] = 0;
        do {
            digits[--n] = (char)('0' + (int)(p % 10));
            p /= 10;
        } while (p);
        const std::string text = std::string(digits + n) + "e" + std::to_string(e);
        *out = std::strtod(text.c_str(), nullptr);
    }
    if (d.neg)
        *out = -*out;
    return true;
}

const unit_def k_bytes_units[] = {
    {"B", 1},           {"kB", 1e3},           {"MB", 1e6},
    {"GB", 1e9},        {"TB", 1e12},          {"KiB", 1024.0},
    {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
};
const unit_def k_hz_units[] = {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
const unit_def k_bps_units[] = {
    {"bps", 1},   {"kbps", 1e3},   {"Mbps", 1e6},   {"Gbps", 1e9},
    {"bit/s", 1}, {"kbit/s", 1e3}, {"Mbit/s", 1e6}, {"Gbit/s", 1e9},
};
const unit_def k_time_units[] = {
    {"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"\xc2\xb5s", 1e6}, {"ms", 1e9}, {"s", 1e12},
};

const unit_def* find_unit(const unit_def* u, size_t n, const std::string& s, bool icase)
{
    for (size_t i = 0; i < n; i++)
        if (icase ? strcasecmp(u[i].name, s.c_str()) == 0 : s == u[i].name)
            return &u[i];
    return nullptr;
}


// v / u with at most 3 decimals, trailing zeros stripped ("21.28").
std::string fmt_scaled(uint64_t v, uint64_t u)
{
    const uint64_t ip = v / u;
    const uint64_t frac = (v % u) * 1000 / u;  // exact by construction of the caller
    char buf[64];
    if (!frac) {
        std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)ip);
    } else {
        std::snprintf(buf, sizeof buf, "%llu.%03llu", (unsigned long long)ip, (unsigned long long)frac);
        size_t n = std::strlen(buf);
        while (buf[n - 1] == '0')
            buf[--n] = 0;
    }
    return buf;
}

// Largest unit in which v (a whole number) has at most 3 decimals and an
// integer part >= 1; units listed from small to large.
std::string fmt_decimal_units(double v, const unit_def* u, size_t n)
{
    if (v < 0 || v != std::floor(v) || v > 1.8e16)
        return shortest_number(v) + u[0].name;
    const uint64_t x = (uint64_t)v;
    if (x == 0)
        return std::string("0") + u[0].name;
    for (size_t i = n; i-- > 0;) {
        const uint64_t f = (uint64_t)u[i].factor;
        if (x >= f && (x * 1000) % f == 0)
            return fmt_scaled(x, f) + u[i].name;
    }
    return std::to_string(x) + u[0].name;
}

std::string fmt_bytes(double v)
{
    if (v < 0 || v != std::floor(v) || v > 1.8e19)
        return shortest_number(v) + "B";
    const uint64_t x = (uint64_t)v;
    if (x == 0)
        return "0B";
    // Among exact whole-number forms, the smallest number wins; binary on ties.
    std::string best = std::to_string(x) + "B";
    uint64_t best_n = x;
    static const int order[] = {8, 7, 6, 5, 4, 3, 2, 1};  // TiB..KiB, then TB..kB
    for (int i : order) {
        const uint64_t f = (uint64_t)k_bytes_units[i].factor;
        if (x % f == 0 && x / f < best_n) {
            best_n = x / f;
            best = std::to_string(best_n) + k_bytes_units[i].name;
        }
    }
    return best;
}

bool integral_kind(param_kind k)
{
    return k == param_kind::bytes || k == param_kind::count || k == param_kind::cycles || k == param_kind::time ||
           k == param_kind::mac || k == param_kind::ipv4;
}

std::string lower(std::string s)
{
    for (auto& c : s)
        c = (char)std::tolower((unsigned char)c);
    return s;
}

// Significant digits of the shortest decimal that reads back as v (1 for
// infinities and NaN).
int shortest_digits(double v)
{
    if (!std::isfinite(v))
        return 1;
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    int d = 0;
    for (const char* c = buf; c < r.ptr && *c != 'e'; c++)
        d += *c >= '0' && *c <= '9';
    return std::max(d, 1);
}

} // namespace

std::string shortest_number(double v)
{
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", v);  // whole numbers without exponent
        return buf;
    }
    // The fewest significant digits p for which %.*g reads back as v. No
    // decimal with fewer digits than std::to_chars's shortest round trip
    // (d) reads back as v, so p starts at d: the same text as counting from
    // 1, with one or two conversions instead of up to 17.
    for (int p = shortest_digits(v); p <= 17; p++) {
        std::snprintf(buf, sizeof buf, "%.*g", p, v);
        if (std::strtod(buf, nullptr) == v)
            break;
    }
    return buf;
}

const char* units_kind_name(param_kind k)
{
    switch (k) {
    case param_kind::bytes: return "bytes";
    case param_kind::count: return "count";
    case param_kind::cycles: return "cycles";
    case param_kind::hz: return "frequency";
    case param_kind::bps: return "bitrate";
    case param_kind::time: return "time";
    case param_kind::ratio: return "real";
    case param_kind::boolean: return "boolean";
    case param_kind::choice: return "choice";
    case param_kind::mac: return "mac";
    case param_kind::ipv4: return "ipv4";
    }
    return "?";
}

const param_kind* units_kinds(size_t* n)
{
    static const param_kind all[] = {param_kind::bytes, param_kind::count,   param_kind::cycles,
                                     param_kind::hz,    param_kind::bps,     param_kind::time,
                                     param_kind::ratio, param_kind::boolean, param_kind::choice,
                                     param_kind::mac,   param_kind::ipv4};
    *n = sizeof all / sizeof all[0];
    return all;
}

const char* units_kind_syntax(param_kind k)
{
    switch (k) {
    case param_kind::bytes:
        return "a whole number of bytes with an optional unit: B, kB, MB, GB, TB (powers of 1000) or "
               "KiB, MiB, GiB, TiB (powers of 1024), e.g. 32KiB";
    case param_kind::count: return "a whole number, e.g. 4";
    case param_kind::cycles: return "a whole number of clock cycles, e.g. 25 or 25cycles";
    case param_kind::hz: return "a frequency: Hz, kHz, MHz or GHz, e.g. 996MHz";
    case param_kind::bps: return "a bit rate: bps, kbps, Mbps or Gbps, e.g. 100Mbps";
    case param_kind::time:
        return "a time with a unit: ps, ns, us, ms, s, or cycles of the CPU clock, e.g. 21us or 1cycle";
    case param_kind::ratio: return "a real number, or a percentage, e.g. 0.25 or 25%";
    case param_kind::boolean: return "true/false, yes/no, on/off or 1/0";
    case param_kind::choice: return "one of the listed names";
    case param_kind::mac:
        return "a MAC address, six hex bytes separated by ':' or '-', e.g. 02:00:00:00:00:01 (or a whole number, "
               "first byte most significant, e.g. 0x020000000001)";
    case param_kind::ipv4:
        return "an IPv4 address, e.g. 239.0.0.1 (or a whole number, first byte most significant, e.g. 0xEF000001)";
    }
    return "";
}

namespace {

// "02:00:00:00:00:01" (or with '-'): six groups of one or two hex digits, one
// separator throughout. False if text is not of that shape.
bool parse_mac_text(const std::string& t, double* out)
{
    const char sep = t.find(':') != std::string::npos ? ':' : '-';
    uint64_t v = 0;
    size_t i = 0;
    for (int g = 0; g < 6; g++) {
        if (g) {
            if (i >= t.size() || t[i] != sep)
                return false;
            i++;
        }
        size_t digits = 0;
        unsigned byte = 0;
        while (i < t.size() && std::isxdigit((unsigned char)t[i]) && digits < 2) {
            byte = byte * 16 + (unsigned)(std::isdigit((unsigned char)t[i]) ? t[i] - '0'
                                                                             : std::tolower((unsigned char)t[i]) - 'a' + 10);
            i++;
            digits++;
        }
        if (!digits)
            return false;
        v = v << 8 | byte;
    }
    if (i != t.size())
        return false;
    *out = (double)v;
    return true;
}

// "239.0.0.1": four decimal groups 0..255. False if text is not of that shape.
bool parse_ipv4_text(const std::string& t, double* out)
{
    uint64_t v = 0;
    size_t i = 0;
    for (int g = 0; g < 4; g++) {
        if (g) {
            if (i >= t.size() || t[i] != '.')
                return false;
            i++;
        }
        size_t digits = 0;
        unsigned byte = 0;
        while (i < t.size() && std::isdigit((unsigned char)t[i]) && digits < 3) {
            byte = byte * 10 + (unsigned)(t[i] - '0');
            i++;
            digits++;
        }
        if (!digits || byte > 255)
            return false;
        v = v << 8 | byte;
    }
    if (i != t.size())
        return false;
    *out = (double)v;
    return true;
}

} // namespace

bool units_parse_kind(param_kind k, const std::string& text_in, double* out, std::string* err, const units_context& ctx)
{
    const std::string text = trim(text_in);
    auto fail = [&](const std::string& why) {
        if (err)
            *err = why;
        return false;
    };
    const std::string q = message_quote(text);
    if (text.empty())
        return fail(std::string("empty value: expected ") + units_kind_syntax(k));

    if (k == param_kind::boolean) {
        const std::string t = lower(text);
        if (t == "true" || t == "yes" || t == "on" || t == "1") {
            *out = 1;
            return true;
        }
        if (t == "false" || t == "no" || t == "off" || t == "0") {
            *out = 0;
            return true;
        }
        return fail(q + " is not a boolean: expected " + units_kind_syntax(k));
    }
    if (k == param_kind::choice)
        return fail("choices need their table row");
    if (k == param_kind::mac || k == param_kind::ipv4) {
        const bool mac = k == param_kind::mac;
        const bool shaped = mac ? text.find_first_of(":-") != std::string::npos : text.find('.') != std::string::npos;
        if (shaped) {
            if (mac ? parse_mac_text(text, out) : parse_ipv4_text(text, out))
                return true;
            return fail(q + " is not " + (mac ? "a MAC address" : "an IPv4 address") + ": expected " +
                        units_kind_syntax(k));
        }
    }

    decimal d;
    std::string suffix;
    if (!parse_decimal(text, &d, &suffix))
        return fail(q + " is not a number: expected " + units_kind_syntax(k));

    double factor = 1;
    bool cycles_of_cpu = false;
    switch (k) {
    case param_kind::bytes: {
        if (suffix.empty())
            break;
        const unit_def* u = find_unit(k_bytes_units, sizeof k_bytes_units / sizeof k_bytes_units[0], suffix, false);
        if (!u) {
            const std::string l = lower(suffix);
            if (l == "k" || l == "kb" || l == "m" || l == "g")
                return fail(q + ": " + message_quote(suffix) +
                            " is ambiguous: write KiB/MiB/GiB (powers of 1024) or "
                            "kB/MB/GB (powers of 1000)");
            if (find_unit(k_bytes_units, sizeof k_bytes_units / sizeof k_bytes_units[0], suffix, true))
                return fail(q + ": unit " + message_quote(suffix) + " has the wrong case: expected " + units_kind_syntax(k));
            return fail(q + ": unknown unit " + message_quote(suffix) + ": expected " + units_kind_syntax(k));
        }
        factor = u->factor;
        break;
    }
    case param_kind::count:
        if (!suffix.empty())
            return fail(q + " is not a whole number (no unit expected)");
        break;
    case param_kind::mac:
    case param_kind::ipv4:
        if (!suffix.empty())
            return fail(q + " is not " + (k == param_kind::mac ? "a MAC address" : "an IPv4 address") +
                        ": expected " + units_kind_syntax(k));
        break;
    case param_kind::cycles:
        if (!suffix.empty() && suffix != "cycle" && suffix != "cycles")
            return fail(q + ": unknown unit " + message_quote(suffix) + ": expected " + units_kind_syntax(k));
        break;
    case param_kind::hz: {
        if (suffix.empty())
            break;
        const unit_def* u = find_unit(k_hz_units, 4, suffix, true);
        if (!u)
            return fail(q + ": unknown unit " + message_quote(suffix) + ": expected " + units_kind_syntax(k));
        factor = u->factor;
        break;
    }
    case param_kind::bps: {
        if (suffix.empty())
            break;
        const unit_def* u = find_unit(k_bps_units, sizeof k_bps_units / sizeof k_bps_units[0], suffix, false);
        if (!u) {
            if (lower(suffix).find("bps") != std::string::npos || lower(suffix).find("bit") != std::string::npos)
                return fail(q + ": unit " + message_quote(suffix) + " has the wrong case (B would mean bytes): expected " +
                            units_kind_syntax(k));
            return fail(q + ": unknown unit " + message_quote(suffix) + ": expected " + units_kind_syntax(k));
        }
        factor = u->factor;
        break;
    }
    case param_kind::time: {
        if (suffix.empty())
            return fail(q + " needs a unit: expected " + std::string(units_kind_syntax(k)));
        if (suffix == "cycle" || suffix == "cycles") {
            cycles_of_cpu = true;
            break;
        }
        const unit_def* u = find_unit(k_time_units, sizeof k_time_units / sizeof k_time_units[0], suffix, false);
        if (!u)
            return fail(q + ": unknown unit " + message_quote(suffix) + ": expected " + units_kind_syntax(k));
        factor = u->factor;
        break;
    }
    case param_kind::ratio:
        if (suffix == "%")
            factor = 0;  // marker, handled below
        else if (!suffix.empty())
            return fail(q + " is not a real number: expected " + units_kind_syntax(k));
        break;
    default: break;
    }

    double v;
    bool exact = false;
    if (k == param_kind::ratio) {
        // Real numbers: the nearest double of the text (no unit arithmetic needed).
        char* end = nullptr;
        std::string num = text.substr(0, text.size() - suffix.size());
        v = std::strtod(num.c_str(), &end);
        if (factor == 0)
            v /= 100;
        if (!std::isfinite(v))
            return fail(q + " is not a finite number");
        *out = v;
        return true;
    }
    decimal_times(d, factor, &v, &exact);
    if (cycles_of_cpu) {
        if (!exact)
            return fail(q + ": the number of cycles must be whole");
        if (ctx.cpu_hz <= 0)
            return fail(q + ": cycles need the CPU clock, which is not known here; write a time in ps/ns/us/ms/s");
        const double period = std::floor(1e12 / ctx.cpu_hz + 0.5);  // as models::clock_domain
        v = v * period;
        exact = true;
    }
    if (integral_kind(k) && !exact) {
        if (k == param_kind::time)
            return fail(q + " is not a whole number of picoseconds");
        if (k == param_kind::bytes)
            return fail(q + " is not a whole number of bytes");
        return fail(q + " is not a whole number");
    }
    *out = v;
    return true;
}

bool units_parse(const param_desc& d, const std::string& text, double* out, std::string* err, const units_context& ctx)
{
    if (d.kind != param_kind::choice)
        return units_parse_kind(d.kind, text, out, err, ctx);
    const std::string t = trim(text);
    const int i = models::param_choice_index(d, t);
    if (i >= 0) {
        *out = i;
        return true;
    }
    if (err) {
        std::string names;
        for (unsigned k = 0;; k++) {
            const std::string n = models::param_choice_name(d, k);
            if (n.empty())
                break;
            names += (k ? ", " : "") + n;
        }
        *err = message_quote(t) + " is not one of: " + names;
    }
    return false;
}

std::string units_format_kind(param_kind k, double v)
{
    switch (k) {
    case param_kind::bytes: return fmt_bytes(v);
    case param_kind::count:
    case param_kind::cycles: {
        if (v == std::floor(v) && std::fabs(v) < 1e19) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.0f", v);
            return buf;
        }
        return shortest_number(v);
    }
    case param_kind::hz: return fmt_decimal_units(v, k_hz_units, 4);
    case param_kind::bps: return fmt_decimal_units(v, k_bps_units, 4);
    case param_kind::time: {
        static const unit_def t[] = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
        if (v == 0)
            return "0s";
        return fmt_decimal_units(v, t, 5);
    }
    case param_kind::ratio: return shortest_number(v);
    case param_kind::boolean: return v != 0 ? "true" : "false";
    case param_kind::choice: return shortest_number(v);
    case param_kind::mac:
    case param_kind::ipv4: {
        if (!(v >= 0 && v == std::floor(v) && v < (k == param_kind::mac ? 281474976710656.0 : 4294967296.0)))
            return shortest_number(v);
        const uint64_t a = (uint64_t)v;
        char buf[32];
        if (k == param_kind::mac)
            std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", (unsigned)(a >> 40) & 255,
                          (unsigned)(a >> 32) & 255, (unsigned)(a >> 24) & 255, (unsigned)(a >> 16) & 255,
                          (unsigned)(a >> 8) & 255, (unsigned)a & 255);
        else
            std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", (unsigned)(a >> 24) & 255, (unsigned)(a >> 16) & 255,
                          (unsigned)(a >> 8) & 255, (unsigned)a & 255);
        return buf;
    }
    }
    return shortest_number(v);
}

std::string units_format(const param_desc& d, double v)
{
    if (d.kind == param_kind::choice) {
        const std::string n = models::param_choice_name(d, (unsigned)v);
        return n.empty() ? shortest_number(v) : n;
    }
    return units_format_kind(d.kind, v);
}

std::string units_display_unit(param_kind k, double max_abs, double* scale)
{
    struct du {
        const char* name;
        double f;
    };
    static const du bytes[] = {{"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
    static const du hz[] = {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
    static const du bps[] = {{"bit/s", 1}, {"kbit/s", 1e3}, {"Mbit/s", 1e6}, {"Gbit/s", 1e9}};
    static const du time[] = {{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};
    struct by_kind {
        param_kind kind;
        const du* t;
        size_t n;
    };
    static const by_kind kinds[] = {{param_kind::bytes, bytes, 4},
                                    {param_kind::hz, hz, 4},
                                    {param_kind::bps, bps, 4},
                                    {param_kind::time, time, 5}};
    const du* t = nullptr;
    size_t n = 0;
    for (const auto& b : kinds)
        if (b.kind == k) {
            t = b.t;
            n = b.n;
        }
    if (!t) {
        *scale = 1;
        return k == param_kind::cycles ? "cycles" : "";
    }
    size_t best = 0;
    for (size_t i = 0; i < n; i++)
        if (max_abs >= t[i].f)
            best = i;
    *scale = t[best].f;
    return t[best].name;
}

} // namespace sim
