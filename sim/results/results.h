// sim/results/results.h: what a run leaves behind, and how it gets there atomically.
//
// A run directory <out>/<scenario-id>/<run-id>/ (or the directory given with
// --run-dir) holds:
//   scenario.resolved.ini  every key of every group, annotated (scenario.h)
//   stats.json             raw counters by instance path + derived formulas;
//                          no wall-clock data: same scenario + seed => same bytes
//   stats.txt              "name value # description (unit)"
//   summary.json           the `--json` contract object (has wall time)
//   series.csv             time series sampled by the soc (may be empty)
//   cmdline.txt            the exact argv, shell-quoted, and the working directory
//   version.txt            fecsim version, git revision, library versions
//   sim.log                model log (guest errors, unimplemented, traces)
// It is built in a hidden temporary directory and renamed into place when
// complete (run_dir.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "sim/results/json.h"
#include "sim/results/run_dir.h"
#include "sim/results/stats_files.h"
#include "sim/soc.h"

namespace sim {

// ------------------------------------------------------------ summary

struct summary_extra {
    std::string run_id, config_hash, description, version;
    std::vector<std::string> patches;  // driver.patches, applied in order (absolute paths)
    double warmup_s = 0;
    uint64_t log_errors = 0, log_guest_errors = 0, log_unimplemented = 0, log_warnings = 0;
};
// The contract object (docs: architecture.md) plus the extra keys.
JsonNode* summary_node(const run_summary& s, const summary_extra& x);
// One screen for humans (stderr).
std::string summary_text(const run_summary& s, const summary_extra& x, const std::string& results_dir);

} // namespace sim
