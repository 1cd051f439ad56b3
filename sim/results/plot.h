// sim/results/plot.h: gnuplot plots of result directories.
//
// For a sweep directory: loss, CPU and IRQ rate against the first numeric
// varied key, one curve per combination of the other varied keys (read from
// sweep.csv; sweep.json gives keys, units and value names). For a run
// directory: the time series of series.csv (when it has rows), the
// cycles-per-frame breakdown and the per-core CPU split (from summary.json).
// Each plot is a gnuplot script <dir>/plots/<name>.gp that reads only result
// files (values from JSON files are copied into the script as data blocks,
// with their source named) and writes <name>.png and <name>.svg next to it.
// Nothing is ever simulated again.
#pragma once
#include <string>
#include <vector>

namespace sim {

// Writes the plots of dir (a run or sweep directory), running up to `jobs`
// gnuplot processes at once (0 counts as 1); *written gets the image paths,
// in the same order whatever `jobs` is. False with *err when dir is neither,
// or gnuplot fails (the first plot, in that order, that failed).
bool plot_dir(const std::string& dir, size_t jobs, std::vector<std::string>* written, std::string* err);

} // namespace sim
