#include "drivers/khost/kernel_tree.h"
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include "drivers/khost/driver_build.h"

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

// The tree's version and API level (driver not checked).
static kernel_tree open_tree(const std::string& root_in)
{
    kernel_tree t;
    t.root = root_in;
    while (t.root.size() > 1 && t.root.back() == '/')
        t.root.pop_back();
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
