// sim/config/registry.h: the scenario groups fecsim knows, in one table.
//
// A scenario group is either a model's parameter table (models/*/_params.def),
// placed at one member of sim::soc_config, or a set of declared string keys,
// or both. The loader, list-params, the resolved-scenario dump and the
// generated docs all walk this registry, so adding a group is one row in
// registry.cc (plus, for a model, its table symbol). Nothing is free-form:
// a key that is neither a table row nor a declared string key is an error.
#pragma once
#include <cstddef>
#include <string>
#include <vector>
#include "common/params.h"
#include "sim/config/soc_config.h"

namespace sim {

// Declared string keys (values that are not numbers with units).
enum class str_kind : uint8_t {
    text,       // free text (one line)
    name,       // identifier usable as a directory name: [A-Za-z0-9._-], not starting with '.'
    path,       // one existing regular file (a directory where string_key::directory says so);
                // relative paths are taken from the file that sets it
    path_list,  // ';'-separated list of existing regular files (GKeyFile list syntax), same rule
};

struct string_key {
    const char* key;
    str_kind kind;
    const char* def;   // default text ("" = empty / empty list)
    const char* desc;  // one line, shown by list-params, the docs and the resolved dump
    // Where the value lives in soc_config (single-valued keys only); null when
    // no model consumes it yet: the value is then kept in resolved_scenario::strings.
    std::string* (*member)(soc_config&);
    bool load_only;  // consumed by the loader itself (include=): not written to resolved files
    bool directory = false;  // a str_kind::path that names a directory, not a regular file
    bool file_or_directory = false;  // a str_kind::path that may name either
};

struct group_entry {
    const char* name;                  // scenario group, e.g. "l2"
    const char* title;                 // one line: what it is
    // The source files that carry the group out, "models/cache/pl310.{h,cc}"
    // (paths from the top of the tree; {a,b} lists endings), maybe with a few
    // words on which part does what. Shown by list-params and the docs.
    const char* implemented_in;
    const models::param_table* table;  // null for string-only groups
    void* (*config)(soc_config&);      // where the table's config struct lives in soc_config
    const string_key* strings;
    size_t n_strings;
    const char* note;  // extra documentation (may be null)

    const string_key* find_string(const std::string& key) const;
    const models::param_desc* find_param(const std::string& key) const;
    // Every key name, table rows first, in documentation order.
    std::vector<std::string> keys(bool with_load_only = true) const;
};

// All groups in documentation and resolved-file order.
const std::vector<group_entry>& registry_groups();
const group_entry* registry_find(const std::string& group);

// Components that have statistics but no scenario group (their own
// docs/models page): the instance name in stats.json ("sink", "snmp") and
// where they are implemented (as group_entry::implemented_in).
struct stats_component {
    const char* name;
    const char* implemented_in;
};
const std::vector<stats_component>& registry_stats_components();
// implemented_in of a group or a stats component; a name with a numeric
// suffix is an instance of the one without ("cpu0" -> [cpu]). Null if unknown.
const char* registry_implemented_in(const std::string& name);

// The [scenario] group's table (sim/scenario_params.def over scenario_config).
extern const models::param_table scenario_param_table;

// Keys that moved to another group (or were renamed). The loader refuses the
// old name, naming the file:line or option: "cpu.netdev_budget moved to
// [kernel]: write kernel.netdev_budget". One table, in registry.cc.
struct moved_key {
    const char* from;  // old "group.key"
    const char* to;    // its name now, "group.key" (a key of the registry)
};
const std::vector<moved_key>& registry_moved_keys();
// The entry whose old name is group.key, or null.
const moved_key* registry_moved(const std::string& group, const std::string& key);
// "cpu.netdev_budget moved to [kernel]: write kernel.netdev_budget" (the
// caller adds where it was written).
std::string moved_key_message(const moved_key& m);

// Cross-key rules that the models enforce at elaboration (by throwing);
// checked before elaboration so the error can name the keys and the file.
struct config_rule {
    const char* keys;  // the keys involved, "l1.size l1.assoc l1.line"
    // Returns "" when the configuration satisfies the rule, else why not.
    std::string (*check)(const soc_config&);
};
const std::vector<config_rule>& registry_rules();

// A key that the configured driver ignores: set explicitly (in a file or
// with -o) to another value than its default, it is an error naming where
// it was set, instead of a value that silently does nothing. The default
// itself (which a resolved scenario, a sweep's base.ini, writes for every
// key) changes nothing either way and is accepted.
struct inert_key {
    const char* key;  // "driver.copybreak"
    // Returns "" when the key acts in this configuration, else why it does not.
    std::string (*why)(const soc_config&);
};
const std::vector<inert_key>& registry_inert_keys();

} // namespace sim
