// sim/config/scenario.cc: the raw layer's entry points that are not files
// (-o and other options), diagnostics, and the built-in scenario files.
#include "sim/config/scenario.h"
#include <glib.h>
#include "sim/builtin_scenarios.h"
#include "sim/config/scenario_text.h"

namespace sim {

using namespace loader;

std::string origin::str() const
{
    const std::string f = message_text(file, k_message_max_path_chars);
    if (line)
        return f + ":" + std::to_string(line);
    if (!arg.empty())
        return f + " " + message_text(arg);
    return f;
}

namespace {

// Code points that are escaped although they are valid UTF-8: C1 controls,
// line and paragraph separators, bidirectional embeddings and isolates.
bool escaped_code_point(gunichar c)
{
    return (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f || c == 0x061c;
}

std::string hex_byte(unsigned char c)
{
    static const char digits[] = "0123456789abcdef";
    return std::string("\\x") + digits[c >> 4] + digits[c & 15];
}

// The escape of ASCII control character c ("" if c is not one).
std::string control_escape(unsigned char c)
{
    switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: return c < 0x20 || c == 0x7f ? hex_byte(c) : std::string();
    }
}

} // namespace

std::string message_text(const std::string& s, size_t max_chars)
{
    std::string r;
    size_t chars = 0, i = 0;
    while (i < s.size()) {
        if (chars == max_chars)
            return r + "\xe2\x80\xa6";  // U+2026 HORIZONTAL ELLIPSIS
        const unsigned char c = (unsigned char)s[i];
        chars++;
        if (c < 0x80) {
            const std::string e = control_escape(c);
            r += e.empty() ? std::string(1, (char)c) : e;
            i++;
            continue;
        }
        const gunichar u = g_utf8_get_char_validated(s.data() + i, (gssize)(s.size() - i));
        if (u == (gunichar)-1 || u == (gunichar)-2) {  // not UTF-8 (or cut short): one byte
            r += hex_byte(c);
            i++;
            continue;
        }
        const size_t n = (size_t)(g_utf8_next_char(s.data() + i) - (s.data() + i));
        if (escaped_code_point(u)) {
            char buf[16];
            g_snprintf(buf, sizeof buf, "\\u%04x", (unsigned)u);
            r += buf;
        } else {
            r.append(s, i, n);
        }
        i += n;
    }
    return r;
}

std::string message_quote(const std::string& s, size_t max_chars) { return "'" + message_text(s, max_chars) + "'"; }

std::string message_path(const std::string& path) { return message_quote(path, k_message_max_path_chars); }

std::string diag(const origin& o, const std::string& message)
{
    // The parts are escaped where they are quoted; this keeps the line whole
    // whatever a message was built from.
    std::string m;
    for (char c : message) {
        const std::string e = control_escape((unsigned char)c);
        m += e.empty() ? std::string(1, c) : e;
    }
    const std::string w = o.str();
    if (w.empty())
        return "error: " + m;
    if (o.line)
        return w + ": error: " + m;
    return "error: " + w + ": " + m;
}

const char* builtin_scenario(const std::string& name)
{
    for (const auto& b : k_builtin_scenarios)
        if (name == b.name)
            return b.text;
    return nullptr;
}

std::vector<std::string> builtin_scenario_names()
{
    std::vector<std::string> n;
    for (const auto& b : k_builtin_scenarios)
        n.push_back(b.name);
    return n;
}

bool scenario_override(const std::string& spec, raw_scenario* raw, std::string* err)
{
    const size_t eq = spec.find('=');
    const std::string lhs = trim(spec.substr(0, eq == std::string::npos ? spec.size() : eq));
    const size_t dot = lhs.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == lhs.size() ||
        lhs.find_first_of(" \t[]=", 0) != std::string::npos || lhs.find('.', dot + 1) != std::string::npos) {
        *err = "error: -o " + message_text(spec) + ": expected group.key=value, e.g. -o l2.size=512KiB";
        return false;
    }
    if (!g_utf8_validate(spec.c_str(), (gssize)spec.size(), nullptr)) {
        *err = "error: -o " + message_text(lhs) + "=...: the value is not valid UTF-8 text";
        return false;
    }
    raw_value rv;
    rv.group = lhs.substr(0, dot);
    rv.key = lhs.substr(dot + 1);
    std::string v = spec.substr(eq + 1);
    size_t a = 0;
    while (a < v.size() && g_ascii_isspace(v[a]))
        a++;
    rv.text = v.substr(a);
    rv.where = origin{"-o", 0, spec, (unsigned)raw->values.size()};
    raw->values.push_back(rv);
    return true;
}

void scenario_set(raw_scenario* raw, const std::string& group, const std::string& key, const std::string& text,
                  const std::string& option, const std::string& arg)
{
    raw_value rv;
    rv.group = group;
    rv.key = key;
    rv.text = text;
    rv.where = origin{option, 0, arg, (unsigned)raw->values.size()};
    rv.append = option == "--patch";
    raw->values.push_back(rv);
}

} // namespace sim
