#include "sim/config/scenario.h"
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <glib.h>
#include <set>
#include <sstream>
#include "sim/builtin_scenarios.h"
#include "sim/config/units.h"

namespace sim {

using models::param_desc;
using models::param_kind;

static const char k_builtin[] = "builtin:";

// ---------------------------------------------------------------- helpers

std::string origin::str() const
{
    if (line)
        return file + ":" + std::to_string(line);
    if (!arg.empty())
        return file + " " + arg;
    return file;
}

std::string diag(const origin& o, const std::string& message)
{
    const std::string w = o.str();
    if (w.empty())
        return "error: " + message;
    if (o.line)
        return w + ": error: " + message;
    return "error: " + w + ": " + message;
}

static bool starts_with(const std::string& s, const char* p) { return s.compare(0, std::strlen(p), p) == 0; }

static std::string trim(const std::string& s)
{
    size_t a = 0, b = s.size();
    while (a < b && g_ascii_isspace(s[a]))
        a++;
    while (b > a && g_ascii_isspace(s[b - 1]))
        b--;
    return s.substr(a, b - a);
}

// Lexical normalisation of a relative or absolute path ("a/./b/../c" -> "a/c").
static std::string normalize(const std::string& p)
{
    const bool abs = !p.empty() && p[0] == '/';
    std::vector<std::string> out;
    std::stringstream ss(p);
    std::string part;
    while (std::getline(ss, part, '/')) {
        if (part.empty() || part == ".")
            continue;
        if (part == ".." && !out.empty() && out.back() != "..") {
            out.pop_back();
            continue;
        }
        if (part == ".." && abs)
            continue;
        out.push_back(part);
    }
    std::string r = abs ? "/" : "";
    for (size_t i = 0; i < out.size(); i++)
        r += (i ? "/" : "") + out[i];
    return r.empty() ? "." : r;
}

static std::string dir_of(const std::string& name)
{
    const size_t s = name.rfind('/');
    if (starts_with(name, k_builtin)) {
        const std::string rel = name.substr(sizeof k_builtin - 1);
        const size_t r = rel.rfind('/');
        return r == std::string::npos ? "" : rel.substr(0, r);
    }
    if (s == std::string::npos)
        return ".";
    return s == 0 ? "/" : name.substr(0, s);
}

// Path `rel` as written in file `from` (or on the command line when from == "").
static std::string relative_to(const std::string& from, const std::string& rel)
{
    if (starts_with(from, k_builtin)) {
        const std::string d = dir_of(from);
        return k_builtin + normalize(d.empty() ? rel : d + "/" + rel);
    }
    if (!rel.empty() && rel[0] == '/')
        return normalize(rel);
    if (from.empty())
        return normalize(rel);
    const std::string d = dir_of(from);
    return normalize(d == "." ? rel : d + "/" + rel);
}

const char* builtin_scenario(const std::string& name)
{
    for (const auto& b : k_builtin_scenarios)
        if (name == b.name)
            return b.text;
    return nullptr;
}

std::vector<std::string> builtin_scenario_names()
{
    std::vector<std::string> n;
    for (const auto& b : k_builtin_scenarios)
        n.push_back(b.name);
    return n;
}

// Optimal string alignment distance (edits, adjacent swaps count one).
static size_t edit_distance(const std::string& a, const std::string& b)
{
    const size_t n = a.size(), m = b.size();
    std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            const size_t cost = g_ascii_tolower(a[i - 1]) == g_ascii_tolower(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates, const char* open,
                         const char* close)
{
    size_t best = std::string::npos;
    std::vector<std::string> hits;
    for (const auto& c : candidates) {
        size_t d = edit_distance(word, c);
        // A candidate that starts with the word ("maint" -> "maint_line_cycles") is close too.
        if (word.size() >= 3 && starts_with(c, word.c_str()))
            d = std::min<size_t>(d, 1);
        if (d < best) {
            best = d;
            hits.clear();
        }
        if (d == best && std::find(hits.begin(), hits.end(), c) == hits.end())
            hits.push_back(c);
    }
    const size_t limit = std::max<size_t>(1, std::min<size_t>(3, (word.size() + 1) / 3));
    if (best == std::string::npos || best > limit || hits.size() > 3)
        return "";
    std::string r;
    for (size_t i = 0; i < hits.size(); i++)
        r += (i ? (i + 1 == hits.size() ? " or " : ", ") : "") + std::string(open) + hits[i] + close;
    return r;
}

// ---------------------------------------------------------------- reading

namespace {

struct scanned_key {
    std::string group, key;
    unsigned line, group_line;
};

struct reader {
    raw_scenario* raw;
    std::vector<std::string>* errors;
    std::vector<std::string> stack;        // canonical identities of the files being read
    std::vector<std::string> stack_names;  // their display names
};

bool load_source(const std::string& name, std::string* text, std::string* canon, std::string* why)
{
    if (starts_with(name, k_builtin)) {
        const char* t = builtin_scenario(name.substr(sizeof k_builtin - 1));
        if (!t) {
            *why = "no such built-in scenario";
            return false;
        }
        *text = t;
        *canon = name;
        return true;
    }
    if (g_file_test(name.c_str(), G_FILE_TEST_IS_DIR)) {
        *why = "is a directory";
        return false;
    }
    gchar* data = nullptr;
    gsize len = 0;
    GError* err = nullptr;
    if (!g_file_get_contents(name.c_str(), &data, &len, &err)) {
        *why = err->code == G_FILE_ERROR_NOENT ? "no such file" : err->message;
        g_error_free(err);
        return false;
    }
    text->assign(data, len);
    g_free(data);
    char* rp = realpath(name.c_str(), nullptr);
    *canon = rp ? rp : name;
    free(rp);
    return true;
}

// Binary data and invalid UTF-8 are refused before parsing, naming the line.
bool text_ok(const std::string& name, const std::string& text, std::vector<std::string>* errors)
{
    const char* end = nullptr;
    const bool utf8 = g_utf8_validate(text.data(), (gssize)text.size(), &end);
    if (utf8 && text.find('\0') == std::string::npos)
        return true;
    const size_t at = utf8 ? text.find('\0') : (size_t)(end - text.data());
    const unsigned line = 1 + (unsigned)std::count(text.begin(), text.begin() + (long)at, '\n');
    errors->push_back(diag(origin{name, line, "", 0}, utf8 ? "not a text file (NUL byte)" : "not valid UTF-8 text"));
    return false;
}

// A line as quoted in a message: at most 60 characters.
std::string quoted_line(const std::string& l)
{
    const std::string t = trim(l);
    return t.size() <= 60 ? t : t.substr(0, 57) + "...";
}

// Line scan that mirrors GKeyFile's grammar: blank and '#' lines are comments,
// "[name]" opens a group, "key=value" (key trimmed) sets a key.
bool scan(const std::string& name, const std::string& text, std::vector<scanned_key>* keys,
          std::vector<std::pair<std::string, unsigned>>* groups, std::vector<std::string>* errors)
{
    bool ok = true;
    std::string group;
    unsigned group_line = 0;
    std::map<std::pair<std::string, std::string>, unsigned> seen;
    unsigned lineno = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos)
            nl = text.size();
        std::string line = text.substr(pos, nl - pos);
        pos = nl + 1;
        lineno++;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        size_t a = 0;
        while (a < line.size() && g_ascii_isspace(line[a]))
            a++;
        const std::string l = line.substr(a);
        origin here{name, lineno, "", 0};
        if (l.empty() || l[0] == '#')
            continue;
        if (l[0] == '[') {
            const std::string t = trim(l);
            if (t.back() != ']' || t.size() < 3 || t.find_first_of("[]", 1) != t.size() - 1) {
                errors->push_back(diag(here, "malformed group header '" + quoted_line(t) + "': expected [name]"));
                ok = false;
                group.clear();
                group_line = 0;
                continue;
            }
            group = t.substr(1, t.size() - 2);
            group_line = lineno;
            groups->push_back({group, lineno});
            continue;
        }
        const size_t eq = l.find('=');
        if (eq == std::string::npos) {
            errors->push_back(diag(here, "'" + quoted_line(l) + "' is neither key=value, [group] nor a # comment"));
            ok = false;
            continue;
        }
        const std::string key = trim(l.substr(0, eq));
        if (key.empty()) {
            errors->push_back(diag(here, "missing key name before '='"));
            ok = false;
            continue;
        }
        if (key.find('[') != std::string::npos) {
            errors->push_back(diag(here, "localized key '" + key + "' is not supported"));
            ok = false;
            continue;
        }
        if (group_line == 0) {
            errors->push_back(diag(here, "key '" + key + "' before the first [group]"));
            ok = false;
            continue;
        }
        auto k = std::make_pair(group, key);
        auto it = seen.find(k);
        if (it != seen.end()) {
            errors->push_back(diag(here, "duplicate key '" + key + "' in [" + group + "] (first set at line " +
                                             std::to_string(it->second) + ")"));
            ok = false;
            continue;
        }
        seen[k] = lineno;
        keys->push_back({group, key, lineno, group_line});
    }
    return ok;
}

bool read_one(reader& r, const std::string& name, const std::string& text, const std::string& canon);

bool read_file(reader& r, const std::string& name, const origin* included_from)
{
    std::string text, canon, why;
    if (!load_source(name, &text, &canon, &why)) {
        if (included_from)
            r.errors->push_back(diag(*included_from, "cannot include '" + name + "': " + why));
        else
            r.errors->push_back(diag(origin{name, 0, "", 0}, why));
        return false;
    }
    auto it = std::find(r.stack.begin(), r.stack.end(), canon);
    if (it != r.stack.end()) {
        std::string chain;
        for (size_t i = (size_t)(it - r.stack.begin()); i < r.stack_names.size(); i++)
            chain += r.stack_names[i] + " -> ";
        chain += name;
        r.errors->push_back(diag(*included_from, "include cycle: " + chain));
        return false;
    }
    return read_one(r, name, text, canon);
}

bool read_one(reader& r, const std::string& name, const std::string& text, const std::string& canon)
{
    if (!text_ok(name, text, r.errors))
        return false;
    std::vector<scanned_key> keys;
    std::vector<std::pair<std::string, unsigned>> groups;
    if (!scan(name, text, &keys, &groups, r.errors))
        return false;
    GKeyFile* kf = g_key_file_new();
    GError* err = nullptr;
    if (!g_key_file_load_from_data(kf, text.data(), text.size(), G_KEY_FILE_KEEP_COMMENTS, &err)) {
        r.errors->push_back(diag(origin{name, 0, "", 0}, err->message));
        g_error_free(err);
        g_key_file_free(kf);
        return false;
    }
    r.raw->files.push_back(name);
    r.stack.push_back(canon);
    r.stack_names.push_back(name);
    bool ok = true;
    for (const auto& g : groups)
        r.raw->groups.push_back({g.first, origin{name, g.second, "", 0}});
    // Includes first, so that this file's own keys override them.
    for (const auto& k : keys) {
        if (k.group != "scenario" || k.key != "include")
            continue;
        gsize n = 0;
        gchar** list = g_key_file_get_string_list(kf, "scenario", "include", &n, nullptr);
        const origin at{name, k.line, "", 0};
        for (gsize i = 0; list && i < n; i++) {
            const std::string item = trim(list[i]);
            if (item.empty())
                continue;
            if (!read_file(r, relative_to(name, item), &at))
                ok = false;
        }
        g_strfreev(list);
    }
    for (const auto& k : keys) {
        if (k.group == "scenario" && k.key == "include")
            continue;
        gchar* v = g_key_file_get_value(kf, k.group.c_str(), k.key.c_str(), nullptr);
        raw_value rv;
        rv.group = k.group;
        rv.key = k.key;
        rv.text = v ? v : "";
        rv.where = origin{name, k.line, "", (unsigned)r.raw->values.size()};
        rv.group_line = k.group_line;
        g_free(v);
        r.raw->values.push_back(rv);
    }
    g_key_file_free(kf);
    r.stack.pop_back();
    r.stack_names.pop_back();
    return ok;
}

} // namespace

bool scenario_read(const std::string& path, raw_scenario* raw, std::vector<std::string>* errors)
{
    reader r{raw, errors, {}, {}};
    return read_file(r, path, nullptr);
}

bool scenario_read_text(const std::string& name, const std::string& text, raw_scenario* raw,
                        std::vector<std::string>* errors)
{
    reader r{raw, errors, {}, {}};
    return read_one(r, name, text, name);
}

bool scenario_override(const std::string& spec, raw_scenario* raw, std::string* err)
{
    const size_t eq = spec.find('=');
    const std::string lhs = trim(spec.substr(0, eq == std::string::npos ? spec.size() : eq));
    const size_t dot = lhs.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == lhs.size() ||
        lhs.find_first_of(" \t[]=", 0) != std::string::npos || lhs.find('.', dot + 1) != std::string::npos) {
        *err = "error: -o " + spec + ": expected group.key=value, e.g. -o l2.size=512KiB";
        return false;
    }
    if (!g_utf8_validate(spec.c_str(), (gssize)spec.size(), nullptr)) {
        *err = "error: -o " + lhs + "=...: the value is not valid UTF-8 text";
        return false;
    }
    raw_value rv;
    rv.group = lhs.substr(0, dot);
    rv.key = lhs.substr(dot + 1);
    std::string v = spec.substr(eq + 1);
    size_t a = 0;
    while (a < v.size() && g_ascii_isspace(v[a]))
        a++;
    rv.text = v.substr(a);
    rv.where = origin{"-o", 0, spec, (unsigned)raw->values.size()};
    raw->values.push_back(rv);
    return true;
}

void scenario_set(raw_scenario* raw, const std::string& group, const std::string& key, const std::string& text,
                  const std::string& option, const std::string& arg)
{
    raw_value rv;
    rv.group = group;
    rv.key = key;
    rv.text = text;
    rv.where = origin{option, 0, arg, (unsigned)raw->values.size()};
    rv.append = option == "--patch";
    raw->values.push_back(rv);
}

// ---------------------------------------------------------------- resolving

namespace {

// GKeyFile decoding of a raw value (escapes, lists), as g_key_file_get_string would.
std::string decode_string(const std::string& raw)
{
    GKeyFile* kf = g_key_file_new();
    g_key_file_set_value(kf, "g", "k", raw.c_str());
    gchar* s = g_key_file_get_string(kf, "g", "k", nullptr);
    std::string r = s ? s : raw;
    g_free(s);
    g_key_file_free(kf);
    return r;
}

std::vector<std::string> decode_list(const std::string& raw)
{
    std::vector<std::string> out;
    GKeyFile* kf = g_key_file_new();
    g_key_file_set_value(kf, "g", "k", raw.c_str());
    gsize n = 0;
    gchar** l = g_key_file_get_string_list(kf, "g", "k", &n, nullptr);
    for (gsize i = 0; l && i < n; i++) {
        const std::string t = trim(l[i]);
        if (!t.empty())
            out.push_back(t);
    }
    g_strfreev(l);
    g_key_file_free(kf);
    return out;
}

bool valid_name(const std::string& s)
{
    if (s.empty() || s[0] == '.' || s.size() > 100)
        return false;
    for (char c : s)
        if (!g_ascii_isalnum(c) && c != '.' && c != '_' && c != '-')
            return false;
    return true;
}

std::string gk(const group_entry& g, const std::string& key) { return std::string(g.name) + "." + key; }

// Absolute path of an existing file named in a value from `o`.
bool resolve_path(const origin& o, const std::string& item, bool want_file, std::string* abs, std::string* why)
{
    std::string p = item;
    if (o.line && !starts_with(o.file, k_builtin))
        p = relative_to(o.file, item);
    if (!g_file_test(p.c_str(), G_FILE_TEST_EXISTS)) {
        *why = "'" + item + "': no such file" + (p != item ? " (looked for " + p + ")" : std::string());
        return false;
    }
    if (want_file && !g_file_test(p.c_str(), G_FILE_TEST_IS_REGULAR)) {
        *why = "'" + item + "' is not a regular file";
        return false;
    }
    char* rp = realpath(p.c_str(), nullptr);
    *abs = rp ? rp : p;
    free(rp);
    return true;
}

} // namespace

bool scenario_resolve(const raw_scenario& raw, resolved_scenario* out, std::vector<std::string>* errors)
{
    // Errors are sorted into reading order (by origin seq) at the end.
    std::vector<std::pair<unsigned, std::string>> errs;
    auto add = [&](const origin& o, const std::string& m) { errs.push_back({o.seq, diag(o, m)}); };
    *out = resolved_scenario();
    out->files = raw.files;

    std::vector<std::string> group_names;
    for (const auto& g : registry_groups())
        group_names.push_back(g.name);
    auto unknown_group = [&](const std::string& name) {
        std::string m = "unknown group [" + name + "]";
        const std::string c = closest_name(name, group_names, "[", "]");
        if (!c.empty())
            m += "; did you mean " + c + "?";
        else {
            m += " (known:";
            for (const auto& n : group_names)
                m += " [" + n + "]";
            m += ")";
        }
        return m;
    };
    for (const auto& g : raw.groups)
        if (!registry_find(g.first)) {
            origin o = g.second;
            o.seq = ~0u;  // before the group's first key, or last if it has none
            for (const auto& v : raw.values)
                if (v.where.file == o.file && v.group_line == o.line) {
                    o.seq = v.where.seq;
                    break;
                }
            add(o, unknown_group(g.first));
        }

    // Winning values: per "group.key", the raw values in order (appends kept).
    std::map<std::string, std::vector<const raw_value*>> values;
    for (const auto& v : raw.values) {
        const group_entry* g = registry_find(v.group);
        if (!g) {
            if (!v.where.line)  // file groups were reported above, once per header
                add(v.where, unknown_group(v.group));
            continue;
        }
        const string_key* sk = g->find_string(v.key);
        if (!g->find_param(v.key) && !sk) {
            std::string m = "unknown key '" + v.key + "' in [" + v.group + "]";
            const std::string c = closest_name(v.key, g->keys(false));
            std::vector<std::string> elsewhere;
            for (const auto& o : registry_groups())
                if (&o != g && (o.find_param(v.key) || o.find_string(v.key)))
                    elsewhere.push_back(std::string("[") + o.name + "]");
            if (!c.empty())
                m += "; did you mean " + c + "?";
            if (!elsewhere.empty()) {
                m += c.empty() ? "; " : " (";
                m += "'" + v.key + "' is a key of ";
                for (size_t i = 0; i < elsewhere.size(); i++)
                    m += (i ? ", " : "") + elsewhere[i];
                if (!c.empty())
                    m += ")";
            }
            if (c.empty() && elsewhere.empty()) {
                m += " (keys:";
                for (const auto& k : g->keys(false))
                    m += " " + k;
                m += ")";
            }
            add(v.where, m);
            continue;
        }
        if (sk && sk->load_only) {
            add(v.where, gk(*g, v.key) + " can only be set in a scenario file");
            continue;
        }
        if (v.append && !values[gk(*g, v.key)].empty()) {
            values[gk(*g, v.key)].push_back(&v);
        } else if (v.append) {
            values[gk(*g, v.key)].push_back(&v);
        } else {
            values[gk(*g, v.key)] = {&v};
        }
    }

    // "N cycles" in times is relative to the CPU clock: resolve it first.
    units_context ctx;
    ctx.cpu_hz = models::cpu::cpu_config().clock_hz;
    if (auto it = values.find("cpu.clock"); it != values.end()) {
        double hz;
        if (units_parse_kind(param_kind::hz, it->second.back()->text, &hz, nullptr))
            ctx.cpu_hz = hz;
    }

    for (const auto& g : registry_groups()) {
        if (g.table) {
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
                    add(v.where, gk(g, d.key) + ": " + why);
                    continue;
                }
                if (!(x >= d.min && x <= d.max)) {
                    add(v.where, gk(g, d.key) + ": '" + trim(v.text) + "' is out of range: allowed " +
                                     units_format(d, d.min) + " .. " + units_format(d, d.max));
                    continue;
                }
                if (!models::param_set(c, d, x, &why)) {
                    add(v.where, gk(g, d.key) + ": " + why);
                    continue;
                }
                out->set_at[gk(g, d.key)] = v.where;
            }
        }
        for (size_t i = 0; i < g.n_strings; i++) {
            const string_key& s = g.strings[i];
            if (s.load_only)
                continue;
            const std::string name = gk(g, s.key);
            std::vector<std::string> vals;
            auto it = values.find(name);
            if (it == values.end()) {
                if (s.kind == str_kind::path_list)
                    vals = decode_list(s.def);
                else
                    vals = {s.def};
            } else {
                out->set_at[name] = it->second.back()->where;
                for (const raw_value* v : it->second) {
                    std::vector<std::string> items;
                    if (s.kind == str_kind::path_list && !v->append)
                        items = decode_list(v->text);
                    else
                        items = {v->append ? v->text : decode_string(v->text)};
                    if (s.kind != str_kind::path_list)
                        vals.clear();
                    for (const auto& item : items) {
                        std::string val = item;
                        std::string why;
                        if (s.kind == str_kind::name && !valid_name(item)) {
                            add(v->where, name + ": '" + item +
                                              "' is not a valid name: use letters, digits, "
                                              "'.', '_' and '-', not starting with '.'");
                            continue;
                        }
                        if ((s.kind == str_kind::path || s.kind == str_kind::path_list) && !item.empty() &&
                            !resolve_path(v->where, item, s.kind == str_kind::path_list, &val, &why)) {
                            add(v->where, name + ": " + why);
                            continue;
                        }
                        if (s.kind == str_kind::text && item.find('\n') != std::string::npos) {
                            add(v->where, name + ": must be a single line");
                            continue;
                        }
                        vals.push_back(val);
                    }
                }
                if (s.kind != str_kind::path_list && vals.empty())
                    vals = {""};
            }
            out->strings[name] = vals;
            if (s.member)
                *s.member(out->cfg) = vals.empty() ? "" : vals.front();
        }
    }

    // String lists that models take as vectors.
    if (auto it = out->strings.find("driver.patches"); it != out->strings.end())
        out->cfg.driver.patches = it->second;
    if (auto it = out->strings.find("traffic.size_list"); it != out->strings.end() && !it->second.empty()) {
        out->cfg.traffic.size_list.clear();
        std::stringstream ss(it->second.front());
        std::string item;
        while (std::getline(ss, item, ',')) {
            char* end = nullptr;
            const unsigned long v = std::strtoul(item.c_str(), &end, 10);
            if (item.empty() || *end)
                out->cfg.traffic.size_list.push_back(0);  // rejected by the size_list rule
            else
                out->cfg.traffic.size_list.push_back((uint32_t)v);
        }
    }

    if (errs.empty()) {
        for (const auto& rule : registry_rules()) {
            const std::string why = rule.check(out->cfg);
            if (why.empty())
                continue;
            // Point at the key the user set last among those involved.
            origin at{"", 0, "", 0};
            bool any = false;
            std::string now;
            std::stringstream ss(rule.keys);
            std::string k;
            while (ss >> k) {
                const size_t dot = k.find('.');
                const group_entry* g = registry_find(k.substr(0, dot));
                now += (now.empty() ? "" : ", ") + k + "=" + scenario_value(*out, *g, k.substr(dot + 1));
                auto it = out->set_at.find(k);
                if (it != out->set_at.end() && (!any || it->second.seq >= at.seq)) {
                    at = it->second;
                    any = true;
                }
            }
            add(at, why + " (" + now + ")");
        }
    }
    std::stable_sort(errs.begin(), errs.end(),
                     [](const std::pair<unsigned, std::string>& a, const std::pair<unsigned, std::string>& b) {
                         return a.first < b.first;
                     });
    for (const auto& e : errs)
        errors->push_back(e.second);
    return errs.empty();
}

// ---------------------------------------------------------------- output

std::string scenario_value(const resolved_scenario& r, const group_entry& g, const std::string& key)
{
    if (const param_desc* d = g.find_param(key)) {
        const void* c = g.config(const_cast<soc_config&>(r.cfg));
        return units_format(*d, models::param_get(c, *d));
    }
    auto it = r.strings.find(gk(g, key));
    if (it == r.strings.end())
        return "";
    std::string s;
    for (size_t i = 0; i < it->second.size(); i++)
        s += (i ? ";" : "") + it->second[i];
    return s;
}

std::string scenario_canonical(const resolved_scenario& r)
{
    std::string s;
    for (const auto& g : registry_groups())
        for (const auto& k : g.keys(false))
            s += gk(g, k) + "=" + scenario_value(r, g, k) + "\n";
    return s;
}

std::string scenario_hash(const resolved_scenario& r)
{
    GChecksum* c = g_checksum_new(G_CHECKSUM_SHA256);
    const std::string canon = scenario_canonical(r);
    g_checksum_update(c, (const guchar*)canon.data(), canon.size());
    // A recorded patch is part of what was asked for: hash its contents too.
    auto it = r.strings.find("driver.patches");
    if (it != r.strings.end())
        for (const auto& p : it->second) {
            gchar* data = nullptr;
            gsize len = 0;
            if (g_file_get_contents(p.c_str(), &data, &len, nullptr)) {
                g_checksum_update(c, (const guchar*)data, len);
                g_free(data);
            }
        }
    const std::string h = g_checksum_get_string(c);
    g_checksum_free(c);
    return h.substr(0, 8);
}

static std::string range_text(const param_desc& d)
{
    if (d.kind == param_kind::boolean)
        return "true or false";
    if (d.kind == param_kind::choice) {
        std::string s;
        for (unsigned i = 0;; i++) {
            const std::string n = models::param_choice_name(d, i);
            if (n.empty())
                break;
            s += (i ? ", " : "one of ") + n;
        }
        return s;
    }
    return units_format(d, d.min) + " .. " + units_format(d, d.max);
}

std::string scenario_dump(const resolved_scenario& r, const std::string& header)
{
    GKeyFile* kf = g_key_file_new();
    bool first = true;
    for (const auto& g : registry_groups()) {
        auto from = [&](const std::string& k) {
            auto it = r.set_at.find(gk(g, k));
            return it == r.set_at.end() ? std::string("default") : "set by " + it->second.str();
        };
        if (g.table)
            for (const auto& d : *g.table) {
                g_key_file_set_value(kf, g.name, d.key, scenario_value(r, g, d.key).c_str());
                // The unit column is the base unit (values carry their own) except for plain numbers.
                const bool plain = d.kind == param_kind::count || d.kind == param_kind::ratio ||
                                   (d.kind == param_kind::cycles && std::strcmp(d.unit, "cycles") != 0);
                std::string unit = plain && *d.unit ? std::string(" (") + d.unit + ")" : "";
                const std::string cm = std::string(" ") + d.desc + "\n " + units_kind_name(d.kind) + unit + ", " +
                                       range_text(d) + ", default " + units_format(d, d.def) + "; " + from(d.key);
                g_key_file_set_comment(kf, g.name, d.key, cm.c_str(), nullptr);
            }
        for (size_t i = 0; i < g.n_strings; i++) {
            const string_key& s = g.strings[i];
            if (s.load_only)
                continue;
            auto it = r.strings.find(gk(g, s.key));
            const std::vector<std::string> vals = it == r.strings.end() ? std::vector<std::string>() : it->second;
            if (s.kind == str_kind::path_list) {
                std::vector<const gchar*> l;
                for (const auto& v : vals)
                    l.push_back(v.c_str());
                g_key_file_set_string_list(kf, g.name, s.key, l.data(), l.size());
            } else {
                g_key_file_set_string(kf, g.name, s.key, vals.empty() ? "" : vals.front().c_str());
            }
            static const char* kinds[] = {"text", "name", "path", "list of paths"};
            const std::string cm =
                std::string(" ") + s.desc + "\n " + kinds[(int)s.kind] + ", default '" + s.def + "'; " + from(s.key);
            g_key_file_set_comment(kf, g.name, s.key, cm.c_str(), nullptr);
        }
        std::string gc = std::string(" [") + g.name + "] " + g.title;
        if (g.note)
            gc += std::string("\n ") + g.note;
        if (first && !header.empty())
            gc = header + "\n\n" + gc;
        first = false;
        g_key_file_set_comment(kf, g.name, nullptr, gc.c_str(), nullptr);
    }
    gsize len = 0;
    gchar* data = g_key_file_to_data(kf, &len, nullptr);
    std::string s(data, len);
    g_free(data);
    g_key_file_free(kf);
    return s;
}

} // namespace sim
