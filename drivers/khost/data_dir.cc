#include "drivers/khost/data_dir.h"
#include <climits>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

// The build's own locations (drivers/local.mk passes them for this library).
#ifndef FECSIM_BUILD_TREE
#define FECSIM_BUILD_TREE ""
#endif
#ifndef FECSIM_SOURCE_TREE
#define FECSIM_SOURCE_TREE ""
#endif
#ifndef FECSIM_BINDIR
#define FECSIM_BINDIR "/usr/local/bin"
#endif
#ifndef FECSIM_PKGDATADIR
#define FECSIM_PKGDATADIR "/usr/local/share/fecsim"
#endif

namespace khost {

namespace {

bool is_dir(const std::string& p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool holds_data(const std::string& d) { return !d.empty() && is_dir(d + "/drivers/fec"); }

// realpath() of p, or "" when it does not resolve.
std::string real(const std::string& p)
{
    if (p.empty())
        return "";
    char buf[PATH_MAX];
    return realpath(p.c_str(), buf) ? std::string(buf) : std::string();
}

std::vector<std::string> components(const std::string& p)
{
    std::vector<std::string> v;
    size_t i = 0;
    while (i < p.size()) {
        const size_t j = p.find('/', i);
        const std::string c = p.substr(i, j == std::string::npos ? std::string::npos : j - i);
        if (!c.empty())
            v.push_back(c);
        if (j == std::string::npos)
            break;
        i = j + 1;
    }
    return v;
}

// The running program's directory (resolved), or "".
std::string program_dir()
{
    const std::string exe = real("/proc/self/exe");
    const size_t slash = exe.rfind('/');
    return slash == std::string::npos ? "" : exe.substr(0, slash == 0 ? 1 : slash);
}

} // namespace

std::string relative_path(const std::string& from, const std::string& to)
{
    const std::vector<std::string> f = components(from), t = components(to);
    size_t common = 0;
    while (common < f.size() && common < t.size() && f[common] == t[common])
        common++;
    std::string r;
    for (size_t i = common; i < f.size(); i++)
        r += r.empty() ? ".." : "/..";
    for (size_t i = common; i < t.size(); i++)
        r += (r.empty() ? "" : "/") + t[i];
    return r.empty() ? "." : r;
}

std::string data_dir()
{
    const char* env = getenv("FECSIM_DATADIR");
    if (env && *env) {
        const std::string d = real(env);
        if (!holds_data(d))
            throw data_dir_error(std::string("FECSIM_DATADIR=") + env +
                                 ": not a fecsim data directory (no drivers/fec in it)");
        return d;
    }
    std::vector<std::string> looked;
    const std::string prog = program_dir();
    const std::string build = real(FECSIM_BUILD_TREE);
    if (!prog.empty() && !build.empty() && (prog == build || prog.compare(0, build.size() + 1, build + "/") == 0)) {
        const std::string src = real(FECSIM_SOURCE_TREE);
        if (holds_data(src))
            return src;
        looked.push_back(std::string(FECSIM_SOURCE_TREE) + " (the source tree of this build)");
    }
    if (!prog.empty()) {
        const std::string d = real(prog + "/" + relative_path(FECSIM_BINDIR, FECSIM_PKGDATADIR));
        if (holds_data(d))
            return d;
        looked.push_back(prog + "/" + relative_path(FECSIM_BINDIR, FECSIM_PKGDATADIR));
    }
    const std::string configured = real(FECSIM_PKGDATADIR);
    if (holds_data(configured))
        return configured;
    looked.push_back(FECSIM_PKGDATADIR);
    std::string m = "cannot find fecsim's data (drivers/fec, scenarios, baselines): looked in";
    for (size_t i = 0; i < looked.size(); i++)
        m += (i ? ", " : " ") + looked[i];
    throw data_dir_error(m + "; install it (make install) or set FECSIM_DATADIR");
}

} // namespace khost
