// sim/config/scenario.h: scenario files -> raw layer -> resolved configuration.
//
// Raw layer: every value as written, with where it came from (file:line, or
// the command-line option), in application order: for each file its includes
// first (depth first, in the order listed), then its own keys; then the next
// file; then -o overrides in order; then --seed and --patch. Later values win.
// Resolution validates every group and key against the registry (unknown
// names are errors with a "did you mean"), parses each winning value by its
// kind (sim/units.h), range-checks it, checks the cross-key rules, and fills
// a soc_config. Errors carry FILE:LINE (or the option) and the key; all of them
// are reported, not just the first.
//
// Files are GKeyFile .ini files (G_KEY_FILE_KEEP_COMMENTS). Since GKeyFile does
// not report positions, each file is also scanned line by line to map
// (group, key) to a line and to report malformed lines and duplicate keys.
// Names starting with "builtin:" are read from the scenarios compiled into the
// binary (scenarios/default.ini and what it includes).
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>
#include "sim/config/did_you_mean.h"
#include "sim/config/registry.h"
#include "sim/config/soc_config.h"

namespace sim {

struct origin {
    std::string file;         // display name of the file, or the option ("-o", "--seed", "--patch")
    unsigned line = 0;        // 1-based line in file; 0 for command-line values
    std::string arg;          // the option's argument for command-line values
    unsigned seq = 0;         // position in the raw layer (later = larger)
    std::string str() const;  // "file:12" or "-o l2.size=1MiB"
};

struct raw_value {
    std::string group, key, text;  // text as written (GKeyFile escapes not yet decoded)
    origin where;
    unsigned group_line = 0;  // line of the [group] header (file values)
    bool append = false;      // adds to a list instead of replacing it (--patch)
};

struct raw_scenario {
    std::vector<raw_value> values;
    std::vector<std::pair<std::string, origin>> groups;  // every [group] header read
    std::vector<std::string> files;                      // every file read, in reading order (display names)
};

// A diagnostic: "<origin>: error: <message>". Always one line: a control
// character that reaches it (in a file name, a key or a value) is written as
// an escape (see message_text), so input cannot start a line of its own.
std::string diag(const origin& o, const std::string& message);

// What the loader accepts; past a limit it reports an error naming the file
// (and line) instead of reading on. Bytes are bytes of the file as stored.
inline constexpr size_t k_scenario_max_file_bytes = 1 << 20;    // one scenario file: 1 MiB
inline constexpr size_t k_scenario_max_line_bytes = 4096;       // one line, without its line ending
inline constexpr unsigned k_scenario_max_files = 256;           // files read for one scenario_read (includes, repeats counted)
inline constexpr size_t k_scenario_max_total_bytes = 4 << 20;   // their total size: 4 MiB
// Errors reported by one scenario_read, and by one scenario_resolve; past
// that, one message says that the rest are not reported.
inline constexpr size_t k_scenario_max_errors = 1000;
// A name or value quoted in a message: at most this many characters, then "…".
inline constexpr size_t k_message_max_chars = 64;
// A path shown in a message: at most this many characters, then "…".
inline constexpr size_t k_message_max_path_chars = 256;

// s as it may appear inside a message: ASCII control characters as \n, \r,
// \t or \xNN, bytes that are not UTF-8 as \xNN, C1 controls, line and
// paragraph separators and bidirectional controls as \uNNNN; cut after
// max_chars characters (escapes count as one) with "…" appended.
std::string message_text(const std::string& s, size_t max_chars = k_message_max_chars);
// message_text in single quotes: "'l2.siz'".
std::string message_quote(const std::string& s, size_t max_chars = k_message_max_chars);
// A path in single quotes, cut at k_message_max_path_chars.
std::string message_path(const std::string& path);

// Read a scenario file and (recursively) its includes into raw. Errors
// (unreadable file, malformed line, duplicate key, include cycle, missing
// include) are appended to *errors; returns false if there were any.
// A name key's value: letters, digits, '.', '_' and '-', not starting with
// '.', at most 100 characters.
bool valid_name(const std::string& s);
// skip_soc: scenario.soc keys read no profile (one was read already, by
// scenario_read_profile, for a -o or --vary scenario.soc).
bool scenario_read(const std::string& path, raw_scenario* raw, std::vector<std::string>* errors,
                   bool skip_soc = false);
// scenarios/profiles/<soc>.ini of fecsim's data directory (drivers/khost/data_dir.h),
// as a file's scenario.soc reads it; errors name `at`.
bool scenario_read_profile(const std::string& soc, const origin& at, raw_scenario* raw,
                           std::vector<std::string>* errors);
// Same, from text already in memory (tests); name is used in messages and to
// resolve relative includes.
bool scenario_read_text(const std::string& name, const std::string& text, raw_scenario* raw,
                        std::vector<std::string>* errors);
// "-o group.key=value". Syntax errors only; names are checked at resolution.
bool scenario_override(const std::string& spec, raw_scenario* raw, std::string* err);
// A value from another option (--seed N, --patch FILE).
void scenario_set(raw_scenario* raw, const std::string& group, const std::string& key, const std::string& text,
                  const std::string& option, const std::string& arg);

struct resolved_scenario {
    soc_config cfg;
    // Declared string keys, "group.key" -> values (one element for single
    // strings, any number for lists; paths are absolute). Includes the keys
    // with a soc_config member (copied there as well).
    std::map<std::string, std::vector<std::string>> strings;
    // "group.key" -> where the winning value came from (absent: default).
    std::map<std::string, origin> set_at;
    std::vector<std::string> files;
};

bool scenario_resolve(const raw_scenario& raw, resolved_scenario* out, std::vector<std::string>* errors);

// Formatted value of any key ("32KiB", "true", "a;b" for lists).
std::string scenario_value(const resolved_scenario& r, const group_entry& g, const std::string& key);
// Where the key set last among those a text names ("group.key" words: a
// rule's keys, a message of the models that rejects the configuration) got
// its value; an origin with an empty file when it names none that a file or
// an option set.
origin origin_of_named_keys(const resolved_scenario& r, const std::string& message);
// "group.key=value\n" for every key of every group (load-only keys excluded):
// the canonical text compared by tests and hashed into the run id.
std::string scenario_canonical(const resolved_scenario& r);
// Short hex hash of the canonical text plus the contents of the patch files.
std::string scenario_hash(const resolved_scenario& r);
// The resolved scenario as a GKeyFile .ini: every key of every group,
// defaults included, each with a comment from its table row (meaning, kind,
// unit, range, default) and where its value came from. `header` becomes the
// comment above the first group.
std::string scenario_dump(const resolved_scenario& r, const std::string& header);

// Scenario files compiled into the binary: "default.ini", "profiles/imx6q.ini", ...
const char* builtin_scenario(const std::string& name);
std::vector<std::string> builtin_scenario_names();

} // namespace sim
