// sim/cli/regress_baseline.cc: reading, checking and writing the baseline
// files of fecsim regress.
#include "sim/cli/regress_baseline.h"
#include <cstring>
#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/config/text.h"
#include "sim/results/results.h"

namespace sim {

static const char* const k_baseline_format = "fecsim-regress-baseline-1";

std::map<std::string, std::string> scenario_identity(const resolved_scenario& r)
{
    std::map<std::string, std::string> m;
    for (const auto& g : registry_groups())
        for (const auto& k : g.keys(false)) {
            const std::string name = std::string(g.name) + "." + k;
            if (std::string(g.name) == "driver" || name == "scenario.description")
                continue;
            std::string v = scenario_value(r, g, k);
            const string_key* sk = g.find_string(k);
            if (sk && (sk->kind == str_kind::path || sk->kind == str_kind::path_list) && !v.empty())
                v = base_name(v);
            m[name] = v;
        }
    return m;
}

std::map<std::string, std::string> driver_keys(const resolved_scenario& r)
{
    std::map<std::string, std::string> m;
    const group_entry* g = registry_find("driver");
    for (const auto& k : g->keys(false))
        if (k != "source" && k != "patches")
            m["driver." + k] = scenario_value(r, *g, k);
    return m;
}

std::string read_baseline(const std::string& path, scenario_job* j)
{
    std::shared_ptr<JsonParser> p(json_parser_new(), g_object_unref);
    GError* e = nullptr;
    if (!json_parser_load_from_file(p.get(), path.c_str(), &e)) {
        std::string why = e->message;
        g_error_free(e);
        return why;
    }
    JsonNode* root = json_parser_get_root(p.get());
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        return "not a fecsim baseline (no JSON object)";
    JsonObject* o = json_node_get_object(root);
    const char* fmt = json_object_get_string_member_with_default(o, "format", "");
    if (std::strcmp(fmt, k_baseline_format) != 0)
        return std::string("not a fecsim baseline (format '") + fmt + "', expected '" + k_baseline_format + "')";
    if (!json_object_has_member(o, "summary") || !JSON_NODE_HOLDS_OBJECT(json_object_get_member(o, "summary")) ||
        !json_object_has_member(o, "scenario_keys") ||
        !JSON_NODE_HOLDS_OBJECT(json_object_get_member(o, "scenario_keys")))
        return "not a fecsim baseline (no summary or scenario_keys)";
    j->baseline = p;
    j->base_summary = json_object_get_object_member(o, "summary");
    return "";
}

std::vector<std::string> identity_diff(const scenario_job& j, std::vector<std::string>* added_removed)
{
    std::vector<std::string> d;
    JsonObject* o = json_node_get_object(json_parser_get_root(j.baseline.get()));
    JsonObject* keys = json_object_get_object_member(o, "scenario_keys");
    for (const auto& [k, v] : j.identity) {
        if (!json_object_has_member(keys, k.c_str())) {
            added_removed->push_back(k + " (new)");
            continue;
        }
        const char* was = json_object_get_string_member_with_default(keys, k.c_str(), "");
        if (v != was)
            d.push_back(k + ": " + was + " in the baseline, " + v + " now");
    }
    GList* members = json_object_get_members(keys);
    for (GList* l = members; l; l = l->next)
        if (!j.identity.count((const char*)l->data))
            added_removed->push_back(std::string((const char*)l->data) + " (gone)");
    g_list_free(members);
    return d;
}

std::vector<std::string> driver_diff(const scenario_job& j)
{
    std::vector<std::string> d;
    JsonObject* o = json_node_get_object(json_parser_get_root(j.baseline.get()));
    JsonNode* drv = json_object_get_member(o, "driver");
    if (!drv || !JSON_NODE_HOLDS_OBJECT(drv))
        return d;
    JsonNode* keys = json_object_get_member(json_node_get_object(drv), "keys");
    if (!keys || !JSON_NODE_HOLDS_OBJECT(keys))
        return d;
    JsonObject* ko = json_node_get_object(keys);
    for (const auto& [k, v] : j.driver) {
        const char* was = json_object_get_string_member_with_default(ko, k.c_str(), nullptr);
        if (was && v != was)
            d.push_back(k + ": " + was + " -> " + v);
    }
    return d;
}

std::string baseline_text(const scenario_job& j, const std::string& summary_path, const regress_report& rep,
                          std::string* err)
{
    JsonParser* p = json_parser_new();
    GError* e = nullptr;
    if (!json_parser_load_from_file(p, summary_path.c_str(), &e)) {
        *err = summary_path + ": " + e->message;
        g_error_free(e);
        g_object_unref(p);
        return "";
    }
    JsonNode* summary = json_node_copy(json_parser_get_root(p));
    g_object_unref(p);
    JsonObject* so = json_node_get_object(summary);
    // Not part of what the driver did: wall-clock data, ids, paths.
    for (const char* k : {"wall_time_s", "realtime_factor", "run_id", "config_hash", "results_dir", "patches"})
        if (json_object_has_member(so, k))
            json_object_remove_member(so, k);
    JsonObject* o = json_object_new();
    json_object_set_string_member(o, "format", k_baseline_format);
    json_object_set_string_member(o, "scenario", j.id.c_str());
    json_object_set_string_member(o, "description", j.description.c_str());
    json_object_set_string_member(o, "scenario_file", base_name(j.file).c_str());
    json_object_set_string_member(o, "fecsim_version", PACKAGE_VERSION);
    JsonObject* drv = json_object_new();
    json_object_set_string_member(drv, "source", rep.driver.empty() ? "drivers/fec" : base_name(rep.driver).c_str());
    JsonArray* pa = json_array_new();
    for (const auto& x : rep.patches)
        json_array_add_string_element(pa, base_name(x).c_str());
    json_object_set_array_member(drv, "patches", pa);
    JsonObject* dk = json_object_new();
    for (const auto& [k, v] : j.driver)
        json_object_set_string_member(dk, k.c_str(), v.c_str());
    json_object_set_object_member(drv, "keys", dk);
    json_object_set_object_member(o, "driver", drv);
    JsonObject* keys = json_object_new();
    for (const auto& [k, v] : j.identity)
        json_object_set_string_member(keys, k.c_str(), v.c_str());
    json_object_set_object_member(o, "scenario_keys", keys);
    json_object_set_member(o, "summary", summary);
    return json_object_text(o);
}

} // namespace sim
