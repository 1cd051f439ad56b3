// sim/results/sweep.cc: the sweep table: --vary values, points, plan.json and
// the collected sweep.csv / sweep.json.
#include "sim/results/sweep.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <map>
#include <sstream>
#include "sim/config/scenario.h"
#include "sim/config/text.h"
#include "sim/results/results.h"

namespace sim {

using models::param_desc;
using models::param_kind;

bool vary_key::numeric() const { return desc && desc->kind != param_kind::choice && desc->kind != param_kind::boolean; }

// "lo..hi/step" of numeric key d into out (base-unit values and their text).
static bool vary_range(const std::string& key, const param_desc& d, const std::string& rhs, const units_context& ctx,
                       vary_key* out, std::string* err)
{
    const size_t dd = rhs.find("..");
    const size_t sl = rhs.find('/', dd);
    const std::string lo_t = rhs.substr(0, dd);
    const std::string hi_t = rhs.substr(dd + 2, sl == std::string::npos ? std::string::npos : sl - dd - 2);
    std::string step_t = sl == std::string::npos ? "" : rhs.substr(sl + 1);
    double lo, hi, step = 1;
    std::string why;
    if (!units_parse(d, lo_t, &lo, &why, ctx) || !units_parse(d, hi_t, &hi, &why, ctx)) {
        *err = "--vary " + key + ": " + why;
        return false;
    }
    if (step_t.empty() && d.kind != param_kind::count && d.kind != param_kind::cycles &&
        d.kind != param_kind::mac && d.kind != param_kind::ipv4) {
        *err = "--vary " + key + ": '" + rhs + "' needs a step, e.g. " + units_format(d, lo) + ".." +
               units_format(d, hi) + "/" + units_format(d, lo > 0 ? lo : 1);
        return false;
    }
    if (!step_t.empty() && !units_parse(d, step_t, &step, &why, ctx)) {
        *err = "--vary " + key + ": step: " + why;
        return false;
    }
    if (!(step > 0) || hi < lo) {
        *err = "--vary " + key + ": '" + rhs + "' needs lo <= hi and a positive step";
        return false;
    }
    const double n = std::floor((hi - lo) / step * (1 + 1e-12)) + 1;
    if (n > 10000) {
        *err = "--vary " + key + ": '" + rhs + "' gives " + std::to_string((long long)n) + " values (at most 10000)";
        return false;
    }
    for (long long i = 0; i < (long long)n; i++) {
        const double v = lo + (double)i * step;
        out->base.push_back(v);
        out->values.push_back(units_format(d, v));
    }
    return true;
}

// "v1,v2,..." of parameter d, or (d null) of string key sk, into out.
static bool vary_list(const std::string& key, const param_desc* d, const string_key* sk, const std::string& rhs,
                      const units_context& ctx, vary_key* out, std::string* err)
{
    for (const auto& it : split_trimmed(rhs, ',')) {
        if (it.empty()) {
            *err = "--vary " + key + ": empty value in '" + rhs + "'";
            return false;
        }
        if (d) {
            double v;
            std::string why;
            if (!units_parse(*d, it, &v, &why, ctx)) {
                *err = "--vary " + key + ": " + why;
                return false;
            }
            out->base.push_back(v);
            out->values.push_back(units_format(*d, v));
        } else {
            // Paths become absolute, so that job lines work from any directory.
            std::string v = it;
            if (sk->kind == str_kind::path || sk->kind == str_kind::path_list) {
                v.clear();
                std::string part;
                std::istringstream ps(it);
                while (std::getline(ps, part, ';'))
                    v += (v.empty() ? "" : ";") + abs_path(trim(part));
            }
            out->base.push_back(NAN);
            out->values.push_back(v);
        }
    }
    return true;
}

bool vary_parse(const std::string& spec, const units_context& ctx, vary_key* out, std::string* err)
{
    *out = vary_key();
    const size_t eq = spec.find('=');
    const std::string key = trim(spec.substr(0, eq));
    const size_t dot = key.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == key.size()) {
        *err = "--vary '" + spec + "': expected group.key=v1,v2,... or group.key=lo..hi/step";
        return false;
    }
    const std::string gname = key.substr(0, dot), kname = key.substr(dot + 1);
    const group_entry* g = registry_find(gname);
    if (!g) {
        std::vector<std::string> all;
        for (const auto& x : registry_groups())
            all.push_back(x.name);
        const std::string c = closest_name(gname, all, "[", "]");
        *err = "--vary " + key + ": unknown group [" + gname + "]" + (c.empty() ? "" : "; did you mean " + c + "?");
        return false;
    }
    const param_desc* d = g->find_param(kname);
    const string_key* sk = g->find_string(kname);
    if (!d && !sk) {
        if (const moved_key* m = registry_moved(gname, kname)) {
            *err = "--vary " + key + ": " + moved_key_message(*m);
            return false;
        }
        const std::string c = closest_name(kname, g->keys(false));
        *err = "--vary " + key + ": unknown key '" + kname + "' in [" + gname + "]" +
               (c.empty() ? "" : "; did you mean " + c + "?");
        return false;
    }
    if (sk && (sk->load_only || key == "scenario.id")) {
        *err = "--vary " + key + ": this key cannot be varied";
        return false;
    }
    out->name = key;
    out->desc = d;
    const std::string rhs = trim(spec.substr(eq + 1));
    if (rhs.find("..") != std::string::npos) {
        if (!out->numeric()) {
            *err = "--vary " + key + ": a lo..hi/step range needs a numeric key; list the values instead";
            return false;
        }
        if (!vary_range(key, *d, rhs, ctx, out, err))
            return false;
    } else if (!vary_list(key, d, sk, rhs, ctx, out, err)) {
        return false;
    }
    for (size_t i = 0; i < out->values.size(); i++) {
        if (d && !(out->base[i] >= d->min && out->base[i] <= d->max)) {
            *err = "--vary " + key + ": " + out->values[i] + " is out of range: allowed " + units_format(*d, d->min) +
                   " .. " + units_format(*d, d->max);
            return false;
        }
        for (size_t j = 0; j < i; j++)
            if (out->values[j] == out->values[i]) {
                *err = "--vary " + key + ": " + out->values[i] + " is listed twice";
                return false;
            }
    }
    return true;
}

static std::string safe_component(const std::string& s)
{
    std::string r;
    for (char c : s)
        r += (g_ascii_isalnum(c) || c == '.' || c == '_' || c == '-' || c == '=' || c == '+') ? c : '_';
    if (r.size() > 40)
        r.resize(40);
    return r;
}

std::vector<sweep_point> sweep_points(const std::vector<vary_key>& keys)
{
    std::vector<sweep_point> pts;
    size_t total = 1;
    for (const auto& k : keys)
        total *= k.values.size();
    const int width = total > 1000 ? (int)std::to_string(total - 1).size() : 3;
    for (size_t i = 0; i < total; i++) {
        sweep_point p;
        char idx[32];
        std::snprintf(idx, sizeof idx, "p%0*zu", width, i);
        p.name = idx;
        size_t rest = i;
        for (const auto& k : keys) {  // first key fastest
            const std::string& v = k.values[rest % k.values.size()];
            rest /= k.values.size();
            p.overrides.push_back(k.name + "=" + v);
            p.name += "-" + safe_component(k.name + "=" + v);
        }
        pts.push_back(p);
    }
    return pts;
}

// ---------------------------------------------------------------- plan

static JsonNode* plan_node(const std::string& name, const std::string& hash, const std::string& scenario,
                           const std::vector<vary_key>& keys, const std::vector<sweep_point>& pts)
{
    JsonBuilder* b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "format");
    json_builder_add_string_value(b, "fecsim-sweep-1");
    json_builder_set_member_name(b, "sweep");
    json_builder_add_string_value(b, name.c_str());
    json_builder_set_member_name(b, "hash");
    json_builder_add_string_value(b, hash.c_str());
    json_builder_set_member_name(b, "scenario");
    json_builder_add_string_value(b, scenario.c_str());
    json_builder_set_member_name(b, "varied");
    json_builder_begin_array(b);
    for (const auto& k : keys) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "key");
        json_builder_add_string_value(b, k.name.c_str());
        json_builder_set_member_name(b, "kind");
        json_builder_add_string_value(b, k.desc ? units_kind_name(k.desc->kind) : "text");
        json_builder_set_member_name(b, "unit");
        json_builder_add_string_value(b, k.desc && k.desc->kind != param_kind::choice ? k.desc->unit : "");
        json_builder_set_member_name(b, "numeric");
        json_builder_add_boolean_value(b, k.numeric());
        json_builder_set_member_name(b, "values");
        json_builder_begin_array(b);
        for (const auto& v : k.values)
            json_builder_add_string_value(b, v.c_str());
        json_builder_end_array(b);
        json_builder_set_member_name(b, "base");
        json_builder_begin_array(b);
        for (double v : k.base)
            if (std::isnan(v) || !k.numeric())
                json_builder_add_null_value(b);
            else
                json_builder_add_double_value(b, v);
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "points");
    json_builder_begin_array(b);
    for (const auto& p : pts) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, p.name.c_str());
        json_builder_set_member_name(b, "overrides");
        json_builder_begin_array(b);
        for (const auto& o : p.overrides)
            json_builder_add_string_value(b, o.c_str());
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    JsonNode* n = json_builder_get_root(b);
    g_object_unref(b);
    return n;
}

std::string sweep_plan_json(const std::string& name, const std::string& hash, const std::string& scenario,
                            const std::vector<vary_key>& keys, const std::vector<sweep_point>& pts)
{
    JsonNode* n = plan_node(name, hash, scenario, keys, pts);
    std::string s = json_to_string(n, true);
    json_node_unref(n);
    return s;
}

// ---------------------------------------------------------------- collect

static std::string csv_cell(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string r = "\"";
    for (char c : s)
        r += c == '"' ? std::string("\"\"") : std::string(1, c);
    return r + "\"";
}

// The varied keys of a plan: names, value texts, and each value as sweep.csv
// writes it (base units, "%.17g"; the text itself for non-numeric kinds).
struct plan_varied {
    std::vector<std::string> keys;
    std::vector<std::vector<std::string>> vals, base;
};

static plan_varied read_plan_varied(JsonArray* varied)
{
    plan_varied pv;
    for (guint i = 0; i < json_array_get_length(varied); i++) {
        JsonObject* v = json_array_get_object_element(varied, i);
        pv.keys.push_back(json_object_get_string_member(v, "key"));
        std::vector<std::string> vals, bases;
        JsonArray* va = json_object_get_array_member(v, "values");
        JsonArray* ba = json_object_get_array_member(v, "base");
        for (guint j = 0; j < json_array_get_length(va); j++) {
            vals.push_back(json_array_get_string_element(va, j));
            JsonNode* bn = json_array_get_element(ba, j);
            if (JSON_NODE_HOLDS_NULL(bn)) {
                bases.push_back(vals.back());
            } else {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.17g", json_node_get_double(bn));
                bases.push_back(buf);
            }
        }
        pv.vals.push_back(vals);
        pv.base.push_back(bases);
    }
    return pv;
}

// One finished point of sweep.csv.
struct sweep_row {
    std::string name;
    std::vector<std::string> varied_base, varied_text;
    std::vector<std::pair<std::string, std::string>> summary;
};

// sweep.csv: point, varied keys (base units; names for choices and text), summary keys.
static std::string sweep_csv(const std::vector<std::string>& vkeys, const std::vector<std::string>& columns,
                             const std::vector<sweep_row>& rows)
{
    std::string csv = "point";
    for (const auto& k : vkeys)
        csv += "," + csv_cell(k);
    for (const auto& c : columns)
        csv += "," + csv_cell(c);
    csv += "\n";
    for (const auto& r : rows) {
        csv += csv_cell(r.name);
        for (const auto& v : r.varied_base)
            csv += "," + csv_cell(v);
        std::map<std::string, std::string> m(r.summary.begin(), r.summary.end());
        for (const auto& c : columns)
            csv += "," + csv_cell(m.count(c) ? m[c] : "");
        csv += "\n";
    }
    return csv;
}

point_state sweep_point_state(const std::string& dir, const std::string& name, size_t index)
{
    point_state ps;
    ps.name = name;
    ps.index = index;
    const run_lock_info l = run_dir_lock(dir + "/" + name);
    if (l.live) {
        ps.status = "running";
        ps.detail = l.describe();
        return ps;
    }
    const std::string log = dir + "/logs/" + name + ".log";
    gchar* data = nullptr;
    if (!g_file_get_contents(log.c_str(), &data, nullptr, nullptr)) {
        ps.status = "missing";
        return ps;
    }
    ps.status = "failed";
    ps.log = log;
    const std::vector<std::string> lines = split_trimmed(data, '\n');
    g_free(data);
    // The job script's records: "== <time>: point ..., Slurm log: PATH", "== exit status N", "== stopped ...".
    static const std::string k_slurm = "Slurm log: ";
    for (const auto& ln : lines) {
        if (ln.compare(0, 3, "== ") != 0)
            continue;
        ps.detail = ln.substr(3);
        const size_t at = ln.find(k_slurm);
        if (at != std::string::npos)
            ps.slurm_log = ln.substr(at + k_slurm.size());
    }
    // What slurmstepd wrote into the task's log when it ended it.
    if (!ps.slurm_log.empty()) {
        gchar* sl = nullptr;
        if (g_file_get_contents(ps.slurm_log.c_str(), &sl, nullptr, nullptr)) {
            const std::string t = sl;
            g_free(sl);
            if (t.find(" DUE TO TIME LIMIT ***") != std::string::npos)
                ps.detail += "; Slurm: its time limit was reached (emit with a larger --time or --time-margin)";
            else if (t.find(" CANCELLED AT ") != std::string::npos)
                ps.detail += "; Slurm: cancelled";
        }
    }
    size_t end = lines.size();
    while (end > 0 && lines[end - 1].empty())
        end--;
    for (size_t i = end > 8 ? end - 8 : 0; i < end; i++)
        ps.tail.push_back(lines[i]);
    return ps;
}

// The sweep.json entry of plan point p (name, values, status, summary);
// a finished point's row goes to *rows and its summary keys to *columns,
// an unfinished or unreadable one's name to *missing.
static JsonObject* collect_point(const std::string& dir, JsonObject* p, size_t index, const plan_varied& pv,
                                 std::vector<sweep_row>* rows, std::vector<std::string>* columns,
                                 std::vector<std::string>* missing, std::vector<point_state>* states)
{
    const std::string pname = json_object_get_string_member(p, "name");
    JsonArray* ov = json_object_get_array_member(p, "overrides");
    sweep_row r;
    r.name = pname;
    JsonObject* vals = json_object_new();
    for (guint j = 0; j < json_array_get_length(ov) && j < pv.keys.size(); j++) {
        const std::string o = json_array_get_string_element(ov, j);
        const std::string text = o.substr(o.find('=') + 1);
        r.varied_text.push_back(text);
        const auto& vv = pv.vals[j];
        const size_t at = (size_t)(std::find(vv.begin(), vv.end(), text) - vv.begin());
        r.varied_base.push_back(at < vv.size() ? pv.base[j][at] : text);
        json_object_set_string_member(vals, pv.keys[j].c_str(), text.c_str());
    }
    JsonObject* po = json_object_new();
    json_object_set_string_member(po, "name", pname.c_str());
    json_object_set_object_member(po, "values", vals);
    const std::string pdir = dir + "/" + pname;
    if (run_dir_complete(pdir)) {
        std::string why;
        JsonParser* sp = json_parser_new();
        if (json_parser_load_from_file(sp, (pdir + "/summary.json").c_str(), nullptr) &&
            json_flatten_file(pdir + "/summary.json", &r.summary, &why)) {
            json_object_set_string_member(po, "status", "finished");
            json_object_set_member(po, "summary", json_node_copy(json_parser_get_root(sp)));
            for (const auto& kv : r.summary)
                if (std::find(columns->begin(), columns->end(), kv.first) == columns->end())
                    columns->push_back(kv.first);
            rows->push_back(r);
        } else {
            json_object_set_string_member(po, "status", "unreadable");
            missing->push_back(pname);
            point_state ps;
            ps.name = pname;
            ps.index = index;
            ps.status = "unreadable";
            ps.detail = pdir + "/summary.json cannot be read";
            states->push_back(ps);
        }
        g_object_unref(sp);
    } else {
        const point_state ps = sweep_point_state(dir, pname, index);
        json_object_set_string_member(po, "status", ps.status.c_str());
        missing->push_back(pname);
        states->push_back(ps);
    }
    return po;
}

bool sweep_collect(const std::string& dir, size_t* finished, std::vector<std::string>* missing, std::string* err,
                   std::vector<point_state>* states)
{
    std::vector<point_state> own;
    if (!states)
        states = &own;
    states->clear();
    JsonParser* parser = json_parser_new();
    GError* e = nullptr;
    if (!json_parser_load_from_file(parser, (dir + "/plan.json").c_str(), &e)) {
        *err = dir + " is not a sweep directory (" + e->message + ")";
        g_error_free(e);
        g_object_unref(parser);
        return false;
    }
    JsonObject* plan = json_node_get_object(json_parser_get_root(parser));
    if (!plan || !json_object_has_member(plan, "points") || !json_object_has_member(plan, "varied")) {
        *err = dir + "/plan.json is not a fecsim sweep plan";
        g_object_unref(parser);
        return false;
    }
    JsonArray* points = json_object_get_array_member(plan, "points");
    const plan_varied pv = read_plan_varied(json_object_get_array_member(plan, "varied"));
    std::vector<sweep_row> rows;
    std::vector<std::string> columns;
    missing->clear();
    JsonArray* out_points = json_array_new();
    for (guint i = 0; i < json_array_get_length(points); i++)
        json_array_add_object_element(
            out_points,
            collect_point(dir, json_array_get_object_element(points, i), i, pv, &rows, &columns, missing, states));
    *finished = rows.size();
    JsonObject* root = json_object_new();
    json_object_set_string_member(root, "format", "fecsim-sweep-results-1");
    json_object_set_string_member(root, "sweep", json_object_get_string_member(plan, "sweep"));
    json_object_set_string_member(root, "scenario", json_object_get_string_member(plan, "scenario"));
    json_object_set_member(root, "varied", json_node_copy(json_object_get_member(plan, "varied")));
    json_object_set_int_member(root, "points", json_array_get_length(points));
    json_object_set_int_member(root, "finished", (gint64)*finished);
    json_object_set_boolean_member(root, "complete", missing->empty());
    JsonArray* miss = json_array_new();
    for (const auto& m : *missing)
        json_array_add_string_element(miss, m.c_str());
    json_object_set_array_member(root, "missing", miss);
    json_object_set_array_member(root, "results", out_points);
    JsonNode* n = json_node_init_object(json_node_alloc(), root);
    json_object_unref(root);
    const bool ok = write_file_atomic(dir + "/sweep.csv", sweep_csv(pv.keys, columns, rows), err) &&
                    write_file_atomic(dir + "/sweep.json", json_to_string(n, true), err);
    json_node_unref(n);
    g_object_unref(parser);
    return ok;
}

} // namespace sim
