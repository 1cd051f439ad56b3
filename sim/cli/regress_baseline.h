// sim/cli/regress_baseline.h: the baseline files of fecsim regress.
//
// A baseline file <baseline-dir>/<scenario-id>.json holds the run's summary
// without wall-clock data, absolute paths or run ids (so that recording the
// same thing twice gives the same bytes) and the resolved scenario without
// the driver keys, which identifies what it was recorded for.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "sim/config/scenario.h"
#include "sim/results/regress.h"

typedef struct _JsonParser JsonParser;

namespace sim {

// One scenario of a regress run: what it is, its baseline, where it runs.
struct scenario_job {
    std::string file;  // as given (or found in a directory)
    std::string id, description;
    const regress_suite* suite = nullptr;
    std::map<std::string, std::string> identity;
    std::map<std::string, std::string> driver;  // driver_keys() as run
    std::shared_ptr<JsonParser> baseline;       // the baseline file, if any
    JsonObject* base_summary = nullptr;
    std::string run_dir, log;  // in the results directory's temporary place
};

// What a baseline was recorded for: every resolved key but those of the
// [driver] group, the driver under test, which regress varies (--patch,
// --driver, -o driver.copybreak=...); other paths by file name only, so that
// baselines do not depend on where the tree is checked out.
std::map<std::string, std::string> scenario_identity(const resolved_scenario& r);

// The driver's tunables (copybreak, ring sizes) as run: recorded in the
// baseline and reported when they differ, as part of the driver change.
std::map<std::string, std::string> driver_keys(const resolved_scenario& r);

// Read <dir>/<id>.json. Returns "" on success, else why not.
std::string read_baseline(const std::string& path, scenario_job* j);

// Keys whose value differs between the baseline and the scenario now
// ("traffic.frame_rate: 10000 in the baseline, 20000 now"). Keys that exist
// on one side only (a parameter added to or removed from fecsim) are listed
// in *added_removed.
std::vector<std::string> identity_diff(const scenario_job& j, std::vector<std::string>* added_removed);

// Driver tunables that differ from the baseline's ("driver.copybreak: 256 -> 0").
std::vector<std::string> driver_diff(const scenario_job& j);

// The baseline file of one finished run.
std::string baseline_text(const scenario_job& j, const std::string& summary_path, const regress_report& rep,
                          std::string* err);

} // namespace sim
