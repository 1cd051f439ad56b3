#include "common/log.h"
#include <cstdio>
#include <cstring>
#include <sstream>
#include <systemc>

namespace models {

uint32_t g_trace_flags = 0;

static FILE* g_log_file = nullptr;
static uint64_t g_counts[6];

static const struct {
    const char* name;
    uint32_t flag;
} k_trace_names[] = {
    {"l1", TRACE_L1},       {"l2", TRACE_L2},   {"dram", TRACE_DRAM}, {"noc", TRACE_NOC},
    {"stress", TRACE_STRESS}, {"mac", TRACE_MAC}, {"desc", TRACE_DESC}, {"dma", TRACE_DMA},
    {"cpu", TRACE_CPU},     {"shim", TRACE_SHIM}, {"traffic", TRACE_TRAFFIC},
};

const char* trace_names() { return "l1,l2,dram,noc,stress,mac,desc,dma,cpu,shim,traffic,all"; }

bool trace_parse(const std::string& list, uint32_t* flags, std::string* err)
{
    uint32_t f = 0;
    std::stringstream ss(list);
    std::string w;
    while (std::getline(ss, w, ',')) {
        if (w.empty())
            continue;
        if (w == "all") {
            f = ~0u;
            continue;
        }
        bool found = false;
        for (const auto& t : k_trace_names)
            if (w == t.name) {
                f |= t.flag;
                found = true;
            }
        if (!found) {
            if (err)
                *err = "unknown trace component '" + w + "' (known: " + trace_names() + ")";
            return false;
        }
    }
    *flags = f;
    return true;
}

void log_set_file(const char* path)
{
    if (g_log_file && g_log_file != stderr)
        std::fclose(g_log_file);
    g_log_file = path ? std::fopen(path, "w") : nullptr;
}

uint64_t log_count(log_level lvl) { return g_counts[(int)lvl]; }

void sim_log(log_level lvl, const char* component, const char* fmt, ...)
{
    static const char* k_lvl[] = {"error", "guest-error", "unimplemented", "warning", "info",
                                  "trace"};
    g_counts[(int)lvl]++;
    FILE* f = g_log_file ? g_log_file : stderr;
    std::fprintf(f, "%s %s %s: ", sc_core::sc_time_stamp().to_string().c_str(), component,
                 k_lvl[(int)lvl]);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(f, fmt, ap);
    va_end(ap);
    std::fputc('\n', f);
}

} // namespace models
