// sim/config/did_you_mean.h: the "did you mean" of every unknown-name error
// (groups, keys, commands, --vary keys).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace sim {

// The closest candidates by edit distance (optimal string alignment;
// substitutions ignore case; a candidate that starts with a word of 3 or more
// characters counts as distance 1), each wrapped in open/close and joined with "or"
// ("[l1] or [l2]"), or "" if none is close enough (at most a third of the
// word's length, 1..3 edits) or more than 3 are equally close, or if the word
// is longer than k_closest_name_max_chars. Cost: O(candidates x |word|) time
// for a word of at most that length, O(longest candidate) memory.
inline constexpr size_t k_closest_name_max_chars = 64;
std::string closest_name(const std::string& word, const std::vector<std::string>& candidates, const char* open = "'",
                         const char* close = "'");

} // namespace sim
