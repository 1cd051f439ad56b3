#include "drivers/khost/driver_build.h"
#include "drivers/khost/data_dir.h"
#include "drivers/khost/host_dirs.h"
#include "drivers/khost/kernel_tree.h"
#include <map>
#include <set>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace khost {

const char* driver_cflags()
{
    return "-std=gnu11 -O2 -g -fPIC -fno-plt -fno-builtin -fno-common -fno-omit-frame-pointer "
           "-fsanitize=thread -fsanitize-coverage=trace-pc -Wall";
}

// Not finding the data is an installation problem, not bad input.
static std::string data_subdir(const char* sub)
{
    try {
        return data_dir() + sub;
    } catch (const data_dir_error& e) {
        throw driver_io_error(e.what());
    }
}

std::string default_driver_dir() { return data_subdir("/drivers/fec"); }
std::string default_shim_dir() { return data_subdir("/drivers/shim"); }

namespace {

// An error of the build itself (file system, compiler that cannot run), not
// of the driver's sources or patches.
[[noreturn]] void io_fail(const std::string& what, int err)
{
    throw driver_io_error(what + ": " + std::strerror(err));
}

// The whole of a regular file. A missing or unreadable file, or one that is
// not a regular file (a FIFO would block), is bad input (driver_error); a
// read that fails on an open file is an I/O error.
std::string slurp(const std::string& path)
{
    const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        const int e = errno;
        if (e == ENOENT || e == ENOTDIR || e == EACCES || e == ENXIO || e == ELOOP)
            throw driver_error("cannot read " + path + ": " + std::strerror(e));
        io_fail("cannot read " + path, e);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        const int e = errno;
        close(fd);
        io_fail("cannot read " + path, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        throw driver_error("cannot read " + path + ": not a regular file");
    }
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int e = errno;
            close(fd);
            io_fail("cannot read " + path, e);
        }
        if (n == 0)
            break;
        text.append(buf, (size_t)n);
    }
    close(fd);
    return text;
}

// Writes text to a new file; any failure (ENOSPC, EIO, EDQUOT ...) is an I/O error.
void write_file(const std::string& path, const std::string& text)
{
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        io_fail("cannot write " + path, errno);
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int e = errno;
            close(fd);
            io_fail("cannot write " + path, e);
        }
        done += (size_t)n;
    }
    if (close(fd) != 0)
        io_fail("cannot write " + path, errno);
}

// The .c and .h files of dir (sorted; with subdirectories when recurse).
// Each must be a regular file.
std::vector<std::string> list_files(const std::string& dir, bool recurse, const std::string& rel = "")
{
    std::vector<std::string> out;
    DIR* d = opendir((dir + "/" + rel).c_str());
    if (!d)
        throw driver_error("cannot open driver directory " + dir + "/" + rel + ": " + std::strerror(errno));
    while (dirent* e = readdir(d)) {
        std::string n = e->d_name;
        if (n == "." || n == "..")
            continue;
        std::string r = rel.empty() ? n : rel + "/" + n;
        struct stat st;
        if (stat((dir + "/" + r).c_str(), &st))
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (recurse) {
                auto sub = list_files(dir, true, r);
                out.insert(out.end(), sub.begin(), sub.end());
            }
        } else if (n.size() > 2 && (n.compare(n.size() - 2, 2, ".c") == 0 || n.compare(n.size() - 2, 2, ".h") == 0)) {
            if (!S_ISREG(st.st_mode)) {
                closedir(d);
                throw driver_error(dir + "/" + r + " is not a regular file");
            }
            out.push_back(r);
        }
    }
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

uint64_t fnv(uint64_t h, const std::string& s)
{
    for (unsigned char c : s)
        h = (h ^ c) * 0x100000001B3ull;
    return (h ^ 0xFF) * 0x100000001B3ull;
}

// Runs a shell command; returns its exit status and combined output, or -1
// if it could not be run or was ended by a signal.
int run(const std::string& cmd, std::string* out)
{
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p)
        return -1;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out->append(buf, n);
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string absolute(const std::string& p)
{
    if (!p.empty() && p[0] == '/')
        return p;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        io_fail("cannot resolve " + p, errno);
    return std::string(cwd) + "/" + p;
}

void mkdirs(const std::string& path)
{
    std::string cur;
    std::stringstream ss(path);
    std::string part;
    while (std::getline(ss, part, '/')) {
        cur += part + "/";
        if (!part.empty() && mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST)
            io_fail("cannot create " + cur, errno);
    }
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
        io_fail("cannot create " + path, errno);
    if (!S_ISDIR(st.st_mode))
        io_fail("cannot create " + path, ENOTDIR);
}

// Build directories of builds that ended without finishing (killed, or the
// machine went down) are removed by the next build: "build-<pid>@<host>-*"
// of a dead process of this host, and "build.*" (the form without a pid)
// not touched for a day.
void clean_stale_builds(const std::string& cache_dir)
{
    std::vector<std::string> dead = stale_dirs(cache_dir, "build-");
    if (DIR* d = opendir(cache_dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name, path = cache_dir + "/" + n;
            struct stat st;
            if (n.compare(0, 6, "build.") == 0 && lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
                time(nullptr) - st.st_mtime > 24 * 3600)
                dead.push_back(path);
        }
        closedir(d);
    }
    for (const auto& p : dead)
        rm_tree(p);
}

// The executable `cc` resolves to as the shell finds it (the first
// executable cc on PATH, symbolic links followed) and its identity: device,
// inode, size and modification time. "" when there is none or PATH is not
// set (the shell's default path is its own), or when it is not an ELF file
// or is a compiler cache or distributor (ccache, distcc, sccache, icecc): a
// script's or a wrapper's --version says what another file, which may
// change under it, says.
std::string compiler_identity()
{
    const char* env = getenv("PATH");
    if (!env)
        return "";
    const std::string path = env;
    for (size_t b = 0; b <= path.size();) {
        size_t e = path.find(':', b);
        if (e == std::string::npos)
            e = path.size();
        const std::string dir = e > b ? path.substr(b, e - b) : ".";
        b = e + 1;
        const std::string cand = dir + "/cc";
        if (access(cand.c_str(), X_OK) != 0)
            continue;
        char real[4096];
        struct stat st;
        if (!realpath(cand.c_str(), real) || stat(real, &st) != 0 || !S_ISREG(st.st_mode))
            return "";
        const char* base = std::strrchr(real, '/');
        base = base ? base + 1 : real;
        for (const char* w : {"ccache", "distcc", "sccache", "icecc"})
            if (std::strcmp(base, w) == 0)
                return "";
        char magic[4] = {};
        std::ifstream f(real, std::ios::binary);
        if (!f.read(magic, 4) || std::memcmp(magic, "\x7f" "ELF", 4) != 0)
            return "";
        char id[160];
        std::snprintf(id, sizeof id, "%llu %llu %lld %lld.%09ld ", (unsigned long long)st.st_dev,
                      (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                      st.st_mtim.tv_nsec);
        return id + std::string(real);
    }
    return "";
}

// First line of `cc --version` ("" if cc does not run: the build then fails
// and says why). Kept in <cache_dir>/cc-version with the identity of the
// compiler's executable (compiler_identity()); a run whose compiler has the
// identity kept there takes the line from it instead of starting cc. The
// file is replaced whole (rename), and a cache that cannot hold it only
// costs the look.
std::string compiler_version(const std::string& cache_dir)
{
    const std::string id = compiler_identity(), memo = cache_dir + "/cc-version";
    if (!id.empty()) {
        std::ifstream in(memo);
        std::string kept_id, line;
        if (std::getline(in, kept_id) && kept_id == id && std::getline(in, line))
            return line;
    }
    std::string out;
    if (run("cc --version", &out) != 0)
        return "";
    const std::string line = out.substr(0, out.find('\n'));
    if (!id.empty() && !line.empty()) {
        const std::string tmp = memo + ".tmp-" + std::to_string(getpid());
        try {
            mkdirs(cache_dir);
            write_file(tmp, id + "\n" + line + "\n");
            if (rename(tmp.c_str(), memo.c_str()) != 0)
                unlink(tmp.c_str());
        } catch (const driver_error&) {
            unlink(tmp.c_str());  // the build says why the cache cannot be written
        }
    }
    return line;
}

// Whether a failed step's output says the file system failed it rather than
// the input (the tools print strerror texts).
bool io_failure_in(const std::string& out)
{
    for (int e : {ENOSPC, EDQUOT, EIO, EROFS, EMFILE, ENFILE, ENOMEM})
        if (out.find(std::strerror(e)) != std::string::npos)
            return true;
    return false;
}

// A failed build step: driver_io_error when the file system or the tools
// failed it (rc -1: could not run, or killed), driver_error otherwise.
[[noreturn]] void step_failed(int rc, const std::string& msg, const std::string& out)
{
    if (rc < 0 || io_failure_in(out))
        throw driver_io_error(msg + (rc < 0 ? " (the command could not run or was killed)" : "") + ":\n" + out);
    throw driver_error(msg + ":\n" + out);
}

} // namespace

std::string shell_quote(const std::string& s) { return quote(s); }
void make_dirs(const std::string& path) { mkdirs(path); }

// The flags of the two steps; all of them, with the compiler's version, are
// part of the cache key.
static const char* const k_link_flags = "-shared";

const char* driver_ldflags() { return k_link_flags; }

// The strip levels tried for a patch: git format-patch / git diff output
// (a/..., b/...) needs 1, a diff made inside the tree 0, one made above it 2..4.
static const int k_max_strip_level = 4;

// What to say when patch p applies at no strip level and its file names
// point at the other kind of driver: a kernel tree's fec files
// (drivers/net/ethernet/...) given to fecsim's own driver, or bare names
// (fec_main.c, a/fec_main.c: the own driver's layout) given to a tree.
// "" when the names say nothing of the kind.
static std::string patch_kind_hint(const std::string& p, bool tree)
{
    std::istringstream in(slurp(p));
    bool tree_paths = false, bare_paths = false;
    for (std::string l; std::getline(in, l);) {
        if (l.compare(0, 4, "+++ ") != 0)
            continue;
        std::string name = l.substr(4, l.find_first_of("\t", 4) - 4);
        if (name == "/dev/null")
            continue;
        if (name.find("drivers/net/ethernet/") != std::string::npos)
            tree_paths = true;
        else if (name.find('/') == std::string::npos ||
                 (name.size() > 2 && name[1] == '/' && name.find('/', 2) == std::string::npos))
            bare_paths = true;
    }
    if (!tree && tree_paths)
        return "\nThe patch names a kernel tree's files (drivers/net/ethernet/...), and this scenario builds "
               "fecsim's own driver (driver.source): give the tree with driver.tree and driver.name, e.g. "
               "-o driver.tree=/usr/src/linux-source-6.12.tar.xz -o driver.name=fec, or run a scenario that sets "
               "them (scenarios/imx6q/upstream-6.12-idle.ini)";
    if (tree && bare_paths && !tree_paths)
        return "\nThe patch names files without the tree's directories (fec_main.c), as a patch of fecsim's own "
               "driver (driver.source) does; a patch for the tree's driver names "
               "drivers/net/ethernet/freescale/fec_main.c (git diff inside the tree)";
    return "";
}

// The strip level with which patch p applies in dir: the one of -p0..-p4
// for which `patch --dry-run` succeeds. None: driver_error with patch's own
// words (of the level that found the files, else of -p1); more than one:
// driver_error naming them (the patch is ambiguous, nothing is guessed).
static int patch_strip_level(const std::string& dir, const std::string& p, const std::string& origin, bool tree)
{
    std::vector<int> ok;
    std::string why, why_p1;
    for (int level = 0; level <= k_max_strip_level; level++) {
        std::string out;
        const int rc = run("patch -p" + std::to_string(level) + " --dry-run --batch --forward -d " + quote(dir) +
                               " -i " + quote(absolute(p)),
                           &out);
        if (rc < 0 || io_failure_in(out))
            step_failed(rc, "patch " + p + " could not be tried against " + origin, out);
        if (rc == 0)
            ok.push_back(level);
        else if (level == 1)
            why_p1 = out;
        if (rc != 0 && why.empty() && out.find("can't find file to patch") == std::string::npos)
            why = out;  // found the files, but the hunks do not apply
    }
    if (ok.size() == 1)
        return ok[0];
    if (ok.empty())
        throw driver_error("patch " + p + " does not apply to " + origin + " with any strip level -p0..-p" +
                           std::to_string(k_max_strip_level) + ":\n" + (why.empty() ? why_p1 : why) +
                           (why.empty() ? patch_kind_hint(p, tree) : ""));
    std::string levels;
    for (int l : ok)
        levels += (levels.empty() ? "-p" : ", -p") + std::to_string(l);
    throw driver_error("patch " + p + " applies to " + origin + " with more than one strip level (" + levels +
                       "): ambiguous, refused; give file names that name one place in the tree (git diff: a/... b/...)");
}

// Applies the patches in order in dir (a copy of `origin`'s files; origin
// itself is never written), each with the strip level it needs
// (patch_strip_level), and records a line per patch in dir/patches.txt:
// "-pN path", then a tab and patch's own report of each hunk that did not
// apply where the patch said ("Hunk #1 succeeded at 1699 (offset -114
// lines)."; "with fuzz 2": its context did not match), tab-separated.
static void apply_patches(const std::string& dir, const std::vector<std::string>& patches, const std::string& origin,
                          bool tree)
{
    std::string notes;
    for (const auto& p : patches) {
        const int level = patch_strip_level(dir, p, origin, tree);
        std::string out;
        const int rc = run("patch -p" + std::to_string(level) + " --batch --forward --no-backup-if-mismatch -d " +
                               quote(dir) + " -i " + quote(absolute(p)),
                           &out);
        if (rc != 0)
            step_failed(rc, "patch " + p + " does not apply to " + origin, out);
        notes += "-p" + std::to_string(level) + " " + absolute(p);
        std::istringstream lines(out);
        for (std::string l; std::getline(lines, l);)
            if (l.rfind("Hunk #", 0) == 0 && l.find(" succeeded at ") != std::string::npos)
                notes += "\t" + l;
        notes += "\n";
    }
    if (!patches.empty())
        write_file(dir + "/patches.txt", notes);
}

std::vector<std::pair<std::string, std::string>> parse_driver_defines(const std::string& text)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ';');) {
        const size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
        if (a == std::string::npos)
            continue;
        item = item.substr(a, b - a + 1);
        const size_t eq = item.find('=');
        const std::string name = item.substr(0, eq);
        if (eq == std::string::npos || name.empty() || std::isdigit((unsigned char)name[0]) ||
            name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") !=
                std::string::npos)
            throw std::invalid_argument("'" + item + "' is not NAME=VALUE with NAME a C identifier");
        std::string value = item.substr(eq + 1);
        const size_t va = value.find_first_not_of(" \t");
        value = va == std::string::npos ? "" : value.substr(va);
        if (value.empty() || value.back() == '\\')
            throw std::invalid_argument("'" + item + "': the value must be one non-empty line");
        for (const auto& d : out)
            if (d.first == name)
                throw std::invalid_argument(name + " is given twice");
        out.emplace_back(name, value);
    }
    return out;
}

// Gives each of defines its new value in the files of dir (the driver's own
// .c and .h files, already patched), and records "FILE:LINE NAME OLD -> NEW"
// lines in notes_path. A NAME must be #defined exactly once, as an
// object-like macro on one line; a comment after the value stays.
static void apply_defines(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& defines,
                          const std::string& notes_path)
{
    if (defines.empty())
        return;
    std::vector<std::string> files;
    for (const auto& f : list_files(dir, false))
        if (f.size() > 2 && (f.compare(f.size() - 2, 2, ".c") == 0 || f.compare(f.size() - 2, 2, ".h") == 0))
            files.push_back(f);
    std::map<std::string, std::vector<std::string>> text;
    for (const auto& f : files) {
        std::istringstream in(slurp(dir + "/" + f));
        for (std::string l; std::getline(in, l);)
            text[f].push_back(l);
    }
    std::string notes;
    for (const auto& [name, value] : defines) {
        std::vector<std::pair<std::string, size_t>> where;
        for (const auto& f : files)
            for (size_t i = 0; i < text[f].size(); i++) {
                const std::string& l = text[f][i];
                size_t p = l.find_first_not_of(" \t");
                if (p == std::string::npos || l[p] != '#')
                    continue;
                p = l.find_first_not_of(" \t", p + 1);
                if (p == std::string::npos || l.compare(p, 6, "define") != 0)
                    continue;
                p = l.find_first_not_of(" \t", p + 6);
                if (p == std::string::npos || l.compare(p, name.size(), name) != 0)
                    continue;
                const size_t e = p + name.size();
                if (e < l.size() && (std::isalnum((unsigned char)l[e]) || l[e] == '_'))
                    continue;  // a longer name
                where.emplace_back(f, i);
            }
        std::string list;
        for (const auto& [f, i] : where)
            list += (list.empty() ? "" : ", ") + f + ":" + std::to_string(i + 1);
        if (where.size() != 1) {
            std::string names;
            for (const auto& f : files)
                names += (names.empty() ? "" : ", ") + f;
            throw driver_error("driver.defines: " + name + " is " +
                               (where.empty() ? "not #defined in the driver's files (" + names + ")"
                                              : "#defined more than once (" + list + "): ambiguous, refused"));
        }
        std::string& l = text[where[0].first][where[0].second];
        size_t e = l.find(name) + name.size();
        if (e < l.size() && l[e] == '(')
            throw driver_error("driver.defines: " + name + " at " + list + " is a function-like macro");
        if (!l.empty() && l.back() == '\\')
            throw driver_error("driver.defines: " + name + " at " + list + " continues on the next line");
        // the old value: up to a comment; the comment stays
        const size_t c = std::min(l.find("/*", e), l.find("//", e));
        std::string old = l.substr(e, c == std::string::npos ? std::string::npos : c - e);
        const size_t oa = old.find_first_not_of(" \t"), ob = old.find_last_not_of(" \t");
        old = oa == std::string::npos ? "" : old.substr(oa, ob - oa + 1);
        l = l.substr(0, e) + " " + value + (c == std::string::npos ? "" : "\t" + l.substr(c));
        notes += list + " " + name + " " + (old.empty() ? "(empty)" : old) + " -> " + value + "\n";
    }
    for (const auto& f : files) {
        std::string out;
        for (const auto& l : text[f])
            out += l + "\n";
        if (out != slurp(dir + "/" + f))
            write_file(dir + "/" + f, out);
    }
    write_file(notes_path, notes);
}

// A fresh directory cache_dir/build-<pid>@<host>-XXXXXX: the pid and host
// in the name let a later build tell a dead process's directory
// (clean_stale_builds).
static std::string make_build_dir(const std::string& cache_dir)
{
    mkdirs(cache_dir);
    std::string tmpl = cache_dir + "/build-" + std::to_string(getpid()) + "@" + host_name() + "-XXXXXX";
    std::vector<char> t(tmpl.begin(), tmpl.end());
    t.push_back(0);
    if (!mkdtemp(t.data()))
        io_fail("cannot create a build directory in " + cache_dir, errno);
    return t.data();
}

// Runs build(tmp) in a fresh build directory of cache_dir and renames it to
// final_dir, unless final_dir/driver.so exists already. A failed build
// leaves nothing behind.
static void cached_build(const std::string& cache_dir, const std::string& final_dir,
                         const std::function<void(const std::string&)>& build)
{
    if (access((final_dir + "/driver.so").c_str(), R_OK) == 0)
        return;
    mkdirs(cache_dir);
    clean_stale_builds(cache_dir);
    const std::string tmp = make_build_dir(cache_dir);
    try {
        build(tmp);
    } catch (...) {
        rm_tree(tmp);
        throw;
    }
    if (rename(tmp.c_str(), final_dir.c_str()) != 0) {
        const int e = errno;
        rm_tree(tmp);  // another process built the same thing
        if (access((final_dir + "/driver.so").c_str(), R_OK) != 0)
            io_fail("cannot store the driver build in " + final_dir, e);
    }
}

std::string driver_cache_dir()
{
    const char* env = getenv("FECSIM_CACHE");
    const char* home = getenv("HOME");
    return env ? env : std::string(home ? home : "/tmp") + "/.cache/fecsim/drivers";
}

static std::string cache_dir_or_default(const std::string& dir) { return dir.empty() ? driver_cache_dir() : dir; }

static void* tree_driver_load(const driver_build_config& cfg);
static void* load_so(const std::string& so);

void* driver_load(const driver_build_config& in)
{
    driver_build_config cfg = in;
    if (cfg.shim_dir.empty())
        cfg.shim_dir = default_shim_dir();
    if (!cfg.tree.empty())
        return tree_driver_load(cfg);
    if (cfg.source_dir.empty())
        cfg.source_dir = default_driver_dir();
    if (cfg.shim_dir.empty())
        cfg.shim_dir = default_shim_dir();
    cfg.cache_dir = cache_dir_or_default(cfg.cache_dir);
    const std::string src = absolute(cfg.source_dir);
    const std::vector<std::string> files = list_files(src, false);
    if (std::none_of(files.begin(), files.end(),
                     [](const std::string& f) { return f.size() > 2 && f.compare(f.size() - 2, 2, ".c") == 0; }))
        throw driver_error("driver directory " + src + " has no .c file");
    const std::string include_flag = "-I" + quote(cfg.shim_dir + "/include");

    // Cache key: compiler, flags, sources, patches, shim headers.
    uint64_t h = 0xCBF29CE484222325ull;
    h = fnv(h, "cc " + compiler_version(cfg.cache_dir));
    h = fnv(h, driver_cflags());
    h = fnv(h, k_link_flags);
    for (const auto& f : files)
        h = fnv(fnv(h, f), slurp(src + "/" + f));
    for (const auto& p : cfg.patches)
        h = fnv(fnv(h, "patch"), slurp(p));
    if (!cfg.patches.empty())
        h = fnv(h, "patches.txt");  // builds that record their strip levels
    for (const auto& [n, v] : cfg.defines)
        h = fnv(fnv(fnv(h, "define"), n), v);
    for (const auto& f : list_files(cfg.shim_dir + "/include", true))
        h = fnv(fnv(h, f), slurp(cfg.shim_dir + "/include/" + f));
    h = fnv(h, slurp(cfg.shim_dir + "/simhost.h"));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    const std::string final_dir = cfg.cache_dir + "/" + hex;
    const std::string so = final_dir + "/driver.so";

    cached_build(cfg.cache_dir, final_dir, [&](const std::string& tmp) {
            for (const auto& f : files)
                write_file(tmp + "/" + f, slurp(src + "/" + f));
            apply_patches(tmp, cfg.patches, src, false);
            apply_defines(tmp, cfg.defines, tmp + "/defines.txt");
            std::string objs;
            for (const auto& f : list_files(tmp, false)) {
                if (f.compare(f.size() - 2, 2, ".c"))
                    continue;
                const std::string o = f.substr(0, f.size() - 2) + ".o";
                std::string out;
                const int rc = run("cd " + quote(tmp) + " && cc " + driver_cflags() + " " + include_flag + " -c " +
                                       quote(f) + " -o " + quote(o),
                                   &out);
                if (rc != 0)
                    step_failed(rc, "driver does not compile (" + f + (cfg.patches.empty() ? "" : ", patched") + ")",
                                out);
                objs += " " + quote(o);
            }
            std::string out;
            const int rc = run("cd " + quote(tmp) + " && cc " + k_link_flags + " -o driver.so" + objs, &out);
            if (rc != 0)
                step_failed(rc, "driver does not link", out);
    });
    return load_so(so);
}

static void* load_so(const std::string& so)
{
    void* handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        std::string e = dlerror();
        const std::string key = "undefined symbol: ";
        const size_t k = e.find(key);
        if (k != std::string::npos)
            throw driver_error("the driver uses kernel symbol '" + e.substr(k + key.size()) +
                               "', which the shim does not provide (drivers/shim)");
        throw driver_error("cannot load the driver: " + e);
    }
    return handle;
}

// ---------------------------------------------------------------- drivers of a kernel tree

std::string tree_kconfig_header(int version, int patchlevel, int sublevel)
{
    // The i.MX6Q (imx_v6_v7_defconfig) options the fec driver and the
    // headers it includes test; everything else is unset.
    static const char* const k_options[][2] = {
        {"CONFIG_ARM", "1"},              // fec.h: little-endian descriptors, no ColdFire
        {"CONFIG_ARCH_MXC", "1"},
        {"CONFIG_SOC_IMX6Q", "1"},
        {"CONFIG_OF", "1"},               // device tree probe, of_match_table
        {"CONFIG_PM", "1"},               // runtime PM (pm_runtime_*)
        {"CONFIG_PM_SLEEP", "1"},         // suspend/resume ops
        {"CONFIG_NET", "1"},
        {"CONFIG_FEC", "1"},
        {"CONFIG_PTP_1588_CLOCK", "1"},   // fec_ptp.c
        {"CONFIG_SMP", "1"},
        {"CONFIG_NR_CPUS", "4"},
        {"CONFIG_HZ", "100"},
        {"CONFIG_ARM_L1_CACHE_SHIFT", "5"},  // Cortex-A9: 32-byte lines
        {"CONFIG_PAGE_OFFSET", "0xC0000000"},
    };
    std::string h = "/* Generated by fecsim for a kernel tree's driver: the i.MX6Q configuration. */\n"
                    "#ifndef FECSIM_KCONFIG_H\n#define FECSIM_KCONFIG_H\n";
    for (const auto& o : k_options)
        h += std::string("#define ") + o[0] + " " + o[1] + "\n";
    char v[160];
    std::snprintf(v, sizeof v,
                  "#define LINUX_VERSION_CODE %d\n#define FECSIM_API_LEVEL %d\n",
                  (version << 16) + (patchlevel << 8) + (sublevel > 255 ? 255 : sublevel),
                  version * 100 + patchlevel);
    h += v;
    h += "#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))\n#endif\n";
    return h;
}

std::vector<std::string> stop_on_call_list(const std::string& shim_dir)
{
    std::vector<std::string> names;
    std::stringstream in(slurp(shim_dir + "/v6/stop_on_call.list"));
    std::string line;
    while (std::getline(in, line)) {
        std::stringstream ls(line);
        std::string name;
        if (ls >> name && name[0] != '#')
            names.push_back(name);
    }
    return names;
}

namespace {

// Symbols a tree driver's objects may leave undefined: the simulator's own
// interface (drivers/shim/simhost.h), the instrumentation hooks the khost
// defines, and what the compiler itself emits calls to.
bool host_provided(const std::string& s)
{
    static const char* const k_prefixes[] = {"simhost_", "__tsan_", "__sanitizer_cov_"};
    for (const char* p : k_prefixes)
        if (s.compare(0, std::strlen(p), p) == 0)
            return true;
    // fdt_*: libfdt, which the shim's device tree links (drivers/shim/v6/fdt_api.h);
    // vsnprintf: the C library's, behind the shim's snprintf and printk.
    return s == "memcpy" || s == "memset" || s == "memmove" || s == "_GLOBAL_OFFSET_TABLE_" ||
           s == "vsnprintf" || s.compare(0, 4, "fdt_") == 0;
}

std::vector<std::string> tool_lines(const std::string& cmd)
{
    std::string out;
    const int rc = run(cmd, &out);
    if (rc != 0)
        step_failed(rc, "cannot read the driver's objects (" + cmd + ")", out);
    std::vector<std::string> lines;
    std::stringstream ss(out);
    std::string l;
    while (std::getline(ss, l))
        lines.push_back(l);
    return lines;
}

std::vector<std::string> words(const std::string& l)
{
    std::vector<std::string> w;
    std::stringstream ss(l);
    std::string x;
    while (ss >> x)
        w.push_back(x);
    return w;
}

std::string base_name(const std::string& p)
{
    const size_t s = p.rfind('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

// Where obj (a relocatable object) refers to each of the symbols in want:
// "fec_main.c:1234 (fec_probe)" per reference, in object order.
std::map<std::string, std::vector<std::string>> use_sites(const std::string& obj, const std::set<std::string>& want)
{
    std::map<std::string, std::vector<std::string>> sites;
    // section -> [(offset, symbol)]
    std::map<std::string, std::vector<std::pair<unsigned long long, std::string>>> refs;
    std::string sec;
    for (const auto& l : tool_lines("readelf -rW " + quote(obj))) {
        const std::string head = "Relocation section '";
        if (l.compare(0, head.size(), head) == 0) {
            sec = l.substr(head.size(), l.find('\'', head.size()) - head.size());
            if (sec.compare(0, 5, ".rela") == 0)
                sec = sec.substr(5);
            continue;
        }
        const auto w = words(l);
        if (w.size() < 5 || w[0].find_first_not_of("0123456789abcdef") != std::string::npos)
            continue;
        if (want.count(w[4]))
            refs[sec].push_back({std::stoull(w[0], nullptr, 16), w[4]});
    }
    // Data: the object whose initializer holds the reference (objdump -t),
    // with its line (nm -l).
    struct data_sym {
        std::string sec, name;
        unsigned long long start, size;
    };
    std::vector<data_sym> data;
    std::map<std::string, std::string> sym_line;
    bool data_read = false;
    for (const auto& r : refs) {
        const bool code = r.first.compare(0, 5, ".text") == 0;
        if (code) {
            std::string cmd = "addr2line -a -i -f -e " + quote(obj) + " -j " + quote(r.first);
            for (const auto& x : r.second) {
                char a[32];
                std::snprintf(a, sizeof a, " 0x%llx", x.first);
                cmd += a;
            }
            const auto lines = tool_lines(cmd);
            // Blocks: "0x..." then (function, file:line) pairs, innermost first.
            size_t i = 0, k = 0;
            while (i < lines.size() && k < r.second.size()) {
                if (lines[i].compare(0, 2, "0x") != 0) {
                    i++;
                    continue;
                }
                i++;
                std::string pick, first;
                while (i + 1 < lines.size() && lines[i].compare(0, 2, "0x") != 0) {
                    const std::string site = base_name(lines[i + 1].substr(0, lines[i + 1].find(' '))) + " (" +
                                             lines[i] + ")";
                    if (first.empty())
                        first = site;
                    if (pick.empty() && lines[i + 1].find("/drivers/shim/") == std::string::npos)
                        pick = site;
                    i += 2;
                }
                sites[r.second[k].second].push_back(pick.empty() ? first : pick);
                k++;
            }
            continue;
        }
        if (!data_read) {
            data_read = true;
            for (const auto& l : tool_lines("objdump -t " + quote(obj))) {
                // "0000000000000000 l     O .data.rel.ro	0000000000000120 fec_enet_ethtool_ops"
                const auto w = words(l);
                if (w.size() >= 5 && w[w.size() - 4] == "O")
                    data.push_back({w[w.size() - 3], w.back(), std::stoull(w[0], nullptr, 16),
                                    std::stoull(w[w.size() - 2], nullptr, 16)});
            }
            for (const auto& l : tool_lines("nm -l --defined-only " + quote(obj))) {
                const size_t tab = l.find('\t');
                const auto w = words(l.substr(0, tab));
                if (tab != std::string::npos && w.size() == 3)
                    sym_line[w[2]] = base_name(l.substr(tab + 1));
            }
        }
        for (const auto& x : r.second) {
            std::string site = base_name(obj) + " (" + r.first + ")";
            for (const auto& d : data)
                if (d.sec == r.first && x.first >= d.start && x.first < d.start + d.size) {
                    auto it = sym_line.find(d.name);
                    site = (it != sym_line.end() ? it->second : base_name(obj)) + " (initializer of " + d.name + ")";
                }
            sites[x.second].push_back(site);
        }
    }
    return sites;
}

std::set<std::string> nm_names(const std::string& obj, bool undefined)
{
    std::set<std::string> names;
    for (const auto& l : tool_lines("nm --format=posix " + std::string(undefined ? "-u " : "--defined-only ") +
                                    quote(obj))) {
        const auto w = words(l);
        if (w.size() >= 2)
            names.insert(w[0]);
    }
    return names;
}

} // namespace

// Every symbol the objects use that none of them defines and the host does
// not provide: one driver_error listing all of them with their use sites.
static void check_symbols(const std::vector<std::string>& objs, const kernel_tree& t, const std::string& shim_v6)
{
    std::set<std::string> defined;
    for (const auto& o : objs) {
        const auto d = nm_names(o, false);
        defined.insert(d.begin(), d.end());
    }
    std::set<std::string> missing;
    std::map<std::string, std::set<std::string>> users;
    for (const auto& o : objs)
        for (const auto& u : nm_names(o, true))
            if (!defined.count(u) && !host_provided(u)) {
                missing.insert(u);
                users[o].insert(u);
            }
    if (missing.empty())
        return;
    std::map<std::string, std::vector<std::string>> sites;
    for (const auto& ou : users)
        for (auto& s : use_sites(ou.first, ou.second))
            sites[s.first].insert(sites[s.first].end(), s.second.begin(), s.second.end());
    std::string m = "the " + t.driver + " driver of " + t.root + " (Linux " + t.version_text() + ") uses " +
                    std::to_string(missing.size()) + " kernel symbol" + (missing.size() == 1 ? "" : "s") +
                    " that the shim's API level " + t.api + " (" + shim_v6 +
                    ") neither provides nor stops on (stop_on_call.list):";
    for (const auto& name : missing) {
        m += "\n  " + name + ":";
        const auto& v = sites[name];
        for (size_t i = 0; i < v.size() && i < 3; i++)
            m += (i ? ", " : " ") + v[i];
        if (v.size() > 3)
            m += " (+" + std::to_string(v.size() - 3) + " more)";
        if (v.empty())
            m += " (no site found)";
    }
    throw driver_error(m);
}

// A C file with one stop-on-call stub per name: a call stops the run with the
// function's name and the caller's site (simhost_stop_on_call).
static std::string stop_stubs_source(const std::vector<std::string>& names)
{
    std::string c = "/* Generated by fecsim from drivers/shim/v6/stop_on_call.list. */\n"
                    "void simhost_stop_on_call(const char *name, const void *caller) __attribute__((noreturn));\n";
    for (const auto& n : names)
        c += "void " + n + "(void);\nvoid " + n + "(void) { simhost_stop_on_call(\"" + n +
             "\", __builtin_return_address(0)); }\n";
    return c;
}

std::string default_dts() { return data_subdir("/scenarios/profiles/imx6q.dts"); }

std::string compile_device_tree(const std::string& dts)
{
    (void)slurp(dts);  // a missing or unreadable file is the input's fault
    std::string out;
    const int rc = run("dtc -q -I dts -O dtb -o /dev/null " + quote(dts), &out);
    if (rc != 0)
        step_failed(rc, "the device tree " + dts + " does not compile (dtc)", out);
    FILE* p = popen(("dtc -q -I dts -O dtb -o - " + quote(dts) + " 2>/dev/null").c_str(), "r");
    if (!p)
        io_fail("cannot run dtc", errno);
    std::string dtb;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        dtb.append(buf, n);
    if (pclose(p) != 0 || dtb.empty())
        throw driver_io_error("dtc did not produce a device tree blob from " + dts);
    return dtb;
}

static void* tree_driver_load(const driver_build_config& cfg)
{
    const kernel_tree t = kernel_tree_open(absolute(cfg.tree), cfg.tree_driver);
    const tree_driver* td = tree_driver_find(t.driver);
    const std::string v6 = absolute(cfg.shim_dir) + "/v6";
    const std::string cache_dir = cache_dir_or_default(cfg.cache_dir);
    const std::string kconfig = tree_kconfig_header(t.version, t.patchlevel, t.sublevel);
    const std::vector<std::string> stubs = stop_on_call_list(cfg.shim_dir);
    std::vector<std::string> runtime;
    for (const auto& f : list_files(v6, false))
        if (f.compare(f.size() - 2, 2, ".c") == 0)
            runtime.push_back(f);
    // The kernel's own code-generation and warning choices that matter for
    // driver code: no strict aliasing, null checks kept, pointer-sign quiet.
    const std::string flags = std::string(driver_cflags()) +
                              " -fno-strict-aliasing -fno-delete-null-pointer-checks -Wno-pointer-sign "
                              "-Wno-maybe-uninitialized -nostdinc -I" +
                              quote(v6 + "/include") + " -include fecsim_kconfig.h";
    const std::string link = std::string(k_link_flags) + " -Wl,-Bsymbolic";
    // The stop-on-call stubs are not instrumented: a report names the caller, not the stub.
    const std::string stub_flags = " -fno-sanitize=thread -fno-sanitize-coverage=trace-pc";

    uint64_t h = 0xCBF29CE484222325ull;
    h = fnv(h, "tree cc " + compiler_version(cache_dir));
    h = fnv(fnv(fnv(fnv(h, flags), stub_flags), link), kconfig);
    h = fnv(h, td->dir);
    for (const auto& f : t.files)
        h = fnv(fnv(h, f), slurp(t.dir + "/" + f));
    for (const auto& p : cfg.patches)
        h = fnv(fnv(h, "patch"), slurp(p));
    if (!cfg.patches.empty())
        h = fnv(h, "patches.txt");  // builds that record their strip levels
    for (const auto& [n, v] : cfg.defines)
        h = fnv(fnv(fnv(h, "define"), n), v);
    for (const auto& f : list_files(v6, true))
        h = fnv(fnv(h, f), slurp(v6 + "/" + f));
    h = fnv(h, slurp(cfg.shim_dir + "/v6/stop_on_call.list"));
    // The shim's own headers the 6.x sources include from above (simhost.h,
    // shim.h, the stack of udp_stack.h).
    for (const auto& f : list_files(cfg.shim_dir, false))
        if (f.size() > 2 && f.compare(f.size() - 2, 2, ".h") == 0)
            h = fnv(fnv(h, f), slurp(cfg.shim_dir + "/" + f));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    const std::string final_dir = cache_dir + "/" + hex;

    cached_build(cache_dir, final_dir, [&](const std::string& tmp) {
        const std::string ddir = tmp + "/" + td->dir;
        mkdirs(ddir);
        mkdirs(tmp + "/shim");
        for (const auto& f : t.files)
            write_file(ddir + "/" + f, slurp(t.dir + "/" + f));
        apply_patches(tmp, cfg.patches, t.root, true);
        apply_defines(ddir, cfg.defines, tmp + "/defines.txt");
        write_file(tmp + "/shim/fecsim_kconfig.h", kconfig);
        write_file(tmp + "/shim/stop_on_call.c", stop_stubs_source(stubs));
        const std::string iflags = flags + " -I" + quote(tmp + "/shim");
        std::vector<std::string> objs;
        auto compile = [&](const std::string& dir, const std::string& src, const std::string& obj,
                           const std::string& modname, const std::string& what, const std::string& extra = "") {
            std::string out;
            const std::string base = base_name(src).substr(0, base_name(src).size() - 2);
            const int rc = run("cd " + quote(dir) + " && cc " + iflags + extra + " -DKBUILD_MODNAME='\"" + modname +
                                   "\"' -DKBUILD_BASENAME='\"" + base + "\"' -c " + quote(src) + " -o " + quote(obj),
                               &out);
            if (rc != 0)
                step_failed(rc, what, out);
            objs.push_back(dir + "/" + obj);
        };
        for (const auto& f : t.files)
            if (f.compare(f.size() - 2, 2, ".c") == 0)
                compile(ddir, f, f.substr(0, f.size() - 2) + ".o", t.driver,
                        "the " + t.driver + " driver of " + t.root + " does not compile against the shim's API level " +
                            t.api + " (" + f + (cfg.patches.empty() ? "" : ", patched") + ")");
        for (const auto& f : runtime)
            compile(tmp + "/shim", v6 + "/" + f, f.substr(0, f.size() - 2) + ".o", "shim",
                    "the shim's API level " + t.api + " does not compile (" + v6 + "/" + f + ")");
        compile(tmp + "/shim", "stop_on_call.c", "stop_on_call.o", "shim",
                "the stop-on-call stubs do not compile (" + v6 + "/stop_on_call.list)", stub_flags);
        check_symbols(objs, t, v6);
        std::string objlist, out;
        for (const auto& o : objs)
            objlist += " " + quote(o);
        const int rc = run("cd " + quote(tmp) + " && cc " + link + " -o driver.so" + objlist + " -lfdt", &out);
        if (rc != 0)
            step_failed(rc, "the " + t.driver + " driver does not link", out);
    });
    return load_so(final_dir + "/driver.so");
}

// On a scratch copy of cfg's driver files with its patches (and defines,
// with_defines) applied: the lines of the note file `notes` the steps wrote.
static std::vector<std::string> scratch_notes(const driver_build_config& cfg, bool with_defines, const char* notes)
{
    std::vector<std::string> out;
    const std::string tmp = make_build_dir(cache_dir_or_default(cfg.cache_dir));
    try {
        std::string origin, ddir = tmp;
        if (!cfg.tree.empty()) {
            const kernel_tree kt = kernel_tree_open(absolute(cfg.tree), cfg.tree_driver);
            ddir = tmp + "/" + tree_driver_find(kt.driver)->dir;
            mkdirs(ddir);
            for (const auto& f : kt.files)
                write_file(ddir + "/" + f, slurp(kt.dir + "/" + f));
            origin = kt.root;
        } else {
            origin = absolute(cfg.source_dir.empty() ? default_driver_dir() : cfg.source_dir);
            for (const auto& f : list_files(origin, false))
                write_file(tmp + "/" + f, slurp(origin + "/" + f));
        }
        apply_patches(tmp, cfg.patches, origin, !cfg.tree.empty());
        if (with_defines)
            apply_defines(ddir, cfg.defines, tmp + "/defines.txt");
        std::ifstream f(tmp + "/" + notes);
        for (std::string line; std::getline(f, line);)
            if (!line.empty())
                out.push_back(line);
    } catch (...) {
        rm_tree(tmp);
        throw;
    }
    rm_tree(tmp);
    return out;
}

std::vector<std::string> driver_patch_notes(const driver_build_config& cfg)
{
    return cfg.patches.empty() ? std::vector<std::string>{} : scratch_notes(cfg, false, "patches.txt");
}

std::vector<std::string> driver_define_notes(const driver_build_config& cfg)
{
    return cfg.defines.empty() ? std::vector<std::string>{} : scratch_notes(cfg, true, "defines.txt");
}

} // namespace khost
