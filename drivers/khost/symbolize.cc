#include "drivers/khost/symbolize.h"
#include <cstdint>
#include <cstdio>
#include <dlfcn.h>
#include <vector>

namespace khost {

std::string code_site(const void* pc, bool return_address)
{
    Dl_info info{};
    if (!pc || !dladdr(pc, &info) || !info.dli_fname)
        return "(unknown site)";
    const uintptr_t off = (uintptr_t)pc - (uintptr_t)info.dli_fbase - (return_address ? 1 : 0);
    char cmd[1024];
    std::snprintf(cmd, sizeof cmd, "addr2line -C -f -i -e '%s' 0x%lx 2>/dev/null", info.dli_fname, (unsigned long)off);
    std::vector<std::string> lines;
    if (FILE* p = popen(cmd, "r")) {
        char buf[1024];
        while (std::fgets(buf, sizeof buf, p)) {
            std::string l = buf;
            while (!l.empty() && (l.back() == '\n' || l.back() == '\r'))
                l.pop_back();
            lines.push_back(l);
        }
        pclose(p);
    }
    std::string fn = info.dli_sname ? info.dli_sname : "?", loc;
    for (size_t i = 0; i + 1 < lines.size(); i += 2) {
        std::string file = lines[i + 1];
        const size_t disc = file.find(" (discriminator");
        if (disc != std::string::npos)
            file = file.substr(0, disc);
        if (file.find("/shim/include/") != std::string::npos)
            continue;
        fn = lines[i];
        const size_t slash = file.rfind('/');
        loc = slash == std::string::npos ? file : file.substr(slash + 1);
        break;
    }
    return fn + (loc.empty() || loc[0] == '?' ? "" : " (" + loc + ")");
}

} // namespace khost
