// sim/results/regress.cc: metrics, tolerances, suite files and comparison of
// fecsim regress (the reports: regress_report.cc).
#include "sim/results/regress.h"
#include "sim/config/text.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <set>
#include "sim/config/scenario.h"

namespace sim {

// ---------------------------------------------------------------- metrics

bool regress_metric(const std::string& name, metric_info* out)
{
    const summary_metric* m = summary_metric_find(name);
    if (!m || !m->number() || m->worse == worse_when::none)
        return false;
    *out = {name, m->worse, m->unit, summary_metric_label(name)};
    return true;
}

std::vector<std::string> regress_metric_names()
{
    size_t n = 0;
    const summary_metric* rows = summary_metrics(&n);
    std::vector<std::string> v, cpu;
    for (size_t i = 0; i < n; i++) {
        const summary_metric& r = rows[i];
        if (!r.number() || r.worse == worse_when::none)
            continue;
        if (r.row == summary_row::core)
            cpu.push_back(std::string("cpu.0.") + r.name);
        else
            v.push_back(r.name);
    }
    v.insert(v.end(), cpu.begin(), cpu.end());
    return v;
}

// ---------------------------------------------------------------- tolerances

double tolerance::allowance(double baseline) const { return std::max(abs, rel * std::fabs(baseline)); }

bool tolerance_parse(const std::string& text, tolerance* t, std::string* err)
{
    *t = tolerance();
    t->text = trim(text);
    bool have_abs = false, have_rel = false;
    const std::string s = t->text;
    if (s.empty()) {
        *err = "empty tolerance: expected e.g. 0.5 (absolute), 2% (relative) or 2%,10 (the larger)";
        return false;
    }
    for (std::string part : split_trimmed(s, ',')) {
        const bool rel = !part.empty() && part.back() == '%';
        if (rel)
            part = trim(part.substr(0, part.size() - 1));
        char* end = nullptr;
        const double v = part.empty() ? NAN : g_ascii_strtod(part.c_str(), &end);
        if (part.empty() || !end || *end || !std::isfinite(v) || v < 0 || part[0] == '+' || part[0] == '-') {
            *err = "'" + s +
                   "' is not a tolerance: expected a non-negative number (absolute, in the metric's unit), "
                   "a percentage (relative to the baseline), or both separated by a comma";
            return false;
        }
        if ((rel && have_rel) || (!rel && have_abs)) {
            *err = "'" + s + "': at most one absolute and one relative tolerance";
            return false;
        }
        if (rel) {
            have_rel = true;
            t->rel = v / 100;
        } else {
            have_abs = true;
            t->abs = v;
        }
    }
    return true;
}

// ---------------------------------------------------------------- suite files

std::string suite_file_for_dir(const std::string& dir)
{
    const std::string f = (dir.empty() ? std::string(".") : dir) + "/suite.ini";
    if (g_file_test(f.c_str(), G_FILE_TEST_IS_REGULAR))
        return f;
    return "builtin:regress/suite.ini";
}

bool suite_read(const std::string& path, regress_suite* out, std::vector<std::string>* errors)
{
    *out = regress_suite();
    out->file = path;
    raw_scenario raw;
    const size_t before = errors->size();
    if (!scenario_read(path, &raw, errors))
        return false;
    // Errors in reading order.
    std::vector<std::pair<unsigned, std::string>> errs;
    for (const auto& g : raw.groups)
        if (g.first != "tolerances")
            errs.push_back({g.second.line, diag(g.second, "unknown group [" + g.first +
                                                              "] in a regress suite file: the only group is "
                                                              "[tolerances]")});
    const auto names = regress_metric_names();
    for (const auto& v : raw.values) {
        if (v.group != "tolerances")
            continue;  // reported with its group
        const unsigned line = v.where.line;
        suite_metric m;
        if (!regress_metric(v.key, &m.info)) {
            const std::string c = closest_name(v.key, names);
            errs.push_back({line, diag(v.where, "unknown metric '" + v.key + "' in [tolerances]" +
                                                    (c.empty() ? "" : "; did you mean " + c + "?") +
                                                    " (fecsim regress --help lists the metrics)")});
            continue;
        }
        std::string why;
        if (!tolerance_parse(v.text, &m.tol, &why)) {
            errs.push_back({line, diag(v.where, "tolerances." + v.key + ": " + why)});
            continue;
        }
        if (m.info.name == "coherence.violations" && (m.tol.abs != 0 || m.tol.rel != 0)) {
            errs.push_back({line, diag(v.where, "tolerances.coherence.violations: '" + m.tol.text +
                                                    "': must be 0 (every new violation is a regression)")});
            continue;
        }
        out->metrics.push_back(m);
    }
    std::stable_sort(errs.begin(), errs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& e : errs)
        errors->push_back(e.second);
    if (errors->size() == before && out->metrics.empty())
        errors->push_back(diag(origin{path, 0, "", 0}, "no metric to compare: [tolerances] is empty or missing"));
    return errors->size() == before;
}

// ---------------------------------------------------------------- comparison

const char* verdict_name(verdict v)
{
    switch (v) {
    case verdict::ok: return "ok";
    case verdict::improved: return "improved";
    case verdict::regressed: return "REGRESSED";
    case verdict::new_violation: return "new-violation";
    case verdict::missing: return "missing";
    }
    return "?";
}

verdict compare_metric(double base, double now, const tolerance& t, worse_when w)
{
    const double worse = w == worse_when::higher ? now - base : base - now;  // > 0: worse
    const double allow = t.allowance(base);
    if (worse > allow)
        return verdict::regressed;
    if (-worse > allow)
        return verdict::improved;
    return verdict::ok;
}

std::string cv_site::function() const
{
    const size_t p = where.find(" (");
    return p == std::string::npos ? where : where.substr(0, p);
}

bool summary_number(JsonObject* o, const std::string& dotted, double* v)
{
    JsonNode* node = nullptr;
    JsonObject* cur = o;
    JsonArray* arr = nullptr;
    size_t pos = 0;
    for (;;) {
        const size_t dot = dotted.find('.', pos);
        const std::string part = dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
        if (cur) {
            if (!json_object_has_member(cur, part.c_str()))
                return false;
            node = json_object_get_member(cur, part.c_str());
        } else if (arr) {
            char* end = nullptr;
            const unsigned long i = std::strtoul(part.c_str(), &end, 10);
            if (part.empty() || *end || i >= json_array_get_length(arr))
                return false;
            node = json_array_get_element(arr, (guint)i);
        } else {
            return false;
        }
        cur = nullptr;
        arr = nullptr;
        if (dot == std::string::npos)
            break;
        if (JSON_NODE_HOLDS_OBJECT(node))
            cur = json_node_get_object(node);
        else if (JSON_NODE_HOLDS_ARRAY(node))
            arr = json_node_get_array(node);
        pos = dot + 1;
    }
    if (!node || !JSON_NODE_HOLDS_VALUE(node))
        return false;
    const GType t = json_node_get_value_type(node);
    if (t == G_TYPE_INT64)
        *v = (double)json_node_get_int(node);
    else if (t == G_TYPE_DOUBLE)
        *v = json_node_get_double(node);
    else
        return false;
    return true;
}

std::vector<cv_site> summary_sites(JsonObject* o)
{
    std::vector<cv_site> v;
    if (!o || !json_object_has_member(o, "coherence"))
        return v;
    JsonNode* c = json_object_get_member(o, "coherence");
    if (!JSON_NODE_HOLDS_OBJECT(c) || !json_object_has_member(json_node_get_object(c), "sites"))
        return v;
    JsonNode* s = json_object_get_member(json_node_get_object(c), "sites");
    if (!JSON_NODE_HOLDS_ARRAY(s))
        return v;
    JsonArray* a = json_node_get_array(s);
    for (guint i = 0; i < json_array_get_length(a); i++) {
        JsonNode* e = json_array_get_element(a, i);
        if (!JSON_NODE_HOLDS_OBJECT(e))
            continue;
        JsonObject* eo = json_node_get_object(e);
        cv_site x;
        x.kind = json_object_get_string_member_with_default(eo, "kind", "?");
        x.where = json_object_get_string_member_with_default(eo, "where", "?");
        x.detail = json_object_get_string_member_with_default(eo, "detail", "");
        x.count = (uint64_t)json_object_get_int_member_with_default(eo, "count", 0);
        v.push_back(x);
    }
    return v;
}

bool scenario_report::regressed() const
{
    for (const auto& r : rows)
        if (r.v == verdict::regressed || r.v == verdict::new_violation)
            return true;
    return false;
}

void compare_summaries(JsonObject* base, JsonObject* now, const regress_suite& suite, scenario_report* out)
{
    out->rows.clear();
    out->sites = summary_sites(now);
    out->new_sites.clear();
    out->gone_sites.clear();
    out->compared = base != nullptr;
    for (const auto& m : suite.metrics) {
        metric_row r;
        r.metric = m.info.name;
        r.worse = m.info.worse;
        r.tol = m.tol.text;
        r.has_now = summary_number(now, m.info.name, &r.now);
        r.has_base = base && summary_number(base, m.info.name, &r.base);
        if (!r.has_now && (!base || !r.has_base))
            continue;  // e.g. cpu.7 on a 4-core scenario: nothing to say
        if (!base) {
            out->rows.push_back(r);
            continue;
        }
        if (!r.has_now || !r.has_base) {
            r.v = verdict::missing;
        } else if (m.info.name == "coherence.violations") {
            const auto was = summary_sites(base);
            auto key = [](const cv_site& s) { return s.kind + "\n" + s.function(); };
            std::set<std::string> before, after;
            for (const auto& s : was)
                before.insert(key(s));
            for (const auto& s : out->sites)
                after.insert(key(s));
            for (const auto& s : out->sites)
                if (!before.count(key(s)))
                    out->new_sites.push_back(s);
            for (const auto& s : was)
                if (!after.count(key(s)))
                    out->gone_sites.push_back(s);
            // Summaries written before coherence.sites existed: by count.
            const bool by_count = was.empty() && out->sites.empty();
            if (!out->new_sites.empty() || (by_count && r.now > r.base))
                r.v = verdict::new_violation;
            else if (!out->gone_sites.empty() || (by_count && r.now < r.base))
                r.v = verdict::improved;
            else
                r.v = verdict::ok;
        } else {
            r.v = compare_metric(r.base, r.now, m.tol, m.info.worse);
        }
        out->rows.push_back(r);
    }
}

regress_report::counts regress_report::count() const
{
    counts c;
    for (const auto& s : scenarios) {
        if (!s.compared)
            continue;
        for (const auto& r : s.rows) {
            c.rows++;
            switch (r.v) {
            case verdict::ok: c.ok++; break;
            case verdict::improved: c.improved++; break;
            case verdict::regressed: c.regressed++; break;
            case verdict::new_violation: c.new_violations++; break;
            case verdict::missing: c.missing++; break;
            }
        }
        if (s.regressed())
            c.scenarios_regressed++;
    }
    return c;
}

} // namespace sim
