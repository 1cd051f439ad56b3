// sim/results/results.h: what a run leaves behind, and the headers of the
// writers that put it there.
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
// complete (run_dir.h). None of these headers needs SystemC or a model header;
// stats_collect (the raw counters of a soc) is in sim/soc.h.
#pragma once
#include "sim/results/json.h"         // JSON helpers, json_flatten_file
#include "sim/results/run_dir.h"      // the run directory, make_dirs, write_file_atomic
#include "sim/results/stats_files.h"  // stats.json, stats.txt, series.csv
#include "sim/results/summary.h"      // summary.json and the text summary
