#include "sim/config/docs.h"
#include <algorithm>
#include <cctype>
#include <set>
#include "sim/config/units.h"

namespace sim {

using models::param_desc;
using models::param_kind;

namespace {

struct row {
    std::string key, type, unit, def, range, desc;
};

const char* str_kind_name(str_kind k)
{
    switch (k) {
    case str_kind::text: return "text";
    case str_kind::name: return "name";
    case str_kind::path: return "path";
    case str_kind::path_list: return "paths";
    }
    return "";
}

std::string range_of(const param_desc& d)
{
    if (d.kind == param_kind::boolean)
        return "true/false";
    if (d.kind == param_kind::choice)
        return d.unit;
    return units_format(d, d.min) + " .. " + units_format(d, d.max);
}

std::vector<row> rows_of(const group_entry& g)
{
    std::vector<row> r;
    if (g.table)
        for (const auto& d : *g.table)
            r.push_back({d.key, units_kind_name(d.kind), d.kind == param_kind::choice ? "" : d.unit,
                         units_format(d, d.def), range_of(d), d.desc});
    for (size_t i = 0; i < g.n_strings; i++) {
        const string_key& s = g.strings[i];
        r.push_back({s.key, str_kind_name(s.kind), "", s.def, "", s.desc});
    }
    return r;
}

std::vector<std::string> wrap(const std::string& text, size_t width)
{
    std::vector<std::string> lines;
    if (width < 20) {
        lines.push_back(text);
        return lines;
    }
    std::string cur, word;
    auto flush_word = [&]() {
        if (word.empty())
            return;
        if (!cur.empty() && cur.size() + 1 + word.size() > width) {
            lines.push_back(cur);
            cur.clear();
        }
        cur += (cur.empty() ? "" : " ") + word;
        word.clear();
    };
    for (char c : text) {
        if (c == ' ')
            flush_word();
        else
            word += c;
    }
    flush_word();
    if (!cur.empty() || lines.empty())
        lines.push_back(cur);
    return lines;
}

std::string md_cell(const std::string& s)
{
    std::string r;
    for (char c : s) {
        if (c == '|')
            r += "\\|";
        else if (c == '<')
            r += "&lt;";
        else if (c == '>')
            r += "&gt;";
        else
            r += c;
    }
    return r;
}

std::string md_code(const std::string& s) { return s.empty() ? "" : "`" + s + "`"; }

std::string md_table(const group_entry& g)
{
    std::string o = "| key | type | unit | default | range | description |\n|---|---|---|---|---|---|\n";
    for (const auto& r : rows_of(g))
        o += "| `" + r.key + "` | " + r.type + " | " + md_cell(r.unit) + " | " +
             (r.def.empty() ? std::string("(empty)") : md_code(r.def)) + " | " +
             md_cell(r.range.empty() ? "" : r.range) + " | " + md_cell(r.desc) + " |\n";
    return o;
}

// "l1_3" -> "l1"; "l2" -> "l2".
std::string instance_base(const std::string& inst)
{
    size_t u = inst.rfind('_');
    if (u != std::string::npos && u + 1 < inst.size() &&
        std::all_of(inst.begin() + (long)u + 1, inst.end(), [](char c) { return std::isdigit((unsigned char)c); }))
        return inst.substr(0, u);
    return inst;
}

std::string first_part(const std::string& name)
{
    const size_t d = name.find('.');
    return d == std::string::npos ? name : name.substr(0, d);
}

} // namespace

std::string params_text(const std::string& group, int width)
{
    std::string o;
    for (const auto& g : registry_groups()) {
        if (!group.empty() && group != g.name)
            continue;
        const auto rows = rows_of(g);
        size_t w[5] = {3, 4, 4, 7, 5};
        for (const auto& r : rows) {
            w[0] = std::max(w[0], r.key.size());
            w[1] = std::max(w[1], r.type.size());
            w[2] = std::max(w[2], r.unit.size());
            w[3] = std::max(w[3], r.def.size());
            w[4] = std::max(w[4], r.range.size());
        }
        if (!o.empty())
            o += "\n";
        o += std::string("[") + g.name + "] " + g.title + "\n";
        for (const auto& l : wrap(std::string("Implemented in: ") + g.implemented_in, width > 0 ? (size_t)width - 2 : 0))
            o += "  " + l + "\n";
        if (g.note)
            for (const auto& l : wrap(g.note, width > 0 ? (size_t)width - 2 : 0))
                o += "  " + l + "\n";
        auto cell = [](const std::string& s, size_t n) { return s + std::string(n + 2 - s.size(), ' '); };
        const size_t indent = 2 + w[0] + w[1] + w[2] + w[3] + w[4] + 10;
        o += "  " + cell("key", w[0]) + cell("type", w[1]) + cell("unit", w[2]) + cell("default", w[3]) +
             cell("range", w[4]) + "description\n";
        for (const auto& r : rows) {
            const size_t room = width > 0 && (size_t)width > indent + 20 ? (size_t)width - indent : 0;
            const auto lines = wrap(r.desc, room);
            o += "  " + cell(r.key, w[0]) + cell(r.type, w[1]) + cell(r.unit, w[2]) + cell(r.def, w[3]) +
                 cell(r.range, w[4]) + lines[0] + "\n";
            for (size_t i = 1; i < lines.size(); i++)
                o += std::string(indent, ' ') + lines[i] + "\n";
        }
    }
    return o;
}

std::string params_markdown_format()
{
    std::string o;
    o += "# Scenario file format\n\n"
         "<!-- Generated from the parameter tables by `fecsim list-params --markdown` (`make docs`).\n"
         "     Do not edit: change the tables (models/*/*_params.def, drivers/khost/*_params.def,\n"
         "     sim/config/*_params.def, sim/config/registry.cc) instead. -->\n\n";
    o += "A scenario is a GKeyFile `.ini` file. It opens with a `[scenario]` group and has one group per\n"
         "component; the keys of a group are exactly the names in that component's parameter table\n"
         "(below). Values carry their unit. Lines starting with `#` are comments; a comment cannot\n"
         "follow a value on the same line.\n\n"
         "```ini\n"
         "# What this scenario shows, in a sentence or two.\n"
         "[scenario]\n"
         "id=imx6q-copybreak-stock-stress\n"
         "description=i.MX6Q, stock fec driver, copybreak path, stress -m 1 --vm-bytes 100M\n"
         "include=copybreak-stock-idle.ini\n"
         "duration=10ms\n\n"
         "[stress]\n"
         "enabled=true\n"
         "vm_bytes=100MiB\n"
         "```\n\n"
         "## Layering: include, later wins, overrides\n\n"
         "- `include=` in `[scenario]` names files (`;`-separated, relative to the including file)\n"
         "  that are read *before* the including file, in the order listed; their own includes are read\n"
         "  first in turn. Typical use: a SoC profile (`scenarios/profiles/imx6q.ini`) and a shared base\n"
         "  scenario. An include cycle or a missing file is an error naming the `include=` line.\n"
         "- When a key is set more than once, the value read last wins: the including file over its\n"
         "  includes, a later file on the command line (`fecsim run a.ini b.ini`) over an earlier one.\n"
         "  Setting the same key twice in one file is an error.\n"
         "- On the command line, `-o group.key=value` (repeatable) is applied after all files, in order;\n"
         "  then `--seed N` (= `-o scenario.seed=N`); `--patch FILE` appends to `driver.patches`.\n"
         "- Without a scenario file `fecsim run` uses the built-in `builtin:default.ini`\n"
         "  (`scenarios/default.ini` and the files it includes, compiled in).\n\n"
         "## Values and units\n\n"
         "| type | accepted values |\n|---|---|\n";
    size_t n_kinds;
    const param_kind* kinds = units_kinds(&n_kinds);
    for (const param_kind k : std::vector<param_kind>(kinds, kinds + n_kinds))
        o += std::string("| ") + units_kind_name(k) + " | " + md_cell(units_kind_syntax(k)) + " |\n";
    o += "| text | any one-line text (GKeyFile string escapes apply) |\n"
         "| name | letters, digits, `.`, `_` and `-`, not starting with `.` (used as a directory name) |\n"
         "| path | an existing file or directory; relative to the file that sets it (to the working "
         "directory on the command line) |\n"
         "| paths | `;`-separated list of existing files, same rule |\n\n"
         "Sizes: `kB`, `MB`, `GB` are powers of 1000, `KiB`, `MiB`, `GiB` powers of 1024, a plain number\n"
         "is bytes. Times need a unit; `Ncycles` in a time means N periods of the CPU clock\n"
         "(`[cpu] clock`), each rounded to a whole picosecond as the models do. Values are stored in base\n"
         "units (bytes, cycles of the owning model's clock, Hz, bit/s, picoseconds) and printed back in\n"
         "the largest unit that is exact (`32KiB`, `996MHz`, `21.28us`).\n\n"
         "## Validation\n\n"
         "`fecsim check FILE` and every command that reads a scenario stop with exit status 2 and a\n"
         "message `FILE:LINE: error: ...` (or `error: -o ...: ...` for options) on: an unknown group or\n"
         "key (with a *did you mean*), a value that does not parse (the message says what is allowed),\n"
         "a value out of range (the message gives the range), a malformed line, a duplicate key, a\n"
         "missing include or an include cycle, and combinations the models reject (cache geometry,\n"
         "memory-hog placement, cores that do not exist, a multicast group that is not one, FIFO and\n"
         "burst sizes that are not whole bus words, transmit and link-partner features that need a\n"
         "kernel tree's driver): the message points at the key of the combination set last and lists\n"
         "the values of all of them. A combination that only the models find at elaboration (`fecsim\n"
         "check` elaborates them; a kernel tree's driver is built for it) is reported the same way, at\n"
         "the key set last among those the models' message names, or at the file when it names none\n"
         "that was set. A driver that cannot be built or booted (a patch that does not apply, a define\n"
         "its files lack, a tree that is not one) is reported at the key its message names, else at the\n"
         "driver key set last among `driver.patches`, `driver.defines`, `driver.tree`, `driver.source`\n"
         "and `driver.name` (`--patch FILE` counts as setting `driver.patches`). Nothing is written when\n"
         "the input is bad.\n\n"
         "## The resolved scenario\n\n"
         "Every run writes `scenario.resolved.ini`: every key of every group below, defaults included,\n"
         "each with a comment giving its meaning, type, range, default and where its value came from.\n"
         "It is a valid scenario: `fecsim run results/<id>/<run>/scenario.resolved.ini` reproduces the\n"
         "run (compare key by key, not byte by byte: GKeyFile's comment handling varies between\n"
         "versions).\n\n"
         "## Groups and keys\n\n";
    for (const auto& g : registry_groups())
        o += std::string("- [`[") + g.name + "]`](#" + g.name + ") " + g.title + "\n";
    for (const auto& g : registry_groups()) {
        o += std::string("\n### ") + g.name + "\n\n`[" + g.name + "]`: " + g.title + ".";
        if (g.note)
            o += std::string(" ") + g.note;
        o += std::string("\n\nImplemented in: ") + g.implemented_in + "\n\n" + md_table(g);
    }
    return o;
}

std::vector<std::string> docs_model_pages(const std::vector<stat_entry>& stats)
{
    std::vector<std::string> pages;
    for (const auto& g : registry_groups())
        pages.push_back(g.name);
    for (const auto& s : stats) {
        const std::string b = instance_base(first_part(s.name));
        if (std::find(pages.begin(), pages.end(), b) == pages.end())
            pages.push_back(b);
    }
    return pages;
}

std::string params_markdown_model(const std::string& group, const std::vector<stat_entry>& stats,
                                  const std::vector<stat_entry>& derived_all)
{
    const group_entry* g = registry_find(group);
    std::string o = "# " + group;
    if (g)
        o += std::string(": ") + g->title;
    o += "\n\n<!-- Generated from the parameter and statistics tables by `fecsim list-params --markdown " + group +
         "` (`make docs`). Do not edit. -->\n\n";
    if (const char* impl = registry_implemented_in(group))
        o += std::string("Implemented in: ") + impl + "\n\n";
    if (g) {
        if (g->note)
            o += std::string(g->note) + "\n\n";
        o += "## Parameters (`[" + group + "]`)\n\n" + md_table(*g) + "\n";
    } else {
        o += "No scenario group: this component has no parameters of its own.\n\n";
    }
    // Statistics of the instances of this component.
    std::vector<std::string> instances;
    std::vector<const stat_entry*> rows;
    std::set<std::string> seen;
    for (const auto& s : stats) {
        const std::string inst = first_part(s.name);
        if (instance_base(inst) != group)
            continue;
        if (std::find(instances.begin(), instances.end(), inst) == instances.end())
            instances.push_back(inst);
        const std::string leaf = s.name.substr(inst.size() + 1);
        if (seen.insert(leaf).second)
            rows.push_back(&s);
    }
    if (rows.empty()) {
        o += "## Statistics\n\nNone in this build.\n";
        return o;
    }
    o += "## Statistics\n\nRaw counters, reset at the end of the warm-up; in `stats.txt` and `stats.json` as\n"
         "`<instance>.<name>`. Instances in the default configuration: ";
    for (size_t i = 0; i < instances.size(); i++)
        o += (i ? ", " : "") + md_code(instances[i]);
    o += ".\n\n| name | unit | description |\n|---|---|---|\n";
    for (const auto* s : rows) {
        const std::string leaf = s->name.substr(first_part(s->name).size() + 1);
        o += "| `" + leaf + "` | " + md_cell(s->unit) + " | " + md_cell(s->desc) + " |\n";
    }
    std::vector<stat_entry> derived;
    std::set<std::string> derived_seen;
    for (const auto& d : derived_all) {
        const std::string inst = first_part(d.name);
        if (std::find(instances.begin(), instances.end(), inst) != instances.end() &&
            derived_seen.insert(d.name.substr(inst.size() + 1)).second)
            derived.push_back(d);
    }
    if (!derived.empty()) {
        o += "\nDerived at dump time (in `derived` of `stats.json`; `nan`/`null` when the denominator is 0):\n\n"
             "| name | formula |\n|---|---|\n";
        for (const auto& d : derived)
            o += "| `" + d.name.substr(first_part(d.name).size() + 1) + "` | " + md_cell(d.desc) + " |\n";
    }
    return o;
}

} // namespace sim
