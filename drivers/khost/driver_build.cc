#include "drivers/khost/driver_build.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FECSIM_SRCDIR
#define FECSIM_SRCDIR "."
#endif

namespace khost {

const char* driver_cflags()
{
    return "-std=gnu11 -O2 -g -fPIC -fno-builtin -fno-common -fno-omit-frame-pointer "
           "-fsanitize=thread -fsanitize-coverage=trace-pc -Wall";
}

std::string default_driver_dir() { return std::string(FECSIM_SRCDIR) + "/drivers/fec"; }
std::string default_shim_dir() { return std::string(FECSIM_SRCDIR) + "/drivers/shim"; }

static std::string slurp(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw driver_error("cannot read " + path);
    std::ostringstream os;
    os << f.rdbuf();
    return os.str();
}

static std::vector<std::string> list_files(const std::string& dir, bool recurse, const std::string& rel = "")
{
    std::vector<std::string> out;
    DIR* d = opendir((dir + "/" + rel).c_str());
    if (!d)
        throw driver_error("cannot open driver directory " + dir + "/" + rel);
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
            out.push_back(r);
        }
    }
    closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

static uint64_t fnv(uint64_t h, const std::string& s)
{
    for (unsigned char c : s)
        h = (h ^ c) * 0x100000001B3ull;
    return (h ^ 0xFF) * 0x100000001B3ull;
}

// Runs a shell command; returns its exit status and combined output.
static int run(const std::string& cmd, std::string* out)
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

static std::string quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

static std::string absolute(const std::string& p)
{
    if (!p.empty() && p[0] == '/')
        return p;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        throw driver_error("cannot resolve " + p);
    return std::string(cwd) + "/" + p;
}

static void mkdirs(const std::string& path)
{
    std::string cur;
    std::stringstream ss(path);
    std::string part;
    while (std::getline(ss, part, '/')) {
        cur += part + "/";
        if (!part.empty())
            mkdir(cur.c_str(), 0755);
    }
}

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

    uint64_t h = 0xCBF29CE484222325ull;
    h = fnv(h, driver_cflags());
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
        std::string tmpl = cfg.cache_dir + "/build.XXXXXX";
        std::vector<char> t(tmpl.begin(), tmpl.end());
        t.push_back(0);
        if (!mkdtemp(t.data()))
            throw driver_error("cannot create a build directory in " + cfg.cache_dir);
        const std::string tmp = t.data();
        auto fail = [&](const std::string& msg) {
            std::string o;
            run("rm -rf " + quote(tmp), &o);
            throw driver_error(msg);
        };
        for (const auto& f : files) {
            std::ofstream o(tmp + "/" + f, std::ios::binary);
            o << slurp(src + "/" + f);
        }
        for (const auto& p : cfg.patches) {
            std::string out;
            const int rc = run("patch -p1 --batch --forward --no-backup-if-mismatch -d " + quote(tmp) + " -i " +
                                   quote(absolute(p)),
                               &out);
            if (rc != 0)
                fail("patch " + p + " does not apply to " + src + ":\n" + out);
        }
        std::string objs;
        for (const auto& f : list_files(tmp, false)) {
            if (f.compare(f.size() - 2, 2, ".c"))
                continue;
            const std::string o = f.substr(0, f.size() - 2) + ".o";
            std::string out;
            const int rc = run("cd " + quote(tmp) + " && cc " + driver_cflags() + " -I" +
                                   quote(cfg.shim_dir + "/include") + " -c " + quote(f) + " -o " + quote(o),
                               &out);
            if (rc != 0)
                fail("driver does not compile (" + f + (cfg.patches.empty() ? "" : ", patched") + "):\n" + out);
            objs += " " + quote(o);
        }
        std::string out;
        if (run("cd " + quote(tmp) + " && cc -shared -o driver.so" + objs, &out) != 0)
            fail("driver does not link:\n" + out);
        if (rename(tmp.c_str(), final_dir.c_str()) != 0) {
            std::string o;
            run("rm -rf " + quote(tmp), &o);  // another process built the same thing
            if (access(so.c_str(), R_OK) != 0)
                throw driver_error("cannot store the driver build in " + final_dir);
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
