// sim/config/scenario_read.cc: reading scenario files into the raw layer:
// loading (regular files within the size limits, and built-ins), the line
// scan that gives every key its line and value and reports malformed lines
// and duplicates, and includes (depth first, cycles refused, files counted).
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <glib.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>
#include "sim/config/scenario.h"
#include "sim/config/scenario_text.h"
#include "drivers/khost/data_dir.h"

namespace sim {

using namespace loader;

namespace {

struct scanned_key {
    std::string group, key;
    std::string text;  // the value as written: after '=' and leading white space, to the end of the line
    unsigned line, group_line;
};

// Where the errors of one scenario_read go: at most k_scenario_max_errors,
// then one message saying that the rest are not reported.
struct error_list {
    std::vector<std::string>* out;
    size_t added = 0;
    void add(const origin& at, const std::string& message)
    {
        if (added < k_scenario_max_errors)
            out->push_back(diag(at, message));
        else if (added == k_scenario_max_errors)
            out->push_back(diag(at, "more than " + std::to_string(k_scenario_max_errors) +
                                        " errors; those from here on are not reported"));
        added++;
    }
};

struct reader {
    raw_scenario* raw;
    error_list* errors;
    std::vector<std::string> stack;        // canonical identities of the files being read
    std::vector<std::string> stack_names;  // their display names
    unsigned files = 0;                    // files read so far (k_scenario_max_files)
    size_t bytes = 0;                      // their total size (k_scenario_max_total_bytes)
    bool over = false;                     // a limit was reached (said once): nothing more is read
    bool skip_soc = false;                 // scenario.soc keys name no file (a profile was read already)
};

std::string mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// What a file that is not a regular file is, for messages.
const char* file_type(mode_t m)
{
    if (S_ISDIR(m))
        return "is a directory";
    if (S_ISFIFO(m))
        return "is a FIFO (named pipe), not a regular file";
    if (S_ISCHR(m))
        return "is a character device, not a regular file";
    if (S_ISBLK(m))
        return "is a block device, not a regular file";
    if (S_ISSOCK(m))
        return "is a socket, not a regular file";
    return "is not a regular file";
}

// Reads a regular file of at most k_scenario_max_file_bytes. Opened without
// blocking and checked with fstat before anything is read, so a FIFO, a
// device or a directory is refused at once.
bool read_regular_file(const std::string& name, std::string* text, std::string* why)
{
    const int fd = open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        const int e = errno;
        struct stat st;
        if (e == ENOENT || e == ENOTDIR)
            *why = "no such file";
        else if (e == ENXIO && stat(name.c_str(), &st) == 0)  // a socket, or a device without a driver
            *why = file_type(st.st_mode);
        else
            *why = std::string("cannot open: ") + std::strerror(e);
        return false;
    }
    struct stat st;
    bool ok = true;
    if (fstat(fd, &st) != 0) {
        *why = std::string("cannot stat: ") + std::strerror(errno);
        ok = false;
    } else if (!S_ISREG(st.st_mode)) {
        *why = file_type(st.st_mode);
        ok = false;
    } else if ((uint64_t)st.st_size > k_scenario_max_file_bytes) {
        *why = "is " + std::to_string((uint64_t)st.st_size) + " bytes; a scenario file may have at most " +
               mib(k_scenario_max_file_bytes);
        ok = false;
    }
    // Read one byte past the limit: a file that grows (or reports no size, as
    // in /proc) is refused too.
    text->clear();
    char buf[65536];
    while (ok) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *why = std::string("cannot read: ") + std::strerror(errno);
            ok = false;
        } else if (n == 0) {
            break;
        } else if (text->size() + (size_t)n > k_scenario_max_file_bytes) {
            *why = "is more than " + mib(k_scenario_max_file_bytes) + "; a scenario file may have at most " +
                   mib(k_scenario_max_file_bytes);
            ok = false;
        } else {
            text->append(buf, (size_t)n);
        }
    }
    close(fd);
    return ok;
}

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
    if (!read_regular_file(name, text, why))
        return false;
    char* rp = realpath(name.c_str(), nullptr);
    *canon = rp ? rp : name;
    free(rp);
    return true;
}

// Binary data and invalid UTF-8 are refused before scanning. False if the
// text has either; *nul says which, *line is the line of the first bad byte.
bool text_ok(const std::string& text, bool* nul, unsigned* line)
{
    // g_utf8_validate stops at the first byte that is not UTF-8 or is NUL.
    const char* end = nullptr;
    if (g_utf8_validate(text.data(), (gssize)text.size(), &end))
        return true;
    const size_t at = (size_t)(end - text.data());
    *line = 1 + (unsigned)std::count(text.begin(), text.begin() + (long)at, '\n');
    *nul = text[at] == '\0';
    return false;
}

// A line as quoted in a message: trimmed, escaped, cut.
std::string quoted_line(const std::string& l) { return message_quote(trim(l)); }

// The first ASCII control character of a line (tab is white space), or npos.
size_t control_at(const std::string& line)
{
    for (size_t i = 0; i < line.size(); i++) {
        const unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return i;
    }
    return std::string::npos;
}

// Why a line (without its line ending, leading white space removed) is not
// a well-formed "[name]" header, or "" if it is one; *name is the name.
std::string header_problem(const std::string& l, std::string* name)
{
    const std::string t = trim(l);
    if (t.size() < 3 || t.back() != ']' || t.find_first_of("[]", 1) != t.size() - 1)
        return "malformed group header " + quoted_line(t) + ": expected [name]";
    *name = t.substr(1, t.size() - 2);
    return "";
}

// Line scan with GKeyFile's grammar, stricter where GKeyFile would fail
// without saying where: blank and '#' lines are comments, "[name]" opens a
// group, "key=value" (key trimmed, value from its first non-blank character
// to the end of the line) sets a key. A line may end in "\r\n"; any other
// control character but tab is an error. Every error names the line.
// included_from: the file was named by that include=; unless its first line that
// is not blank or a comment is a [group] header it is not a scenario file,
// and it is refused (error at *included_from) without quoting any of it.
bool scan(const std::string& name, const std::string& text, const origin* included_from,
          std::vector<scanned_key>* keys, std::vector<std::pair<std::string, unsigned>>* groups,
          error_list* errors)
{
    bool ok = true;
    bool first = true;          // no line but blanks and comments yet
    bool bad_header = false;    // the last header was malformed: its keys are not reported again
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
        const origin here{name, lineno, "", 0};
        if (line.size() > k_scenario_max_line_bytes) {
            if (included_from && first) {
                errors->add(*included_from, "cannot include " + message_path(name) +
                                                ": not a scenario file (line " + std::to_string(lineno) +
                                                " is longer than " +
                                                std::to_string(k_scenario_max_line_bytes) + " bytes)");
                return false;
            }
            errors->add(here, "line is " + std::to_string(line.size()) +
                                  " bytes long; a line may have at most " +
                                  std::to_string(k_scenario_max_line_bytes) + " bytes");
            ok = false;
            continue;
        }
        size_t a = 0;
        while (a < line.size() && (line[a] == ' ' || line[a] == '\t'))
            a++;
        const std::string l = line.substr(a);
        if (l.empty() || l[0] == '#')
            continue;
        std::string header;
        std::string bare = l;  // a header with \r\r\n endings is still a header, reported below
        while (!bare.empty() && bare.back() == '\r')
            bare.pop_back();
        if (included_from && first && (bare[0] != '[' || control_at(bare) != std::string::npos ||
                                       !header_problem(bare, &header).empty())) {
            errors->add(*included_from, "cannot include " + message_path(name) +
                                            ": not a scenario file (line " + std::to_string(lineno) +
                                            " is not a [group] header, a # comment or blank)");
            return false;
        }
        first = false;
        if (const size_t c = control_at(line); c != std::string::npos) {
            std::string m = "control character " + message_text(line.substr(c, 1)) + " in column " +
                            std::to_string(c + 1);
            if (line[c] == '\r' && c + 1 == line.size())
                m += " (the line ends in \\r\\r\\n: write \\n or \\r\\n line endings)";
            errors->add(here, m);
            ok = false;
            if (bare[0] == '[') {  // a header all the same: its keys are not reported as outside a group
                group.clear();
                group_line = 0;
                bad_header = true;
            }
            continue;
        }
        if (l[0] == '[') {
            const std::string why = header_problem(l, &header);
            if (!why.empty()) {
                errors->add(here, why);
                ok = false;
                group.clear();
                group_line = 0;
                bad_header = true;
                continue;
            }
            group = header;
            group_line = lineno;
            bad_header = false;
            groups->push_back({group, lineno});
            continue;
        }
        const size_t eq = l.find('=');
        if (eq == std::string::npos) {
            errors->add(here, quoted_line(l) + " is neither key=value, [group] nor a # comment");
            ok = false;
            continue;
        }
        const std::string key = trim(l.substr(0, eq));
        if (key.empty()) {
            errors->add(here, "missing key name before '='");
            ok = false;
            continue;
        }
        if (key.find('[') != std::string::npos) {
            errors->add(here, "localized key " + message_quote(key) + " is not supported");
            ok = false;
            continue;
        }
        if (key.find(']') != std::string::npos) {
            errors->add(here, "invalid key name " + message_quote(key) + ": ']' is not allowed");
            ok = false;
            continue;
        }
        if (group_line == 0) {
            if (!bad_header)
                errors->add(here, "key " + message_quote(key) + " before the first [group]");
            ok = false;
            continue;
        }
        auto k = std::make_pair(group, key);
        auto it = seen.find(k);
        if (it != seen.end()) {
            errors->add(here, "duplicate key " + message_quote(key) + " in [" + message_text(group) +
                                  "] (first set at line " + std::to_string(it->second) + ")");
            ok = false;
            continue;
        }
        seen[k] = lineno;
        size_t v = eq + 1;
        while (v < l.size() && (l[v] == ' ' || l[v] == '\t'))
            v++;
        keys->push_back({group, key, l.substr(v), lineno, group_line});
    }
    if (included_from && first) {
        errors->add(*included_from, "cannot include " + message_path(name) +
                                        ": not a scenario file (no [group] header)");
        return false;
    }
    return ok;
}

bool read_one(reader& r, const std::string& name, const std::string& text, const std::string& canon,
              const origin* included_from);

bool read_file(reader& r, const std::string& name, const origin* included_from)
{
    auto refuse = [&](const std::string& why) {
        if (included_from)
            r.errors->add(*included_from, "cannot include " + message_path(name) + ": " + why);
        else
            r.errors->add(origin{name, 0, "", 0}, why);
        return false;
    };
    if (r.over)
        return false;
    if (r.files >= k_scenario_max_files) {
        r.over = true;
        return refuse("more than " + std::to_string(k_scenario_max_files) +
                      " files read for one scenario (includes of includes, repeats counted)");
    }
    std::string text, canon, why;
    if (!load_source(name, &text, &canon, &why))
        return refuse(why);
    r.files++;
    r.bytes += text.size();
    if (r.bytes > k_scenario_max_total_bytes) {
        r.over = true;
        return refuse("the files read for one scenario (with their includes) may have at most " +
                      mib(k_scenario_max_total_bytes) + " in all");
    }
    auto it = std::find(r.stack.begin(), r.stack.end(), canon);
    if (it != r.stack.end()) {
        std::string chain;
        for (size_t i = (size_t)(it - r.stack.begin()); i < r.stack_names.size(); i++)
            chain += message_text(r.stack_names[i], k_message_max_path_chars) + " -> ";
        chain += message_text(name, k_message_max_path_chars);
        r.errors->add(*included_from, "include cycle: " + chain);
        return false;
    }
    return read_one(r, name, text, canon, included_from);
}

// scenarios/profiles/<soc>.ini of the data directory, read as an include
// named at `at` (a file's scenario.soc, or the command line's).
bool read_profile(reader& r, const std::string& soc, const origin* at)
{
    if (soc.empty())
        return true;  // no profile (the default; what a resolved file says then)
    // Not a name (the resolver says so, for scenario.soc as for any name):
    // nothing is read, so no path is made of it.
    if (!valid_name(soc))
        return false;
    std::string dir;
    try {
        dir = khost::data_dir();
    } catch (const khost::data_dir_error& e) {
        r.errors->add(*at, std::string("scenario.soc: the profiles cannot be found: ") + e.what());
        return false;
    }
    const std::string path = dir + "/scenarios/profiles/" + soc + ".ini";
    if (access(path.c_str(), F_OK) != 0) {
        r.errors->add(*at, "scenario.soc: no profile " + message_quote(soc) + " (no " + message_path(path) + ")");
        return false;
    }
    return read_file(r, path, at);
}

bool read_one(reader& r, const std::string& name, const std::string& text, const std::string& canon,
              const origin* included_from)
{
    unsigned bad_line = 0;
    bool nul = false;
    if (!text_ok(text, &nul, &bad_line)) {
        if (included_from)  // said at the include=, without quoting the file
            r.errors->add(*included_from, "cannot include " + message_path(name) +
                                              ": not a scenario file (" +
                                              (nul ? "NUL byte" : "not UTF-8 text") + " at line " +
                                              std::to_string(bad_line) + ")");
        else
            r.errors->add(origin{name, bad_line, "", 0}, nul ? "not a text file (NUL byte)" : "not valid UTF-8 text");
        return false;
    }
    std::vector<scanned_key> keys;
    std::vector<std::pair<std::string, unsigned>> groups;
    if (!scan(name, text, included_from, &keys, &groups, r.errors))
        return false;
    r.raw->files.push_back(name);
    r.stack.push_back(canon);
    r.stack_names.push_back(name);
    bool ok = true;
    for (const auto& g : groups)
        r.raw->groups.push_back({g.first, origin{name, g.second, "", 0}});
    // The SoC profile, then the includes, so that this file's own keys
    // override them.
    for (const auto& k : keys) {
        if (k.group != "scenario" || k.key != "soc" || r.skip_soc)
            continue;
        const origin at{name, k.line, "", 0};
        if (!read_profile(r, k.text, &at))
            ok = false;
    }
    for (const auto& k : keys) {
        if (k.group != "scenario" || k.key != "include")
            continue;
        const origin at{name, k.line, "", 0};
        for (const auto& item : decode_list(k.text))
            if (!read_file(r, relative_to(name, item), &at))
                ok = false;
    }
    for (const auto& k : keys) {
        if (k.group == "scenario" && k.key == "include")
            continue;
        raw_value rv;
        rv.group = k.group;
        rv.key = k.key;
        rv.text = k.text;
        rv.where = origin{name, k.line, "", (unsigned)r.raw->values.size()};
        rv.group_line = k.group_line;
        r.raw->values.push_back(rv);
    }
    r.stack.pop_back();
    r.stack_names.pop_back();
    return ok;
}

} // namespace

bool scenario_read(const std::string& path, raw_scenario* raw, std::vector<std::string>* errors, bool skip_soc)
{
    error_list errs{errors};
    reader r{raw, &errs, {}, {}};
    r.skip_soc = skip_soc;
    return read_file(r, path, nullptr);
}

bool scenario_read_profile(const std::string& soc, const origin& at, raw_scenario* raw,
                           std::vector<std::string>* errors)
{
    error_list errs{errors};
    reader r{raw, &errs, {}, {}};
    return read_profile(r, soc, &at);
}

bool scenario_read_text(const std::string& name, const std::string& text, raw_scenario* raw,
                        std::vector<std::string>* errors)
{
    error_list errs{errors};
    reader r{raw, &errs, {}, {}};
    if (text.size() > k_scenario_max_file_bytes) {
        errs.add(origin{name, 0, "", 0}, "is more than " + mib(k_scenario_max_file_bytes) +
                                             "; a scenario file may have at most " + mib(k_scenario_max_file_bytes));
        return false;
    }
    r.files = 1;
    r.bytes = text.size();
    return read_one(r, name, text, name, nullptr);
}

} // namespace sim
