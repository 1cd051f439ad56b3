// sim/results/stats_files.cc: the statistics files of a run directory (stats_files.h).
#include "sim/results/stats_files.h"
#include <cmath>
#include <json-glib/json-glib.h>
#include <map>
#include <sstream>
#include "sim/config/scenario.h"
#include "sim/results/json.h"

namespace sim {

static void split_name(const std::string& full, std::string* inst, std::string* leaf)
{
    const size_t d = full.rfind('.');
    *inst = d == std::string::npos ? "" : full.substr(0, d);
    *leaf = d == std::string::npos ? full : full.substr(d + 1);
}

std::vector<derived_entry> stats_derive(const std::vector<stat_entry>& raw)
{
    std::map<std::string, const stat_entry*> by_name;
    for (const auto& e : raw)
        by_name[e.name] = &e;
    std::vector<derived_entry> out;
    for (const auto& e : raw) {
        std::string inst, leaf;
        split_name(e.name, &inst, &leaf);
        if (leaf.size() < 4 || leaf.compare(leaf.size() - 4, 4, "hits") != 0)
            continue;
        const std::string p = leaf.substr(0, leaf.size() - 4);
        const std::string miss = (inst.empty() ? "" : inst + ".") + p + "misses";
        auto it = by_name.find(miss);
        if (it == by_name.end())
            continue;
        const double h = (double)e.value, m = (double)it->second->value;
        derived_entry d;
        d.name = (inst.empty() ? "" : inst + ".") + p + "hit_rate";
        d.value = h + m > 0 ? h / (h + m) : NAN;
        d.desc = p + "hits / (" + p + "hits + " + p + "misses)";
        d.unit = "ratio";
        out.push_back(d);
    }
    return out;
}

// Objects nested by the dots of the instance path.
static JsonObject* nested(JsonObject* root, const std::string& inst)
{
    JsonObject* o = root;
    std::stringstream ss(inst);
    std::string part;
    while (std::getline(ss, part, '.')) {
        if (part.empty())
            continue;
        if (!json_object_has_member(o, part.c_str()))
            json_object_set_object_member(o, part.c_str(), json_object_new());
        o = json_object_get_object_member(o, part.c_str());
    }
    return o;
}

std::string stats_json(const resolved_scenario& r, const std::vector<stat_entry>& raw,
                       const std::vector<derived_entry>& derived, const std::string& stopped_by)
{
    JsonObject* root = json_object_new();
    json_object_set_string_member(root, "format", "fecsim-stats-1");
    json_object_set_string_member(root, "scenario", r.cfg.scenario.id.c_str());
    json_object_set_int_member(root, "seed", (gint64)r.cfg.scenario.seed);
    json_object_set_int_member(root, "warmup_ps", (gint64)r.cfg.scenario.warmup_ps);
    json_object_set_int_member(root, "duration_ps", (gint64)r.cfg.scenario.duration_ps);
    JsonObject* counters = json_object_new();
    JsonObject* der = json_object_new();
    JsonObject* info = json_object_new();
    auto add_info = [&](const std::string& name, const std::string& desc, const std::string& unit) {
        JsonObject* i = json_object_new();
        json_object_set_string_member(i, "description", desc.c_str());
        json_object_set_string_member(i, "unit", unit.c_str());
        json_object_set_object_member(info, name.c_str(), i);
    };
    for (const auto& e : raw) {
        std::string inst, leaf;
        split_name(e.name, &inst, &leaf);
        json_object_set_int_member(nested(counters, inst), leaf.c_str(), (gint64)e.value);
        add_info(e.name, e.desc, e.unit);
    }
    for (const auto& d : derived) {
        std::string inst, leaf;
        split_name(d.name, &inst, &leaf);
        if (std::isnan(d.value))
            json_object_set_null_member(nested(der, inst), leaf.c_str());
        else
            json_object_set_double_member(nested(der, inst), leaf.c_str(), d.value);
        add_info(d.name, d.desc, d.unit);
    }
    json_object_set_object_member(root, "counters", counters);
    json_object_set_object_member(root, "derived", der);
    json_object_set_object_member(root, "info", info);
    if (!stopped_by.empty()) {
        json_object_set_boolean_member(root, "incomplete", true);
        json_object_set_string_member(root, "stopped_by", stopped_by.c_str());
    }
    return json_object_text(root);
}

std::string stats_txt(const resolved_scenario& r, const std::vector<stat_entry>& raw,
                      const std::vector<derived_entry>& derived)
{
    std::ostringstream os;
    os << "# fecsim statistics: scenario " << r.cfg.scenario.id << ", seed " << r.cfg.scenario.seed << ", measured "
       << number_text((double)r.cfg.scenario.duration_ps / 1e12) << " s after "
       << number_text((double)r.cfg.scenario.warmup_ps / 1e12) << " s of warm-up\n";
    size_t w = 0;
    for (const auto& e : raw)
        w = std::max(w, e.name.size());
    for (const auto& d : derived)
        w = std::max(w, d.name.size());
    for (const auto& e : raw) {
        os << e.name << std::string(w + 2 - e.name.size(), ' ') << e.value << " # " << e.desc;
        if (!e.unit.empty())
            os << " (" << e.unit << ")";
        os << "\n";
    }
    for (const auto& d : derived)
        os << d.name << std::string(w + 2 - d.name.size(), ' ') << number_text(d.value) << " # " << d.desc << " ("
           << d.unit << ")\n";
    return os.str();
}

std::string series_csv(const std::vector<std::string>& cols, const std::vector<std::vector<double>>& rows)
{
    if (cols.empty())
        return "";
    std::string s;
    for (size_t i = 0; i < cols.size(); i++)
        s += (i ? "," : "") + cols[i];
    s += "\n";
    for (const auto& r : rows) {
        for (size_t i = 0; i < r.size(); i++)
            s += (i ? "," : "") + number_text(r[i]);
        s += "\n";
    }
    return s;
}

} // namespace sim
