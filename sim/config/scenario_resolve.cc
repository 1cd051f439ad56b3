// sim/config/scenario_resolve.cc: raw layer -> resolved configuration
// (validation against the registry, parsing by kind, range checks, the
// cross-key rules).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <glib.h>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include "sim/config/scenario.h"
#include "sim/config/scenario_text.h"
#include "sim/config/units.h"

namespace sim {

using namespace loader;
using models::param_desc;
using models::param_kind;

bool valid_name(const std::string& s)
{
    if (s.empty() || s[0] == '.' || s.size() > 100)
        return false;
    for (char c : s)
        if (!g_ascii_isalnum(c) && c != '.' && c != '_' && c != '-')
            return false;
    return true;
}

namespace {

// Absolute path of an existing regular file (a directory if `dir`; either
// if `either`) named in a value from `o`. Nothing else is accepted: a FIFO
// or a device would block or never end when it is read.
bool resolve_path(const origin& o, const std::string& item, bool dir, bool either, std::string* abs,
                  std::string* why)
{
    std::string p = item;
    if (o.line && !starts_with(o.file, k_builtin))
        p = relative_to(o.file, item);
    struct stat st;
    if (stat(p.c_str(), &st) != 0) {
        *why = message_path(item) + ": no such file" +
               (p != item ? " (looked for " + message_text(p, k_message_max_path_chars) + ")" : std::string());
        return false;
    }
    if (either && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
        // accepted as it is
    } else if (either) {
        *why = message_path(item) + " is neither a directory nor a regular file";
        return false;
    } else if (dir && !S_ISDIR(st.st_mode)) {
        *why = message_path(item) + " is not a directory";
        return false;
    }
    if (!either && !dir && !S_ISREG(st.st_mode)) {
        *why = message_path(item) + (S_ISDIR(st.st_mode) ? " is a directory, not a file" : " is not a regular file");
        return false;
    }
    char* rp = realpath(p.c_str(), nullptr);
    *abs = rp ? rp : p;
    free(rp);
    return true;
}

// Errors of one resolution, reported in reading order (by origin seq).
class diagnostics {
public:
    // At most k_scenario_max_errors are kept, then one saying the rest are not.
    void add(const origin& o, const std::string& m)
    {
        if (m_errs.size() < k_scenario_max_errors)
            m_errs.push_back({o.seq, diag(o, m)});
        else if (m_errs.size() == k_scenario_max_errors)
            m_errs.push_back({~0u, diag(o, "more than " + std::to_string(k_scenario_max_errors) +
                                               " errors; the others are not reported")});
    }
    bool empty() const { return m_errs.empty(); }
    // No further message is kept: callers need not build one.
    bool full() const { return m_errs.size() > k_scenario_max_errors; }
    // Appends the messages to *errors, sorted by seq (stable: same-seq
    // messages keep the order they were found in).
    void flush(std::vector<std::string>* errors)
    {
        std::stable_sort(m_errs.begin(), m_errs.end(),
                         [](const std::pair<unsigned, std::string>& a, const std::pair<unsigned, std::string>& b) {
                             return a.first < b.first;
                         });
        for (const auto& e : m_errs)
            errors->push_back(e.second);
    }

private:
    std::vector<std::pair<unsigned, std::string>> m_errs;
};

// Per "group.key", the raw values that apply, in reading order: the last one
// wins; --patch appends are all kept.
using value_map = std::map<std::string, std::vector<const raw_value*>>;

std::string unknown_group(const std::string& name)
{
    std::vector<std::string> names;
    for (const auto& g : registry_groups())
        names.push_back(g.name);
    std::string m = "unknown group [" + message_text(name) + "]";
    const std::string c = closest_name(name, names, "[", "]");
    if (!c.empty())
        return m + "; did you mean " + c + "?";
    m += " (known:";
    for (const auto& n : names)
        m += " [" + n + "]";
    return m + ")";
}

// Unknown [group] headers in files, once per header, ordered before the
// group's first key (or last if it has none).
void check_group_headers(const raw_scenario& raw, diagnostics& d)
{
    std::map<std::pair<std::string, unsigned>, unsigned> first_key;  // (file, header line) -> seq
    for (const auto& v : raw.values)
        if (v.where.line)
            first_key.insert({{v.where.file, v.group_line}, v.where.seq});
    for (const auto& g : raw.groups) {
        if (registry_find(g.first))
            continue;
        origin o = g.second;
        auto it = first_key.find({o.file, o.line});
        o.seq = it == first_key.end() ? ~0u : it->second;
        d.add(o, d.full() ? std::string() : unknown_group(g.first));
    }
}

// "unknown key ..." with the closest keys of g and the groups that have the key.
std::string unknown_key(const group_entry& g, const std::string& key)
{
    std::string m = "unknown key " + message_quote(key) + " in [" + g.name + "]";
    const std::string c = closest_name(key, g.keys(false));
    std::vector<std::string> elsewhere;
    for (const auto& o : registry_groups())
        if (&o != &g && (o.find_param(key) || o.find_string(key)))
            elsewhere.push_back(std::string("[") + o.name + "]");
    if (!c.empty())
        m += "; did you mean " + c + "?";
    if (!elsewhere.empty()) {
        m += c.empty() ? "; " : " (";
        m += message_quote(key) + " is a key of ";
        for (size_t i = 0; i < elsewhere.size(); i++)
            m += (i ? ", " : "") + elsewhere[i];
        if (!c.empty())
            m += ")";
    }
    if (c.empty() && elsewhere.empty()) {
        m += " (keys:";
        for (const auto& k : g.keys(false))
            m += " " + k;
        m += ")";
    }
    return m;
}

// The raw values of known keys, by key; every other value (unknown or moved
// key, load-only key from an option) is an error.
value_map applicable_values(const raw_scenario& raw, diagnostics& d)
{
    value_map values;
    for (const auto& v : raw.values) {
        if (const moved_key* m = registry_moved(v.group, v.key)) {
            d.add(v.where, moved_key_message(*m));
            continue;
        }
        const group_entry* g = registry_find(v.group);
        if (!g) {
            if (!v.where.line)  // file groups are reported by check_group_headers
                d.add(v.where, d.full() ? std::string() : unknown_group(v.group));
            continue;
        }
        const string_key* sk = g->find_string(v.key);
        if (!g->find_param(v.key) && !sk) {
            d.add(v.where, d.full() ? std::string() : unknown_key(*g, v.key));
            continue;
        }
        if (sk && sk->load_only) {
            d.add(v.where, gk(*g, v.key) + " can only be set in a scenario file");
            continue;
        }
        auto& slot = values[gk(*g, v.key)];
        if (!v.append)
            slot.clear();
        slot.push_back(&v);
    }
    return values;
}

// "N cycles" in times is relative to the CPU clock: the clock that applies,
// or the [cpu] default when cpu.clock is unset or does not parse.
units_context units_of(const value_map& values)
{
    units_context ctx;
    ctx.cpu_hz = models::cpu::cpu_config().clock_hz;
    if (auto it = values.find("cpu.clock"); it != values.end()) {
        double hz;
        if (units_parse_kind(param_kind::hz, it->second.back()->text, &hz, nullptr))
            ctx.cpu_hz = hz;
    }
    return ctx;
}

// g's table: defaults, then each winning value parsed, range-checked and stored.
void resolve_table(const group_entry& g, const value_map& values, const units_context& ctx, resolved_scenario* out,
                   diagnostics& diags)
{
    void* c = g.config(out->cfg);
    models::param_defaults(c, *g.table);
    for (const auto& d : *g.table) {
        auto it = values.find(gk(g, d.key));
        if (it == values.end())
            continue;
        const raw_value& v = *it->second.back();
        double x;
        std::string why;
        if (!units_parse(d, v.text, &x, &why, ctx)) {
            if (v.text.find('#') != std::string::npos)
                why += " (a comment must be on a line of its own)";
            diags.add(v.where, gk(g, d.key) + ": " + why);
            continue;
        }
        if (!(x >= d.min && x <= d.max)) {
            diags.add(v.where, gk(g, d.key) + ": " + message_quote(trim(v.text)) + " is out of range: allowed " +
                                   units_format(d, d.min) + " .. " + units_format(d, d.max));
            continue;
        }
        if (!models::param_set(c, d, x, &why)) {
            diags.add(v.where, gk(g, d.key) + ": " + why);
            continue;
        }
        out->set_at[gk(g, d.key)] = v.where;
    }
}

// One item of string key `name` as set by v, checked by kind; paths become
// absolute. False (and an error) if it is not acceptable.
bool string_item(const string_key& s, const std::string& name, const raw_value& v, const std::string& item,
                 std::string* val, diagnostics& d)
{
    std::string why;
    *val = item;
    // A name whose default is empty may be empty (scenario.soc: no profile).
    if (s.kind == str_kind::name && !(item.empty() && !*s.def) && !valid_name(item)) {
        d.add(v.where, name + ": " + message_quote(item) +
                           " is not a valid name: use letters, digits, '.', '_' and '-', not starting with '.'");
        return false;
    }
    if ((s.kind == str_kind::path || s.kind == str_kind::path_list) && !item.empty() &&
        !resolve_path(v.where, item, s.directory, s.file_or_directory, val, &why)) {
        d.add(v.where, name + ": " + why);
        return false;
    }
    if (s.kind == str_kind::text && item.find('\n') != std::string::npos) {
        d.add(v.where, name + ": must be a single line");
        return false;
    }
    return true;
}

// The values of string key s from the raw values that apply (in order):
// a list accumulates, a single value is the last one.
std::vector<std::string> string_values(const string_key& s, const std::string& name,
                                       const std::vector<const raw_value*>& raws, diagnostics& d)
{
    std::vector<std::string> vals;
    for (const raw_value* v : raws) {
        std::vector<std::string> items;
        if (s.kind == str_kind::path_list && !v->append)
            items = decode_list(v->text);
        else
            items = {v->append ? v->text : decode_string(v->text)};
        if (s.kind != str_kind::path_list)
            vals.clear();
        for (const auto& item : items) {
            std::string val;
            if (string_item(s, name, *v, item, &val, d))
                vals.push_back(val);
        }
    }
    if (s.kind != str_kind::path_list && vals.empty())
        vals = {""};
    return vals;
}

// g's declared string keys into out->strings (and their soc_config members).
void resolve_strings(const group_entry& g, const value_map& values, resolved_scenario* out, diagnostics& d)
{
    for (size_t i = 0; i < g.n_strings; i++) {
        const string_key& s = g.strings[i];
        if (s.load_only)
            continue;
        const std::string name = gk(g, s.key);
        std::vector<std::string> vals;
        auto it = values.find(name);
        if (it == values.end()) {
            vals = s.kind == str_kind::path_list ? decode_list(s.def) : std::vector<std::string>{s.def};
        } else {
            out->set_at[name] = it->second.back()->where;
            vals = string_values(s, name, it->second, d);
        }
        out->strings[name] = vals;
        if (s.member)
            *s.member(out->cfg) = vals.empty() ? "" : vals.front();
    }
}

// String lists that models take as vectors: driver.patches, traffic.size_list
// (an item that is not a whole number becomes 0, which the size_list rule rejects).
void fill_lists(resolved_scenario* out)
{
    if (auto it = out->strings.find("driver.patches"); it != out->strings.end())
        out->cfg.driver.patches = it->second;
    auto it = out->strings.find("traffic.size_list");
    if (it == out->strings.end() || it->second.empty())
        return;
    out->cfg.traffic.size_list.clear();
    std::stringstream ss(it->second.front());
    std::string item;
    while (std::getline(ss, item, ',')) {
        char* end = nullptr;
        const unsigned long v = std::strtoul(item.c_str(), &end, 10);
        out->cfg.traffic.size_list.push_back(item.empty() || *end ? 0 : (uint32_t)v);
    }
}

// The cross-key rules; each error points at the key set last among those
// involved and lists their values.
void check_rules(const resolved_scenario& r, diagnostics& d)
{
    for (const auto& rule : registry_rules()) {
        const std::string why = rule.check(r.cfg);
        if (why.empty())
            continue;
        std::string now;
        std::stringstream ss(rule.keys);
        std::string k;
        while (ss >> k) {
            const size_t dot = k.find('.');
            const group_entry* g = registry_find(k.substr(0, dot));
            now += (now.empty() ? "" : ", ") + k + "=" + scenario_value(r, *g, k.substr(dot + 1));
        }
        d.add(origin_of_named_keys(r, rule.keys), why + " (" + now + ")");
    }
}

// Keys set explicitly that the configured driver ignores (registry_inert_keys).
void check_inert_keys(const resolved_scenario& r, diagnostics& d)
{
    for (const auto& k : registry_inert_keys()) {
        auto it = r.set_at.find(k.key);
        if (it == r.set_at.end())
            continue;
        const std::string why = k.why(r.cfg);
        if (!why.empty())
            d.add(it->second, std::string(k.key) + " is set, but " + why);
    }
}

} // namespace

origin origin_of_named_keys(const resolved_scenario& r, const std::string& message)
{
    const origin* last = nullptr;
    const auto word_char = [](char c) { return g_ascii_isalnum(c) || c == '_' || c == '.'; };
    for (size_t i = 0; i < message.size();) {
        if (!word_char(message[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < message.size() && word_char(message[j]))
            j++;
        std::string w = message.substr(i, j - i);
        while (!w.empty() && w.back() == '.')  // the end of a sentence
            w.pop_back();
        auto it = r.set_at.find(w);
        if (it != r.set_at.end() && (!last || it->second.seq >= last->seq))
            last = &it->second;
        i = j;
    }
    return last ? *last : origin{};
}

bool scenario_resolve(const raw_scenario& raw, resolved_scenario* out, std::vector<std::string>* errors)
{
    diagnostics d;
    *out = resolved_scenario();
    out->files = raw.files;
    check_group_headers(raw, d);
    const value_map values = applicable_values(raw, d);
    const units_context ctx = units_of(values);
    for (const auto& g : registry_groups()) {
        if (g.table)
            resolve_table(g, values, ctx, out, d);
        resolve_strings(g, values, out, d);
    }
    fill_lists(out);
    if (d.empty()) {  // the rules only make sense for values that are each valid
        check_rules(*out, d);
        check_inert_keys(*out, d);
    }
    const bool ok = d.empty();
    d.flush(errors);
    return ok;
}

} // namespace sim
