// sim/results/stats_files.h: stats.json, stats.txt and series.csv of a run
// directory, from the raw counters (soc::visit_stats, stats_collect in
// sim/soc.h) and the formulas derived from them. Plain types: no SystemC.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "common/stats.h"

namespace sim {

struct resolved_scenario;

using models::stat_entry;
struct derived_entry {
    std::string name;  // "l2.hit_rate"
    double value;      // NaN when undefined (0 / 0)
    std::string desc, unit;
};

// Formulas that can be computed honestly from the counters alone: for every
// instance with counters <p>hits and <p>misses, <p>hit_rate = hits / (hits + misses).
std::vector<derived_entry> stats_derive(const std::vector<stat_entry>& raw);
// stats.json (deterministic: no wall time, no paths). stopped_by non-empty:
// the run did not complete (a driver fault); the counters are those at the
// stop, marked "incomplete": true with the reason.
std::string stats_json(const resolved_scenario& r, const std::vector<stat_entry>& raw,
                       const std::vector<derived_entry>& derived, const std::string& stopped_by = "");
// stats.txt: "name value # description (unit)", names aligned.
std::string stats_txt(const resolved_scenario& r, const std::vector<stat_entry>& raw,
                      const std::vector<derived_entry>& derived);
// series.csv: a header row of column names, then one row per sample ("" without columns).
std::string series_csv(const std::vector<std::string>& cols, const std::vector<std::vector<double>>& rows);

} // namespace sim
