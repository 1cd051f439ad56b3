// sim/results/regress.cc: metrics, tolerances, suite files, comparison and reports of
// fecsim regress.
#include "sim/results/regress.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <map>
#include <set>
#include "sim/results/results.h"
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

static std::string trim(const std::string& s)
{
    size_t a = 0, b = s.size();
    while (a < b && g_ascii_isspace(s[a]))
        a++;
    while (b > a && g_ascii_isspace(s[b - 1]))
        b--;
    return s.substr(a, b - a);
}

bool tolerance_parse(const std::string& text, tolerance* t, std::string* err)
{
    *t = tolerance();
    t->text = trim(text);
    bool have_abs = false, have_rel = false;
    size_t pos = 0;
    const std::string s = t->text;
    if (s.empty()) {
        *err = "empty tolerance: expected e.g. 0.5 (absolute), 2% (relative) or 2%,10 (the larger)";
        return false;
    }
    for (;;) {
        const size_t c = s.find(',', pos);
        std::string part = trim(s.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
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
        if (c == std::string::npos)
            break;
        pos = c + 1;
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

// ---------------------------------------------------------------- reports

std::string format_number(double v)
{
    char buf[64];
    if (std::fabs(v) < 1e15 && v == std::floor(v))
        std::snprintf(buf, sizeof buf, "%.0f", v == 0 ? 0.0 : v);  // no "-0"
    else
        std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

static std::string delta_text(const metric_row& r)
{
    if (!r.has_base || !r.has_now)
        return "";
    const double d = r.now - r.base;
    if (d == 0)
        return "0";
    std::string s = (d > 0 ? "+" : "") + format_number(d);
    if (r.base != 0) {
        char buf[48];
        std::snprintf(buf, sizeof buf, " (%+.1f%%)", 100.0 * d / std::fabs(r.base));
        s += buf;
    }
    return s;
}

static std::string site_text(const cv_site& s)
{
    return s.kind + " at " + s.where + ", " + std::to_string((unsigned long long)s.count) + " times";
}

static std::string plural(size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string report_text(const regress_report& rep, bool changes_only)
{
    struct line {
        std::string c[7];
        std::vector<std::string> notes;
    };
    std::vector<line> lines;
    lines.push_back({{"scenario", "metric", "baseline", "new", "delta", "tolerance", "verdict"}, {}});
    for (const auto& s : rep.scenarios) {
        for (const auto& r : s.rows) {
            if (changes_only && s.compared && r.v == verdict::ok)
                continue;
            line l;
            l.c[0] = s.id;
            l.c[1] = r.metric;
            l.c[2] = r.has_base ? format_number(r.base) : "-";
            l.c[3] = r.has_now ? format_number(r.now) : "-";
            l.c[4] = delta_text(r);
            l.c[5] = r.tol + (r.worse == worse_when::lower ? " (lower is worse)" : "");
            l.c[6] = s.compared ? verdict_name(r.v) : "recorded";
            if (r.metric == "coherence.violations") {
                for (const auto& x : s.new_sites)
                    l.notes.push_back("new violation: " + site_text(x));
                for (const auto& x : s.gone_sites)
                    l.notes.push_back("gone: " + site_text(x));
                if (!s.compared)
                    for (const auto& x : s.sites)
                        l.notes.push_back("violation: " + site_text(x));
            }
            lines.push_back(l);
        }
    }
    size_t w[7] = {0};
    for (const auto& l : lines)
        for (int i = 0; i < 7; i++)
            w[i] = std::max(w[i], l.c[i].size());
    std::string o;
    if (lines.size() == 1)
        lines.clear();  // --changes-only and nothing changed: no empty table
    for (const auto& l : lines) {
        std::string row;
        for (int i = 0; i < 7; i++) {
            const bool right = i >= 2 && i <= 4;
            const std::string pad(w[i] - l.c[i].size(), ' ');
            row += (i ? "  " : "") + (right ? pad + l.c[i] : (i == 6 ? l.c[i] : l.c[i] + pad));
        }
        o += row + "\n";
        for (const auto& n : l.notes)
            o += std::string(w[0] + 2, ' ') + "  " + n + "\n";
    }
    for (const auto& s : rep.scenarios)
        for (const auto& d : s.driver_changes)
            o += s.id + ": driver tunable changed since the baseline: " + d + "\n";
    const auto c = rep.count();
    if (rep.update) {
        o += "fecsim regress: baselines of " + plural(rep.scenarios.size(), "scenario", "scenarios") + " written to " +
             rep.baseline_dir + "\n";
        return o;
    }
    o += "fecsim regress: " + plural(rep.scenarios.size(), "scenario", "scenarios") + ", " +
         plural(c.rows, "metric", "metrics") + ": " + std::to_string(c.regressed) + " REGRESSED, " +
         plural(c.new_violations, "new violation", "new violations") + ", " + std::to_string(c.improved) +
         " improved, " + std::to_string(c.ok) + " ok" +
         (c.missing ? ", " + std::to_string(c.missing) + " missing" : "") + "\n";
    if (rep.regressed()) {
        o += "verdict: REGRESSED (" + plural(c.scenarios_regressed, "scenario", "scenarios") + ":";
        for (const auto& s : rep.scenarios)
            if (s.regressed())
                o += " " + s.id;
        o += ")\n";
    } else {
        o += std::string("verdict: no regression") + (c.improved ? " (some metrics improved)" : "") + "\n";
    }
    return o;
}

static void json_site(JsonBuilder* b, const cv_site& s)
{
    json_builder_begin_object(b);
    json_member_string(b, "kind", s.kind);
    json_member_string(b, "where", s.where);
    json_member_int(b, "count", (int64_t)s.count);
    json_builder_end_object(b);
}

std::string report_json(const regress_report& rep)
{
    JsonBuilder* b = json_builder_new();
    auto str = [&](const char* k, const std::string& v) { json_member_string(b, k, v); };
    auto cnt = [&](const char* k, size_t v) { json_member_int(b, k, (int64_t)v); };
    const auto c = rep.count();
    json_builder_begin_object(b);
    str("format", "fecsim-regress-1");
    str("baseline", rep.baseline_dir);
    json_member_strings(b, "patches", rep.patches);
    str("driver", rep.driver);
    json_builder_set_member_name(b, "update_baseline");
    json_builder_add_boolean_value(b, rep.update);
    str("results_dir", rep.results_dir);
    str("verdict", rep.update ? "baseline-updated" : rep.regressed() ? "regressed" : "ok");
    cnt("exit_status", rep.regressed() ? 1 : 0);
    json_builder_set_member_name(b, "counts");
    json_builder_begin_object(b);
    cnt("scenarios", rep.scenarios.size());
    cnt("scenarios_regressed", c.scenarios_regressed);
    cnt("metrics", c.rows);
    cnt("ok", c.ok);
    cnt("improved", c.improved);
    cnt("regressed", c.regressed);
    cnt("new_violations", c.new_violations);
    cnt("missing", c.missing);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "scenarios");
    json_builder_begin_array(b);
    for (const auto& s : rep.scenarios) {
        json_builder_begin_object(b);
        str("id", s.id);
        str("file", s.file);
        str("description", s.description);
        str("suite", s.suite_file);
        str("run_dir", s.run_dir);
        json_builder_set_member_name(b, "compared");
        json_builder_add_boolean_value(b, s.compared);
        str("verdict", !s.compared ? "recorded" : s.regressed() ? "regressed" : "ok");
        json_builder_set_member_name(b, "metrics");
        json_builder_begin_array(b);
        for (const auto& r : s.rows) {
            json_builder_begin_object(b);
            str("metric", r.metric);
            str("worse", r.worse == worse_when::higher ? "higher" : "lower");
            str("tolerance", r.tol);
            json_builder_set_member_name(b, "baseline");
            if (r.has_base)
                json_builder_add_double_value(b, r.base);
            else
                json_builder_add_null_value(b);
            json_builder_set_member_name(b, "new");
            if (r.has_now)
                json_builder_add_double_value(b, r.now);
            else
                json_builder_add_null_value(b);
            json_builder_set_member_name(b, "delta");
            if (r.has_now && r.has_base)
                json_builder_add_double_value(b, r.now - r.base);
            else
                json_builder_add_null_value(b);
            str("verdict", s.compared ? verdict_name(r.v) : "recorded");
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
        json_member_strings(b, "driver_changes", s.driver_changes);
        json_builder_set_member_name(b, "violations");
        json_builder_begin_object(b);
        for (const auto& [name, list] : {std::make_pair("all", &s.sites), std::make_pair("new", &s.new_sites),
                                         std::make_pair("gone", &s.gone_sites)}) {
            json_builder_set_member_name(b, name);
            json_builder_begin_array(b);
            for (const auto& x : *list)
                json_site(b, x);
            json_builder_end_array(b);
        }
        json_builder_end_object(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    JsonNode* n = json_builder_get_root(b);
    g_object_unref(b);
    std::string out = json_to_string(n, true);
    json_node_unref(n);
    return out;
}

static std::string xml(const std::string& s)
{
    std::string r;
    for (char ch : s) {
        switch (ch) {
        case '&': r += "&amp;"; break;
        case '<': r += "&lt;"; break;
        case '>': r += "&gt;"; break;
        case '"': r += "&quot;"; break;
        case '\'': r += "&apos;"; break;
        default:
            if ((unsigned char)ch < 0x20 && ch != '\n' && ch != '\t')
                r += ' ';
            else
                r += ch;
        }
    }
    return r;
}

std::string report_junit(const regress_report& rep)
{
    const auto c = rep.count();
    std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o += "<testsuites name=\"fecsim regress\" tests=\"" + std::to_string(c.rows) + "\" failures=\"" +
         std::to_string(c.regressed + c.new_violations) + "\" errors=\"0\" skipped=\"" + std::to_string(c.missing) +
         "\">\n";
    for (const auto& s : rep.scenarios) {
        if (!s.compared)
            continue;
        size_t fail = 0, skip = 0;
        for (const auto& r : s.rows) {
            fail += r.v == verdict::regressed || r.v == verdict::new_violation;
            skip += r.v == verdict::missing;
        }
        o += "  <testsuite name=\"" + xml(s.id) + "\" tests=\"" + std::to_string(s.rows.size()) + "\" failures=\"" +
             std::to_string(fail) + "\" errors=\"0\" skipped=\"" + std::to_string(skip) + "\">\n";
        for (const auto& r : s.rows) {
            o += "    <testcase classname=\"fecsim.regress." + xml(s.id) + "\" name=\"" + xml(r.metric) +
                 "\" time=\"0\"";
            const std::string what = "baseline " + (r.has_base ? format_number(r.base) : "-") + ", new " +
                                     (r.has_now ? format_number(r.now) : "-") + ", delta " + delta_text(r) +
                                     ", tolerance " + r.tol +
                                     (r.worse == worse_when::lower ? " (lower is worse)" : " (higher is worse)");
            std::string detail;
            if (r.metric == "coherence.violations")
                for (const auto& x : s.new_sites)
                    detail += "new violation: " + site_text(x) + "\n";
            switch (r.v) {
            case verdict::regressed:
            case verdict::new_violation:
                o += ">\n      <failure type=\"" + std::string(verdict_name(r.v)) + "\" message=\"" +
                     xml(std::string(verdict_name(r.v)) + ": " + what) + "\">" + xml(detail.empty() ? what : detail) +
                     "</failure>\n    </testcase>\n";
                break;
            case verdict::missing:
                o += ">\n      <skipped message=\"" + xml("missing: " + what) + "\"/>\n    </testcase>\n";
                break;
            case verdict::improved:
                o += ">\n      <system-out>" + xml("improved: " + what) + "</system-out>\n    </testcase>\n";
                break;
            case verdict::ok: o += "/>\n"; break;
            }
        }
        o += "  </testsuite>\n";
    }
    o += "</testsuites>\n";
    return o;
}

} // namespace sim
