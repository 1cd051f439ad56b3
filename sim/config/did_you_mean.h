// sim/config/did_you_mean.h: the "did you mean" of every unknown-name error
// (groups, keys, commands, --vary keys).
#pragma once
#include <string>
#include <vector>

namespace sim {

// The closest candidates by edit distance (optimal string alignment;
// substitutions ignore case; a candidate that starts with a word of 3 or more
// characters counts as distance 1), each wrapped in open/close and joined with "or"
// ("[l1] or [l2]"), or "" if none is close enough (at most a third of the
// word's length, 1..3 edits) or more than 3 are equally close.
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates, const char* open = "'",
                         const char* close = "'");

} // namespace sim
