#include "sim/registry.h"
#include <cstring>

namespace sim {

using models::param_desc;
using models::param_table;

static const param_desc k_scenario_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(scenario_config, __VA_ARGS__)
#include "sim/scenario_params.def"
#undef P
};
const param_table scenario_param_table = {"scenario", "What the run is: identity, seed and simulated time",
                                          k_scenario_rows, sizeof k_scenario_rows / sizeof k_scenario_rows[0]};

namespace {

const string_key k_scenario_strings[] = {
    {"id", str_kind::name, "default", "Scenario name; results go to <out>/<id>/. Letters, digits, '.', '_' and '-'",
     [](soc_config& c) { return &c.scenario.id; }, false},
    {"description", str_kind::text, "", "One line saying what the scenario shows",
     [](soc_config& c) { return &c.scenario.description; }, false},
    {"include", str_kind::path_list, "",
     "Files read before this one (';'-separated, relative to this file); this file's keys override "
     "theirs. Resolved files contain the result, not the include",
     nullptr, true},
};

const string_key k_soc_strings[] = {
    {"profile", str_kind::name, "imx6q",
     "Name of the SoC profile the scenario describes (recorded in the results; the parameters themselves "
     "are the groups below, usually included from scenarios/profiles/<name>.ini)",
     nullptr, false},
};

const string_key k_driver_strings[] = {
    {"source", str_kind::path, "",
     "Driver source directory to build and run (empty: fecsim's own drivers/fec). Recorded only: the "
     "driver runner is not part of this build yet",
     nullptr, false},
    {"patches", str_kind::path_list, "",
     "Unified diffs applied to the driver sources before building (';'-separated; --patch appends). "
     "Validated and recorded only: the driver runner is not part of this build yet",
     nullptr, false},
};

template <typename T, size_t N>
constexpr size_t count_of(const T (&)[N])
{
    return N;
}

bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

std::string cache_geometry(const char* name, uint64_t size, unsigned assoc, unsigned line)
{
    if (!pow2(line))
        return std::string(name) + ".line must be a power of two";
    const uint64_t way_bytes = (uint64_t)assoc * line;
    if (size % way_bytes)
        return std::string(name) + ".size must be a multiple of " + name + ".assoc * " + name + ".line";
    if (!pow2(size / way_bytes))
        return std::string("the number of sets (") + name + ".size / (" + name + ".assoc * " + name +
               ".line)) must be a power of two";
    return "";
}

} // namespace

const std::vector<group_entry>& registry_groups()
{
    // Order: [scenario] first, then the SoC from the cores outwards, then software.
    static const std::vector<group_entry> groups = {
        {"scenario", scenario_param_table.title, &scenario_param_table,
         [](soc_config& c) -> void* { return &c.scenario; }, k_scenario_strings, count_of(k_scenario_strings),
         "Every scenario file should open with this group. include= is only read from files, not from -o."},
        {"soc", "The SoC the scenario describes", nullptr, nullptr, k_soc_strings, count_of(k_soc_strings), nullptr},
        {"cpu", models::cpu::cpu_param_table.title, &models::cpu::cpu_param_table,
         [](soc_config& c) -> void* { return &c.cpu; }, nullptr, 0,
         "cores sets the number of L1 caches; clock is also the clock of the L1s and the memory hog, and "
         "the clock of \"N cycles\" in [scenario] times."},
        {"l1", models::cache::l1_param_table.title, &models::cache::l1_param_table,
         [](soc_config& c) -> void* { return &c.mem.l1; }, nullptr, 0,
         "The L1 runs at [cpu] clock. seed is currently replaced by [scenario] seed at elaboration "
         "(sim/soc.cc), so setting it has no effect."},
        {"l2", models::cache::l2_param_table.title, &models::cache::l2_param_table,
         [](soc_config& c) -> void* { return &c.mem.l2; }, nullptr, 0,
         "seed is currently replaced by [scenario] seed at elaboration (sim/soc.cc), so setting it has no "
         "effect."},
        {"noc", models::mem::noc_param_table.title, &models::mem::noc_param_table,
         [](soc_config& c) -> void* { return &c.mem.noc; }, nullptr, 0, nullptr},
        {"dram", models::mem::dram_param_table.title, &models::mem::dram_param_table,
         [](soc_config& c) -> void* { return &c.mem.dram; }, nullptr, 0, nullptr},
        {"stress", models::mem::stress_param_table.title, &models::mem::stress_param_table,
         [](soc_config& c) -> void* { return &c.mem.stress; }, nullptr, 0,
         "The workers run at [cpu] clock and allocate past dram.backed."},
        {"driver", "The network driver under test", nullptr, nullptr, k_driver_strings, count_of(k_driver_strings),
         "No driver runs in this build yet; the keys are validated and recorded."},
    };
    return groups;
}

const group_entry* registry_find(const std::string& group)
{
    for (const auto& g : registry_groups())
        if (group == g.name)
            return &g;
    return nullptr;
}

const string_key* group_entry::find_string(const std::string& key) const
{
    for (size_t i = 0; i < n_strings; i++)
        if (key == strings[i].key)
            return &strings[i];
    return nullptr;
}

const param_desc* group_entry::find_param(const std::string& key) const
{
    return table ? table->find(key.c_str()) : nullptr;
}

std::vector<std::string> group_entry::keys(bool with_load_only) const
{
    std::vector<std::string> k;
    if (table)
        for (const auto& d : *table)
            k.push_back(d.key);
    for (size_t i = 0; i < n_strings; i++)
        if (with_load_only || !strings[i].load_only)
            k.push_back(strings[i].key);
    return k;
}

const std::vector<config_rule>& registry_rules()
{
    static const std::vector<config_rule> rules = {
        {"l1.size l1.assoc l1.line",
         [](const soc_config& c) {
             return cache_geometry("l1", c.mem.l1.size_bytes, c.mem.l1.assoc, c.mem.l1.line_bytes);
         }},
        {"l2.size l2.assoc l2.line",
         [](const soc_config& c) {
             return cache_geometry("l2", c.mem.l2.size_bytes, c.mem.l2.assoc, c.mem.l2.line_bytes);
         }},
        {"dram.backed dram.size",
         [](const soc_config& c) -> std::string {
             return c.mem.dram.backed <= c.mem.dram.size ? "" : "dram.backed must not exceed dram.size";
         }},
        {"stress.core stress.workers cpu.cores stress.enabled",
         [](const soc_config& c) -> std::string {
             if (c.mem.stress.enabled && c.mem.stress.core + c.mem.stress.workers > c.cpu.cores)
                 return "the memory hog's workers run on cores stress.core .. stress.core + stress.workers - 1, "
                        "which must exist (cpu.cores)";
             return "";
         }},
        {"stress.workers stress.vm_bytes dram.size dram.backed stress.enabled",
         [](const soc_config& c) -> std::string {
             const auto& s = c.mem.stress;
             const uint64_t need = c.mem.dram.backed + (uint64_t)s.workers * ((s.vm_bytes + 4095) / 4096 * 4096);
             if (s.enabled && need > c.mem.dram.size)
                 return "stress.workers * stress.vm_bytes must fit in dram.size past dram.backed";
             return "";
         }},
    };
    return rules;
}

} // namespace sim
