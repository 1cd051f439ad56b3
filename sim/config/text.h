// sim/config/text.h: small text and path-name helpers shared by the scenario
// loader, the result writers and the commands (header only; GLib alone).
#pragma once
#include <cstdlib>
#include <glib.h>
#include <string>
#include <vector>

namespace sim {

// s without leading and trailing ASCII white space (g_ascii_isspace: the
// same in every locale).
inline std::string trim(const std::string& s)
{
    size_t a = 0, b = s.size();
    while (a < b && g_ascii_isspace(s[a]))
        a++;
    while (b > a && g_ascii_isspace(s[b - 1]))
        b--;
    return s.substr(a, b - a);
}

// The fields of s between separators sep, each trimmed; "" gives one
// empty field ("a,,b": three fields, the middle one empty).
inline std::vector<std::string> split_trimmed(const std::string& s, char sep)
{
    std::vector<std::string> v;
    size_t pos = 0;
    for (;;) {
        const size_t c = s.find(sep, pos);
        v.push_back(trim(s.substr(pos, c == std::string::npos ? std::string::npos : c - pos)));
        if (c == std::string::npos)
            return v;
        pos = c + 1;
    }
}

// The canonical absolute path of an existing file or directory (realpath);
// p itself, unchanged, when it cannot be resolved.
inline std::string abs_path(const std::string& p)
{
    char* rp = realpath(p.c_str(), nullptr);
    std::string r = rp ? rp : p;
    std::free(rp);
    return r;
}

// The last component of a path, and the path without it (g_path_get_basename,
// g_path_get_dirname: "." for a bare name).
inline std::string base_name(const std::string& p)
{
    gchar* b = g_path_get_basename(p.c_str());
    std::string r = b;
    g_free(b);
    return r;
}

inline std::string dir_name(const std::string& p)
{
    gchar* d = g_path_get_dirname(p.c_str());
    std::string r = d;
    g_free(d);
    return r;
}

} // namespace sim
