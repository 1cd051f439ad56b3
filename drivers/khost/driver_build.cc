#include "drivers/khost/driver_build.h"
#include "drivers/khost/data_dir.h"
#include "drivers/khost/host_dirs.h"
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
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace khost {

const char* driver_cflags()
{
    return "-std=gnu11 -O2 -g -fPIC -fno-builtin -fno-common -fno-omit-frame-pointer "
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

// First line of `cc --version` ("" if cc does not run: the build then fails
// and says why).
std::string compiler_version()
{
    std::string out;
    if (run("cc --version", &out) != 0)
        return "";
    return out.substr(0, out.find('\n'));
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

// The flags of the two steps; all of them, with the compiler's version, are
// part of the cache key.
static const char* const k_link_flags = "-shared";

void* driver_load(const driver_build_config& in)
{
    driver_build_config cfg = in;
    if (cfg.source_dir.empty())
        cfg.source_dir = default_driver_dir();
    if (cfg.shim_dir.empty())
        cfg.shim_dir = default_shim_dir();
    if (cfg.cache_dir.empty()) {
        const char* env = getenv("FECSIM_CACHE");
        const char* home = getenv("HOME");
        cfg.cache_dir = env ? env : std::string(home ? home : "/tmp") + "/.cache/fecsim/drivers";
    }
    const std::string src = absolute(cfg.source_dir);
    const std::vector<std::string> files = list_files(src, false);
    if (std::none_of(files.begin(), files.end(),
                     [](const std::string& f) { return f.size() > 2 && f.compare(f.size() - 2, 2, ".c") == 0; }))
        throw driver_error("driver directory " + src + " has no .c file");
    const std::string include_flag = "-I" + quote(cfg.shim_dir + "/include");

    // Cache key: compiler, flags, sources, patches, shim headers.
    uint64_t h = 0xCBF29CE484222325ull;
    h = fnv(h, "cc " + compiler_version());
    h = fnv(h, driver_cflags());
    h = fnv(h, k_link_flags);
    for (const auto& f : files)
        h = fnv(fnv(h, f), slurp(src + "/" + f));
    for (const auto& p : cfg.patches)
        h = fnv(fnv(h, "patch"), slurp(p));
    for (const auto& f : list_files(cfg.shim_dir + "/include", true))
        h = fnv(fnv(h, f), slurp(cfg.shim_dir + "/include/" + f));
    h = fnv(h, slurp(cfg.shim_dir + "/simhost.h"));
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    const std::string final_dir = cfg.cache_dir + "/" + hex;
    const std::string so = final_dir + "/driver.so";

    if (access(so.c_str(), R_OK) != 0) {
        mkdirs(cfg.cache_dir);
        clean_stale_builds(cfg.cache_dir);
        // The pid and host in the name let a later build tell a dead build's directory.
        std::string tmpl = cfg.cache_dir + "/build-" + std::to_string(getpid()) + "@" + host_name() + "-XXXXXX";
        std::vector<char> t(tmpl.begin(), tmpl.end());
        t.push_back(0);
        if (!mkdtemp(t.data()))
            io_fail("cannot create a build directory in " + cfg.cache_dir, errno);
        const std::string tmp = t.data();
        try {
            for (const auto& f : files)
                write_file(tmp + "/" + f, slurp(src + "/" + f));
            for (const auto& p : cfg.patches) {
                std::string out;
                const int rc = run("patch -p1 --batch --forward --no-backup-if-mismatch -d " + quote(tmp) + " -i " +
                                       quote(absolute(p)),
                                   &out);
                if (rc != 0)
                    step_failed(rc, "patch " + p + " does not apply to " + src, out);
            }
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
        } catch (...) {
            rm_tree(tmp);
            throw;
        }
        if (rename(tmp.c_str(), final_dir.c_str()) != 0) {
            const int e = errno;
            rm_tree(tmp);  // another process built the same thing
            if (access(so.c_str(), R_OK) != 0)
                io_fail("cannot store the driver build in " + final_dir, e);
        }
    }
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

} // namespace khost
