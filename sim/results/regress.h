// sim/results/regress.h: what `fecsim regress` compares and how (no processes here:
// the command itself is in sim/cli/cmd_regress.cc).
//
// A regression suite is a set of scenario files and a suite file (suite.ini)
// whose one group, [tolerances], names the summary metrics to compare and how
// far each may move before it counts:
//
//   [tolerances]
//   loss_pct=0.5                 absolute, in the metric's unit (here %-points)
//   cycles_per_frame.total=2%    relative to the baseline value
//   drops.mac_fifo=5%,10         the larger of the two allowances
//   payload.corrupted=0          any worsening counts
//
// Every metric has a fixed direction (regress_metric, from the summary
// table sim/results/summary_metrics.def): for most, higher is worse; for
// frames_delivered, payload.verified and cpu.N.idle_pct, lower is worse. A
// move in the worse direction beyond the allowance is REGRESSED, in the
// better direction beyond it is improved, anything else ok.
// coherence.violations is compared as a set: each (kind, driver function)
// present now and not in the baseline is a new-violation (a regression),
// matched by function, not line, because a patch moves lines; one that went
// away is an improvement. Its tolerance must be 0.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "sim/results/summary.h"

typedef struct _JsonObject JsonObject;
typedef struct _JsonNode JsonNode;

namespace sim {

struct metric_info {
    std::string name;  // dotted summary.json key: "loss_pct", "cycles_per_frame.total", "cpu.0.softirq_pct"
    worse_when worse = worse_when::higher;
    std::string unit;  // unit of an absolute tolerance
    std::string what;
};
// The metrics regress can compare: the summary rows with a direction;
// cpu.<N>.<field> for any core N. False if `name` is not one of them.
bool regress_metric(const std::string& name, metric_info* out);
// Every metric name in summary.json order, the per-core ones last (shown for
// core 0), for "did you mean" and help.
std::vector<std::string> regress_metric_names();

// How far a metric may move: max(abs, rel * |baseline|).
struct tolerance {
    double abs = 0;    // in the metric's unit
    double rel = 0;    // fraction of |baseline| ("2%" = 0.02)
    std::string text;  // as written
    double allowance(double baseline) const;
};
// "0.5", "2%", "2%,10" (either order). Non-negative, finite.
bool tolerance_parse(const std::string& text, tolerance* t, std::string* err);

struct suite_metric {
    metric_info info;
    tolerance tol;
};
struct regress_suite {
    std::string file;                   // where the tolerances came from
    std::vector<suite_metric> metrics;  // in file order
};
// Read a suite file (GKeyFile syntax, as scenarios): only [tolerances], keys
// are metrics, values tolerances. Errors ("FILE:LINE: error: ...", with "did
// you mean") are appended to *errors; returns false if there were any.
bool suite_read(const std::string& path, regress_suite* out, std::vector<std::string>* errors);

// The suite file used for scenarios of directory `dir`: dir/suite.ini if it
// exists, else the built-in copy of scenarios/regress/suite.ini.
std::string suite_file_for_dir(const std::string& dir);

enum class verdict { ok, improved, regressed, new_violation, missing };
const char* verdict_name(verdict v);  // ok, improved, REGRESSED, new-violation, missing
verdict compare_metric(double base, double now, const tolerance& t, worse_when w);

// A distinct coherence violation as summary.json lists it (coherence.sites).
struct cv_site {
    std::string kind, where;       // "device_write_cpu_owned", "fec_enet_copybreak (fec_main.c:430)"
    std::string detail;            // the first occurrence's detail (summary.json), may be empty
    uint64_t count = 0;            // occurrences
    std::string function() const;  // where without " (file:line)"
};

struct metric_row {
    std::string metric;
    worse_when worse = worse_when::higher;
    std::string tol;  // as written in the suite
    bool has_base = false, has_now = false;
    double base = 0, now = 0;
    verdict v = verdict::ok;
};

// One scenario of a regress run.
struct scenario_report {
    std::string id, file, description;
    std::string suite_file;
    std::string run_dir;    // where its run was kept
    bool compared = false;  // false: no baseline to compare with (--update-baseline, new)
    std::vector<metric_row> rows;
    std::vector<cv_site> sites;                  // violations of this run
    std::vector<cv_site> new_sites, gone_sites;  // vs the baseline
    std::vector<std::string> driver_changes;     // driver tunables vs the baseline ("driver.copybreak: 256 -> 0")
    bool regressed() const;
};

// Compare one run's summary with the baseline's (both summary.json objects).
void compare_summaries(JsonObject* base, JsonObject* now, const regress_suite& suite, scenario_report* out);
// The coherence sites of a summary object (empty if it has none).
std::vector<cv_site> summary_sites(JsonObject* summary);
// A metric by dotted name ("cpu.0.softirq_pct": array element 0); false if absent or not a number.
bool summary_number(JsonObject* summary, const std::string& dotted, double* v);

struct regress_report {
    std::string baseline_dir;
    std::vector<std::string> patches;  // as given
    std::string driver;                // --driver, or "" for drivers/fec
    bool update = false;               // --update-baseline
    std::string results_dir;
    std::vector<scenario_report> scenarios;
    struct counts {
        size_t rows = 0, ok = 0, improved = 0, regressed = 0, new_violations = 0, missing = 0;
        size_t scenarios_regressed = 0;
    };
    counts count() const;
    bool regressed() const { return !update && count().scenarios_regressed > 0; }
};

// The table (scenario, metric, baseline, new, delta, tolerance, verdict) and
// a verdict line; changes_only leaves out the ok rows.
std::string report_text(const regress_report& r, bool changes_only);
// Machine-readable report ("format": "fecsim-regress-1").
std::string report_json(const regress_report& r);
// JUnit XML: a testsuite per scenario, a testcase per scenario x metric;
// REGRESSED and new-violation are failures, missing is skipped.
std::string report_junit(const regress_report& r);

// Number as the table prints it: integers exactly, others with 6 significant digits.
std::string format_number(double v);

} // namespace sim
