#include "sim/config/scenario_text.h"
#include <cstring>
#include <glib.h>
#include <sstream>

namespace sim::loader {

bool starts_with(const std::string& s, const char* p) { return s.compare(0, std::strlen(p), p) == 0; }

std::string normalize(const std::string& p)
{
    const bool abs = !p.empty() && p[0] == '/';
    std::vector<std::string> out;
    std::stringstream ss(p);
    std::string part;
    while (std::getline(ss, part, '/')) {
        if (part.empty() || part == ".")
            continue;
        if (part == ".." && !out.empty() && out.back() != "..") {
            out.pop_back();
            continue;
        }
        if (part == ".." && abs)
            continue;
        out.push_back(part);
    }
    std::string r = abs ? "/" : "";
    for (size_t i = 0; i < out.size(); i++)
        r += (i ? "/" : "") + out[i];
    return r.empty() ? "." : r;
}

std::string dir_of(const std::string& name)
{
    const size_t s = name.rfind('/');
    if (starts_with(name, k_builtin)) {
        const std::string rel = name.substr(sizeof k_builtin - 1);
        const size_t r = rel.rfind('/');
        return r == std::string::npos ? "" : rel.substr(0, r);
    }
    if (s == std::string::npos)
        return ".";
    return s == 0 ? "/" : name.substr(0, s);
}

std::string relative_to(const std::string& from, const std::string& rel)
{
    if (starts_with(from, k_builtin)) {
        const std::string d = dir_of(from);
        return k_builtin + normalize(d.empty() ? rel : d + "/" + rel);
    }
    if (!rel.empty() && rel[0] == '/')
        return normalize(rel);
    if (from.empty())
        return normalize(rel);
    const std::string d = dir_of(from);
    return normalize(d == "." ? rel : d + "/" + rel);
}

std::string decode_string(const std::string& raw)
{
    GKeyFile* kf = g_key_file_new();
    g_key_file_set_value(kf, "g", "k", raw.c_str());
    gchar* s = g_key_file_get_string(kf, "g", "k", nullptr);
    std::string r = s ? s : raw;
    g_free(s);
    g_key_file_free(kf);
    return r;
}

std::vector<std::string> decode_list(const std::string& raw)
{
    std::vector<std::string> out;
    GKeyFile* kf = g_key_file_new();
    g_key_file_set_value(kf, "g", "k", raw.c_str());
    gsize n = 0;
    gchar** l = g_key_file_get_string_list(kf, "g", "k", &n, nullptr);
    for (gsize i = 0; l && i < n; i++) {
        const std::string t = trim(l[i]);
        if (!t.empty())
            out.push_back(t);
    }
    g_strfreev(l);
    g_key_file_free(kf);
    return out;
}

std::string gk(const group_entry& g, const std::string& key) { return std::string(g.name) + "." + key; }

} // namespace sim::loader
