// sim/results/sweep.h: parameter sweeps.
//
// A sweep is the cartesian product of --vary value lists over one base
// scenario. Its directory <out>/<scenario-id>/sweep-<name>/ holds:
//   plan.json     the varied keys, their values and the points (written first)
//   base.ini      the resolved base scenario every point starts from
//   jobs.txt      one `fecsim run base.ini -o ... --run-dir <point>` per point
//   points.txt    the point names, one a line, in jobs.txt's order
//   data/         the driver sources, shim headers and profiles the points are
//                 built from (a copy of the data directory made when the
//                 sweep directory is created; FECSIM_DATADIR for every point)
//   sweep.sbatch, collect.sbatch, submit.sh   (--emit-jobs) the Slurm array
//                 job (a chunk of points per submission), the collect job
//                 after them, and the script submitting both (cmd_sweep.cc)
//   <point>/      one run directory per point, written atomically by its run
//                 (.<point>.lock while a run writes it: run_dir.h)
//   logs/         stderr of each point's run (<point>.log), Slurm's logs
//   sweep.csv, sweep.json   one row per finished point: varied values + summary
//   plots/        loss, CPU and IRQ curves (fecsim plot)
// Points run as separate `fecsim run` processes (SystemC allows one simulation
// per process; the command is in sim/cli/cmd_sweep.cc). A point is done when
// its directory exists (atomic rename), so re-running the same command skips
// finished points, also after kill -9.
#pragma once
#include <string>
#include <vector>
#include "sim/config/registry.h"
#include "sim/config/units.h"

namespace sim {

struct vary_key {
    std::string name;                          // "l2.size"
    const models::param_desc* desc = nullptr;  // null for string keys
    std::vector<std::string> values;           // canonical text, "256KiB"
    std::vector<double> base;                  // base-unit values (NaN for non-numeric kinds)
    bool numeric() const;
};

// "group.key=v1,v2,..." or "group.key=lo..hi/step" (numeric kinds; "/step"
// may be left out for counts and cycles: step 1). Values are checked against
// the key's range.
bool vary_parse(const std::string& spec, const units_context& ctx, vary_key* out, std::string* err);

// Points in sweep order: the first --vary key changes fastest, so that each
// curve (the other keys fixed) is a run of consecutive points.
struct sweep_point {
    std::string name;                    // "p003-l2.size=512KiB"
    std::vector<std::string> overrides;  // "l2.size=512KiB"
};
std::vector<sweep_point> sweep_points(const std::vector<vary_key>& keys);

// The text of plan.json: format "fecsim-sweep-1", the sweep's name, its hash
// (what identifies the sweep in its directory), the base scenario id, the
// varied keys (kind, unit, values, base-unit values) and the points.
std::string sweep_plan_json(const std::string& name, const std::string& hash, const std::string& scenario,
                            const std::vector<vary_key>& keys, const std::vector<sweep_point>& pts);

// A point of a sweep directory without a result, as far as its files tell.
struct point_state {
    std::string name;
    size_t index = 0;    // in plan.json / jobs.txt, from 0
    std::string status;  // "running" (a live lock), "failed" (its log exists:
                         // it was run and left no result), "missing" (no sign of a run), "unreadable"
    std::string detail;  // running: the lock's owner; failed: the log's last "== " line, if any
    std::string log;     // failed: logs/<point>.log
    std::string slurm_log;            // failed: the Slurm log the point's log names, if any
    std::vector<std::string> tail;    // failed: the last lines of its log
};

// The state of the point of directory dir/name (not finished).
point_state sweep_point_state(const std::string& dir, const std::string& name, size_t index);

// Aggregate the finished points of a sweep directory into sweep.csv and
// sweep.json (each point's status: finished, running, failed, missing,
// unreadable). *missing: the names of the unfinished points; *states (may be
// null): their states. Returns false with *err on an unreadable plan.
bool sweep_collect(const std::string& dir, size_t* finished, std::vector<std::string>* missing, std::string* err,
                   std::vector<point_state>* states = nullptr);

} // namespace sim
