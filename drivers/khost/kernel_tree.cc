#include "drivers/khost/kernel_tree.h"
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <cstdint>
#include <cstdio>
#include <dirent.h>
#include <unistd.h>
#include "drivers/khost/driver_build.h"
#include "drivers/khost/host_dirs.h"

namespace khost {

const std::vector<tree_driver>& tree_drivers()
{
    // fec: drivers/net/ethernet/freescale/Makefile builds fec.o from
    // fec_main.o and fec_ptp.o (CONFIG_FEC); fec.h is their shared header.
    static const std::vector<tree_driver> d = {
        {"fec", "drivers/net/ethernet/freescale", {"fec.h", "fec_main.c", "fec_ptp.c"}},
    };
    return d;
}

const tree_driver* tree_driver_find(const std::string& name)
{
    for (const auto& d : tree_drivers())
        if (name == d.name)
            return &d;
    return nullptr;
}

const std::vector<std::string>& tree_api_levels()
{
    static const std::vector<std::string> v = {"6.1", "6.12"};
    return v;
}

std::string tree_api_levels_text()
{
    std::string s;
    for (const auto& l : tree_api_levels())
        s += (s.empty() ? "" : ", ") + l;
    return s;
}

std::string kernel_tree::version_text() const
{
    return std::to_string(version) + "." + std::to_string(patchlevel) + "." + std::to_string(sublevel);
}

namespace {

bool is_regular(const std::string& p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// "VERSION = 6" -> 6 at *line; -1 if the variable is not set to a number.
int makefile_number(const std::string& makefile, const char* var, int* line)
{
    std::ifstream in(makefile);
    std::string l;
    for (int n = 1; std::getline(in, l); n++) {
        const size_t k = std::strlen(var);
        if (l.compare(0, k, var) != 0)
            continue;
        size_t i = k;
        while (i < l.size() && (l[i] == ' ' || l[i] == '\t'))
            i++;
        if (i >= l.size() || l[i] != '=')
            continue;
        i++;
        while (i < l.size() && (l[i] == ' ' || l[i] == '\t'))
            i++;
        char* end = nullptr;
        const long v = std::strtol(l.c_str() + i, &end, 10);
        if (end == l.c_str() + i || v < 0 || v > 1000)
            return -1;
        *line = n;
        return (int)v;
    }
    return -1;
}

} // namespace

bool is_tarball(const std::string& p)
{
    for (const char* ext : {".tar.xz", ".tar.gz", ".tgz", ".tar.bz2", ".tar"})
        if (p.size() > std::strlen(ext) && p.compare(p.size() - std::strlen(ext), std::strlen(ext), ext) == 0)
            return true;
    return false;
}

// The top-level Makefile and every known driver's files of tarball, in the
// driver cache (<cache>/trees/<name>-<hash of path, size, mtime>); extracted
// once into a temporary directory renamed into place. Returns the root
// directory of the extracted tree.
static std::string extract_tarball(const std::string& tarball)
{
    struct stat st;
    if (stat(tarball.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        throw driver_error("cannot read the kernel source tarball " + tarball);
    const std::string id = tarball + "|" + std::to_string((long long)st.st_size) + "|" +
                           std::to_string((long long)st.st_mtime);
    uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char c : id)
        h = (h ^ c) * 0x100000001B3ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    std::string base = tarball.substr(tarball.rfind('/') + 1);
    base = base.substr(0, base.find(".tar"));
    const std::string trees = driver_cache_dir() + "/trees";
    const std::string dir = trees + "/" + base + "-" + hex;
    auto root_of = [](const std::string& d) -> std::string {
        DIR* dd = opendir(d.c_str());
        std::string only;
        int n = 0;
        if (!dd)
            return "";
        while (dirent* e = readdir(dd)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..") {
                only = name;
                n++;
            }
        }
        closedir(dd);
        return n == 1 ? d + "/" + only : std::string();
    };
    std::string root = root_of(dir);
    if (!root.empty())
        return root;
    // The pid and host name it: another process's extraction is never touched.
    const std::string tmp = dir + ".tmp-" + std::to_string(getpid()) + "@" + host_name();
    rm_tree(tmp);  // left by a process of this pid that died
    make_dirs(tmp);
    std::string patterns = "'*/Makefile'";
    for (const auto& d : tree_drivers())
        for (const char* f : d.files)
            patterns += " " + shell_quote(std::string("*/") + d.dir + "/" + f);
    const std::string cmd = "tar -xf " + shell_quote(tarball) + " -C " + shell_quote(tmp) +
                            " --wildcards --no-wildcards-match-slash " + patterns + " 2>&1";
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) {
        rm_tree(tmp);
        throw driver_io_error("cannot run tar to extract " + tarball);
    }
    {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0)
            out.append(buf, n);
        const int rc = pclose(p);
        if (rc != 0) {
            rm_tree(tmp);
            throw driver_error("cannot extract the fec driver and the Makefile from " + tarball + " (tar):\n" + out);
        }
    }
    if (rename(tmp.c_str(), dir.c_str()) != 0)
        rm_tree(tmp);  // another process extracted it
    root = root_of(dir);
    if (root.empty())
        throw driver_error(tarball + " does not hold one kernel source tree");
    return root;
}

// The tree's version and API level (driver not checked).
static kernel_tree open_tree(const std::string& root_in)
{
    kernel_tree t;
    t.root = root_in;
    while (t.root.size() > 1 && t.root.back() == '/')
        t.root.pop_back();
    if (is_tarball(t.root)) {
        t.tarball = t.root;
        t.root = extract_tarball(t.tarball);
    }
    const std::string mk = t.root + "/Makefile";
    if (!is_regular(mk))
        throw driver_error(t.root + " is not a kernel source tree: it has no Makefile");
    int vline = 0, pline = 0, sline = 0;
    t.version = makefile_number(mk, "VERSION", &vline);
    t.patchlevel = makefile_number(mk, "PATCHLEVEL", &pline);
    t.sublevel = makefile_number(mk, "SUBLEVEL", &sline);
    if (t.version < 0 || t.patchlevel < 0)
        throw driver_error(mk + " sets no VERSION and PATCHLEVEL: not a kernel source tree");
    if (t.sublevel < 0)
        t.sublevel = 0;
    const std::string api = std::to_string(t.version) + "." + std::to_string(t.patchlevel);
    for (const auto& l : tree_api_levels())
        if (l == api)
            t.api = l;
    if (t.api.empty())
        throw driver_error(mk + ":" + std::to_string(pline) + ": kernel " + api +
                           " has no shim API level; supported kernel trees: " + tree_api_levels_text() +
                           " (5.4 is the level of fecsim's own driver, driver.source)");
    return t;
}

kernel_tree kernel_tree_open(const std::string& root, const std::string& driver)
{
    const tree_driver* d = tree_driver_find(driver);
    if (!d) {
        std::string known;
        for (const auto& k : tree_drivers())
            known += (known.empty() ? "" : ", ") + std::string(k.name);
        throw driver_error(driver.empty() ? "a kernel tree needs driver.name (known drivers: " + known + ")"
                                          : "driver.name '" + driver + "' is not a driver fecsim can build from a "
                                                                       "kernel tree (known drivers: " + known + ")");
    }
    kernel_tree t = open_tree(root);
    t.driver = d->name;
    t.dir = t.root + "/" + d->dir;
    for (const char* f : d->files) {
        if (!is_regular(t.dir + "/" + f))
            throw driver_error("kernel tree " + t.root + " has no " + d->dir + "/" + f + " (driver " + d->name + ")");
        t.files.push_back(f);
    }
    return t;
}

std::string kernel_tree_problem(const std::string& root, const std::string& driver)
{
    try {
        if (driver.empty())
            open_tree(root);
        else
            kernel_tree_open(root, driver);
        return "";
    } catch (const driver_error& e) {
        return e.what();
    }
}

} // namespace khost
