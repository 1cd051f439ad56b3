// models/common/stats.h: raw-counter statistics.
//
// A model's stats struct is generated from an X-macro file <model>_stats.def
// with rows S(member, "description", "unit"); every member is a uint64_t raw
// counter (summed latencies in ps or cycles, never averages). Rates and ratios
// are formulas computed by the writers in sim/ at dump time.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace models {

struct stat_desc {
    const char* name;
    const char* desc;
    const char* unit;
    size_t offset;
};

// One counter of a stat tree, named by instance path ("l2.misses").
struct stat_entry {
    std::string name;
    uint64_t value;
    std::string desc, unit;
};

// Visitor receives (name relative to the instance, value, description, unit).
using stat_visitor =
    std::function<void(const std::string&, uint64_t, const char*, const char*)>;

inline void stats_visit(const void* st, const stat_desc* rows, size_t n, const std::string& prefix,
                        const stat_visitor& v)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t x = *reinterpret_cast<const uint64_t*>(static_cast<const char*>(st) + rows[i].offset);
        v(prefix + rows[i].name, x, rows[i].desc, rows[i].unit);
    }
}

} // namespace models

#define FEC_STAT_MEMBER(m, desc, unit) uint64_t m = 0;
#define FEC_STAT_ROW(S, m, desc, unit) {#m, desc, unit, offsetof(S, m)},
