#include "drivers/khost/symbolize.h"
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <dlfcn.h>
#include <map>
#include <vector>

namespace khost {

std::string function_name(const void* pc)
{
    Dl_info info{};
    if (!pc || !dladdr(pc, &info) || !info.dli_fname)
        return "";
    // Per object: its text symbols by offset from the load base, sorted.
    static std::map<std::string, std::vector<std::pair<uintptr_t, std::string>>> objects;
    auto it = objects.find(info.dli_fname);
    if (it == objects.end()) {
        std::vector<std::pair<uintptr_t, std::string>> syms;
        const std::string cmd = std::string("nm --defined-only '") + info.dli_fname + "' 2>/dev/null";
        if (FILE* p = popen(cmd.c_str(), "r")) {
            char buf[1024], name[900], type;
            unsigned long addr;
            while (std::fgets(buf, sizeof buf, p))
                if (std::sscanf(buf, "%lx %c %899s", &addr, &type, name) == 3 && (type == 't' || type == 'T'))
                    syms.emplace_back((uintptr_t)addr, name);
            pclose(p);
        }
        std::sort(syms.begin(), syms.end());
        it = objects.emplace(info.dli_fname, std::move(syms)).first;
    }
    const uintptr_t off = (uintptr_t)pc - (uintptr_t)info.dli_fbase;
    const auto& v = it->second;
    auto s = std::upper_bound(v.begin(), v.end(), std::make_pair(off, std::string("\xff")));
    if (s == v.begin())
        return "";
    return std::prev(s)->second;
}

// addr2line's (function, file:line) pairs for pc, innermost inlined frame first.
static std::vector<std::string> addr2line_frames(const Dl_info& info, const void* pc, bool return_address)
{
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
    return lines;
}

bool is_shim_code(const void* pc, bool return_address)
{
    Dl_info info{};
    if (!pc || !dladdr(pc, &info) || !info.dli_fname)
        return false;
    const std::vector<std::string> lines = addr2line_frames(info, pc, return_address);
    return lines.size() >= 2 && lines[1].find("/drivers/shim/") != std::string::npos;
}

bool in_main_program(const void* pc)
{
    Dl_info info{}, self{};
    return pc && dladdr(pc, &info) && dladdr((const void*)&in_main_program, &self) &&
           info.dli_fbase == self.dli_fbase;
}

std::string code_site(const void* pc, bool return_address)
{
    Dl_info info{};
    if (!pc || !dladdr(pc, &info) || !info.dli_fname)
        return "(unknown site)";
    const std::vector<std::string> lines = addr2line_frames(info, pc, return_address);
    std::string fn = info.dli_sname ? info.dli_sname : "?", loc;
    for (size_t i = 0; i + 1 < lines.size(); i += 2) {
        std::string file = lines[i + 1];
        const size_t disc = file.find(" (discriminator");
        if (disc != std::string::npos)
            file = file.substr(0, disc);
        // the shim's headers (either API level): memcpy, skb_put, ...
        if (file.find("/shim/include/") != std::string::npos || file.find("/shim/v6/include/") != std::string::npos)
            continue;
        fn = lines[i];
        const size_t slash = file.rfind('/');
        loc = slash == std::string::npos ? file : file.substr(slash + 1);
        break;
    }
    return fn + (loc.empty() || loc[0] == '?' ? "" : " (" + loc + ")");
}

} // namespace khost
