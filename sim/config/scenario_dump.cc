// sim/config/scenario_dump.cc: the resolved scenario as text: formatted
// values, the canonical key=value list and its hash (the run id), and the
// commented .ini dump (scenario.resolved.ini).
#include <cstring>
#include <glib.h>
#include "sim/config/scenario.h"
#include "sim/config/scenario_text.h"
#include "sim/config/units.h"

namespace sim {

using namespace loader;
using models::param_desc;
using models::param_kind;

std::string scenario_value(const resolved_scenario& r, const group_entry& g, const std::string& key)
{
    if (const param_desc* d = g.find_param(key)) {
        const void* c = g.config(const_cast<soc_config&>(r.cfg));
        return units_format(*d, models::param_get(c, *d));
    }
    auto it = r.strings.find(gk(g, key));
    if (it == r.strings.end())
        return "";
    std::string s;
    for (size_t i = 0; i < it->second.size(); i++)
        s += (i ? ";" : "") + it->second[i];
    return s;
}

std::string scenario_canonical(const resolved_scenario& r)
{
    std::string s;
    for (const auto& g : registry_groups())
        for (const auto& k : g.keys(false))
            s += gk(g, k) + "=" + scenario_value(r, g, k) + "\n";
    return s;
}

std::string scenario_hash(const resolved_scenario& r)
{
    GChecksum* c = g_checksum_new(G_CHECKSUM_SHA256);
    const std::string canon = scenario_canonical(r);
    g_checksum_update(c, (const guchar*)canon.data(), canon.size());
    // A recorded patch is part of what was asked for: hash its contents too.
    auto it = r.strings.find("driver.patches");
    if (it != r.strings.end())
        for (const auto& p : it->second) {
            gchar* data = nullptr;
            gsize len = 0;
            if (g_file_get_contents(p.c_str(), &data, &len, nullptr)) {
                g_checksum_update(c, (const guchar*)data, len);
                g_free(data);
            }
        }
    const std::string h = g_checksum_get_string(c);
    g_checksum_free(c);
    return h.substr(0, 8);
}

namespace {

std::string range_text(const param_desc& d)
{
    if (d.kind == param_kind::boolean)
        return "true or false";
    if (d.kind == param_kind::choice) {
        std::string s;
        for (unsigned i = 0;; i++) {
            const std::string n = models::param_choice_name(d, i);
            if (n.empty())
                break;
            s += (i ? ", " : "one of ") + n;
        }
        return s;
    }
    return units_format(d, d.min) + " .. " + units_format(d, d.max);
}

} // namespace

std::string scenario_dump(const resolved_scenario& r, const std::string& header)
{
    GKeyFile* kf = g_key_file_new();
    bool first = true;
    for (const auto& g : registry_groups()) {
        auto from = [&](const std::string& k) {
            auto it = r.set_at.find(gk(g, k));
            return it == r.set_at.end() ? std::string("default") : "set by " + it->second.str();
        };
        if (g.table)
            for (const auto& d : *g.table) {
                g_key_file_set_value(kf, g.name, d.key, scenario_value(r, g, d.key).c_str());
                // The unit column is the base unit (values carry their own) except for plain numbers.
                const bool plain = d.kind == param_kind::count || d.kind == param_kind::ratio ||
                                   (d.kind == param_kind::cycles && std::strcmp(d.unit, "cycles") != 0);
                std::string unit = plain && *d.unit ? std::string(" (") + d.unit + ")" : "";
                const std::string cm = std::string(" ") + d.desc + "\n " + units_kind_name(d.kind) + unit + ", " +
                                       range_text(d) + ", default " + units_format(d, d.def) + "; " + from(d.key);
                g_key_file_set_comment(kf, g.name, d.key, cm.c_str(), nullptr);
            }
        for (size_t i = 0; i < g.n_strings; i++) {
            const string_key& s = g.strings[i];
            if (s.load_only)
                continue;
            auto it = r.strings.find(gk(g, s.key));
            const std::vector<std::string> vals = it == r.strings.end() ? std::vector<std::string>() : it->second;
            if (s.kind == str_kind::path_list) {
                std::vector<const gchar*> l;
                for (const auto& v : vals)
                    l.push_back(v.c_str());
                g_key_file_set_string_list(kf, g.name, s.key, l.data(), l.size());
            } else {
                g_key_file_set_string(kf, g.name, s.key, vals.empty() ? "" : vals.front().c_str());
            }
            static const char* kinds[] = {"text", "name", "path", "list of paths"};
            const std::string cm =
                std::string(" ") + s.desc + "\n " + kinds[(int)s.kind] + ", default '" + s.def + "'; " + from(s.key);
            g_key_file_set_comment(kf, g.name, s.key, cm.c_str(), nullptr);
        }
        std::string gc = std::string(" [") + g.name + "] " + g.title;
        if (g.note)
            gc += std::string("\n ") + g.note;
        if (first && !header.empty())
            gc = header + "\n\n" + gc;
        first = false;
        g_key_file_set_comment(kf, g.name, nullptr, gc.c_str(), nullptr);
    }
    gsize len = 0;
    gchar* data = g_key_file_to_data(kf, &len, nullptr);
    std::string s(data, len);
    g_free(data);
    g_key_file_free(kf);
    return s;
}

} // namespace sim
