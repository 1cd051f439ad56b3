// sim/config/docs.h: parameter and statistics listings generated from the tables:
// `fecsim list-params` (text), docs/scenario-format.md and docs/models/*.md
// (markdown, `make docs`). Nothing here is written by hand per parameter.
#pragma once
#include <string>
#include <vector>
#include "sim/config/registry.h"
#include "common/stats.h"

namespace sim {

using models::stat_entry;

// Every group and page names the source files that implement it
// ("Implemented in: ...", from the registry).
//
// Text tables of one group ("" = all). width > 0 wraps descriptions to fit.
std::string params_text(const std::string& group, int width);
// docs/scenario-format.md: the file format and every group and key.
std::string params_markdown_format();
// docs/models/<group>.md: the group's parameters and the statistics of its
// instances (stats of instances named <group> or <group>_<n>).
// derived: the formulas of stats.json's "derived" section over those
// counters (name as a stat path, desc its formula), computed by the caller.
std::string params_markdown_model(const std::string& group, const std::vector<stat_entry>& stats,
                                  const std::vector<stat_entry>& derived);
// Group names that get a docs/models page: every registry group, plus
// instances that have statistics but no group.
std::vector<std::string> docs_model_pages(const std::vector<stat_entry>& stats);

} // namespace sim
