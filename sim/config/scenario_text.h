// sim/config/scenario_text.h: text, path and GKeyFile-value helpers shared by
// the files of the scenario loader (sim/config/scenario*.cc). Internal to the
// loader: the rest of fecsim uses sim/config/scenario.h.
#pragma once
#include <string>
#include <vector>
#include "sim/config/registry.h"
#include "sim/config/text.h"

namespace sim::loader {

// Prefix of the names of the scenario files compiled into the binary.
inline constexpr char k_builtin[] = "builtin:";

bool starts_with(const std::string& s, const char* p);
// Lexical normalisation of a relative or absolute path ("a/./b/../c" -> "a/c").
std::string normalize(const std::string& p);
// Directory of a file name: "." for a bare name, "/" for a file in the root;
// for a built-in, its directory among the built-ins ("" at the top).
std::string dir_of(const std::string& name);
// Path `rel` as written in file `from` (or on the command line when from == "").
std::string relative_to(const std::string& from, const std::string& rel);

// GKeyFile decoding of a raw value (escapes; ';'-separated lists, items
// trimmed, empty items dropped), as g_key_file_get_string(_list) would.
std::string decode_string(const std::string& raw);
std::vector<std::string> decode_list(const std::string& raw);

// "group.key", the name of a key in messages, set_at and strings.
std::string gk(const group_entry& g, const std::string& key);

} // namespace sim::loader
