// sim/results/regress_report.cc: the reports of fecsim regress (regress.h):
// the text table, JSON and JUnit XML.
#include "sim/results/regress.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/results/json.h"

namespace sim {

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
    return s.kind + " at " + s.where + ", " + std::to_string((unsigned long long)s.count) + " times" +
           (s.detail.empty() ? "" : ": " + s.detail);
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
    auto flag = [&](const char* k, bool v) {
        json_builder_set_member_name(b, k);
        json_builder_add_boolean_value(b, v);
    };
    // A number, or null where there is none.
    auto opt = [&](const char* k, bool has, double v) {
        json_builder_set_member_name(b, k);
        if (has)
            json_builder_add_double_value(b, v);
        else
            json_builder_add_null_value(b);
    };
    const auto c = rep.count();
    json_builder_begin_object(b);
    str("format", "fecsim-regress-1");
    str("baseline", rep.baseline_dir);
    json_member_strings(b, "patches", rep.patches);
    str("driver", rep.driver);
    flag("update_baseline", rep.update);
    str("results_dir", rep.results_dir);
    str("verdict", rep.update ? "baseline-updated" : rep.regressed() ? "regressed" : "ok");
    cnt("exit_status", rep.regressed() ? 1 : 0);
    json_member_object(b, "counts");
    cnt("scenarios", rep.scenarios.size());
    cnt("scenarios_regressed", c.scenarios_regressed);
    cnt("metrics", c.rows);
    cnt("ok", c.ok);
    cnt("improved", c.improved);
    cnt("regressed", c.regressed);
    cnt("new_violations", c.new_violations);
    cnt("missing", c.missing);
    json_builder_end_object(b);
    json_member_array(b, "scenarios");
    for (const auto& s : rep.scenarios) {
        json_builder_begin_object(b);
        str("id", s.id);
        str("file", s.file);
        str("description", s.description);
        str("suite", s.suite_file);
        str("run_dir", s.run_dir);
        flag("compared", s.compared);
        str("verdict", !s.compared ? "recorded" : s.regressed() ? "regressed" : "ok");
        json_member_array(b, "metrics");
        for (const auto& r : s.rows) {
            json_builder_begin_object(b);
            str("metric", r.metric);
            str("worse", r.worse == worse_when::higher ? "higher" : "lower");
            str("tolerance", r.tol);
            opt("baseline", r.has_base, r.base);
            opt("new", r.has_now, r.now);
            opt("delta", r.has_now && r.has_base, r.now - r.base);
            str("verdict", s.compared ? verdict_name(r.v) : "recorded");
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
        json_member_strings(b, "driver_changes", s.driver_changes);
        json_member_object(b, "violations");
        for (const auto& [name, list] : {std::make_pair("all", &s.sites), std::make_pair("new", &s.new_sites),
                                         std::make_pair("gone", &s.gone_sites)}) {
            json_member_array(b, name);
            for (const auto& x : *list)
                json_site(b, x);
            json_builder_end_array(b);
        }
        json_builder_end_object(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    return json_builder_text(b);
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
