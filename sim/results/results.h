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
// It is built in a hidden temporary directory next to its final place and
// renamed into place when complete: a killed run leaves either nothing visible
// or a complete directory. Temporary directories of dead processes (same host)
// are removed by the next run in the same place.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "sim/soc.h"

typedef struct _JsonBuilder JsonBuilder;

typedef struct _JsonNode JsonNode;

namespace sim {

struct resolved_scenario;

// ------------------------------------------------------------ statistics

struct stat_entry {
    std::string name;  // instance path, "l2.misses"
    uint64_t value;
    std::string desc, unit;
};
struct derived_entry {
    std::string name;  // "l2.hit_rate"
    double value;      // NaN when undefined (0 / 0)
    std::string desc, unit;
};

std::vector<stat_entry> stats_collect(const soc& s);
// Formulas that can be computed honestly from the counters alone: for every
// instance with counters <p>hits and <p>misses, <p>hit_rate = hits / (hits + misses).
std::vector<derived_entry> stats_derive(const std::vector<stat_entry>& raw);
// stats.json (deterministic: no wall time, no paths).
std::string stats_json(const resolved_scenario& r, const std::vector<stat_entry>& raw,
                       const std::vector<derived_entry>& derived);
std::string stats_txt(const resolved_scenario& r, const std::vector<stat_entry>& raw,
                      const std::vector<derived_entry>& derived);

// ------------------------------------------------------------ summary

struct summary_extra {
    std::string run_id, config_hash, description, version;
    std::vector<std::string> patches;  // driver.patches, applied in order (absolute paths)
    double warmup_s = 0;
    uint64_t log_errors = 0, log_guest_errors = 0, log_unimplemented = 0, log_warnings = 0;
};
// The contract object (docs: architecture.md) plus the extra keys.
JsonNode* summary_node(const run_summary& s, const summary_extra& x);
std::string json_to_string(JsonNode* node, bool pretty);
// One screen for humans (stderr).
std::string summary_text(const run_summary& s, const summary_extra& x, const std::string& results_dir);

std::string series_csv(const std::vector<std::string>& cols, const std::vector<std::vector<double>>& rows);

// Flatten a JSON object into (dotted name, text value) pairs in document
// order: {"drops":{"socket":3}} -> ("drops.socket","3"); arrays use indices
// ("cpu.0.idle_pct"). Numbers are printed in the shortest exact form.
bool json_flatten_file(const std::string& path, std::vector<std::pair<std::string, std::string>>* out,
                       std::string* err);

// ------------------------------------------------------------ run directory

class run_dir {
public:
    run_dir() = default;
    ~run_dir();
    run_dir(const run_dir&) = delete;
    run_dir& operator=(const run_dir&) = delete;

    // Final place <root>/<scenario_id>/<run_id> (a suffix is added if taken).
    bool open_auto(const std::string& root, const std::string& scenario_id, const std::string& run_id,
                   std::string* err);
    // Final place exactly `dir` (must not exist).
    bool open_fixed(const std::string& dir, std::string* err);

    std::string tmp_path(const std::string& name) const { return m_tmp + "/" + name; }
    // Parent directories this run created (removed again if it fails).
    const std::vector<std::string>& created() const { return m_created; }
    bool write(const std::string& name, const std::string& content, std::string* err);
    // Rename into place. *already_done: --run-dir target appeared meanwhile
    // (another run finished it); ours is discarded.
    bool commit(std::string* final_path, bool* already_done, std::string* err);
    // Remove the temporary directory and any parents this run created.
    void discard();

private:
    bool make_tmp(const std::string& parent, const std::string& base, std::string* err);

    std::string m_tmp, m_parent, m_final, m_base;
    bool m_fixed = false, m_open = false;
    std::vector<std::string> m_created;  // parents we created, deepest last
};

// Remove the temporary directories that dead runs (this host) left in parent.
void run_dir_clean_stale(const std::string& parent);
// A directory holds a finished run (summary.json present).
bool run_dir_complete(const std::string& dir);
// SIGINT/SIGTERM/SIGHUP remove the open run directory's temporary files, then
// the process dies of the signal as usual.
void run_dir_install_signal_cleanup(const run_dir* d);
// mkdir -p; records the directories it created in *created (may be null).
bool make_dirs(const std::string& path, std::vector<std::string>* created, std::string* err);
bool write_file_atomic(const std::string& path, const std::string& content, std::string* err);

// Members of the JSON object a JsonBuilder is building, shared by the
// writers of summary.json, stats.json and the regress report. Non-finite
// doubles are written as 0 (JSON has no NaN).
void json_member_int(JsonBuilder* b, const char* key, int64_t v);
void json_member_double(JsonBuilder* b, const char* key, double v);
void json_member_string(JsonBuilder* b, const char* key, const std::string& v);
void json_member_strings(JsonBuilder* b, const char* key, const std::vector<std::string>& v);

} // namespace sim
