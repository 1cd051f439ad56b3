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
    if (line)
        return file + ":" + std::to_string(line);
    if (!arg.empty())
        return file + " " + arg;
    return file;
}

std::string diag(const origin& o, const std::string& message)
{
    const std::string w = o.str();
    if (w.empty())
        return "error: " + message;
    if (o.line)
        return w + ": error: " + message;
    return "error: " + w + ": " + message;
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
        *err = "error: -o " + spec + ": expected group.key=value, e.g. -o l2.size=512KiB";
        return false;
    }
    if (!g_utf8_validate(spec.c_str(), (gssize)spec.size(), nullptr)) {
        *err = "error: -o " + lhs + "=...: the value is not valid UTF-8 text";
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
