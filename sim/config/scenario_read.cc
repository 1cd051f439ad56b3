// sim/config/scenario_read.cc: reading scenario files into the raw layer:
// loading (files and built-ins), the line scan that gives every key its line
// and reports malformed lines and duplicates, includes (depth first, cycles
// refused) and GKeyFile parsing of the values.
#include <algorithm>
#include <cstdlib>
#include <glib.h>
#include <map>
#include "sim/config/scenario.h"
#include "sim/config/scenario_text.h"

namespace sim {

using namespace loader;

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

} // namespace sim
