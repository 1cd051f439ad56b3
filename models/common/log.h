// models/common/log.h: the one logging API of the models.
//
// Three kinds of message: guest errors (software did something the hardware
// would reject), unimplemented model features, and traces gated by per-component
// flags (--trace=l1,l2,...). Simulator invariant failures use assert/abort, not
// this. No model prints with printf/std::cout directly.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <string>

namespace models {

enum class log_level { error, guest_error, unimp, warn, info, trace };

enum trace_flag : uint32_t {
    TRACE_L1 = 1u << 0,
    TRACE_L2 = 1u << 1,
    TRACE_DRAM = 1u << 2,
    TRACE_NOC = 1u << 3,
    TRACE_STRESS = 1u << 4,
    TRACE_MAC = 1u << 5,
    TRACE_DESC = 1u << 6,
    TRACE_DMA = 1u << 7,
    TRACE_CPU = 1u << 8,
    TRACE_SHIM = 1u << 9,
    TRACE_TRAFFIC = 1u << 10,
};

extern uint32_t g_trace_flags;
inline bool trace_on(uint32_t f) { return (g_trace_flags & f) != 0; }

// Parses "l1,l2,mac" (or "all"); returns false and names the bad word in *err.
bool trace_parse(const std::string& list, uint32_t* flags, std::string* err);
const char* trace_names();

// Where messages go (default stderr); counts per level for the summary.
void log_set_file(const char* path);
uint64_t log_count(log_level lvl);
void sim_log(log_level lvl, const char* component, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));

} // namespace models

// Trace macro: costs one test of a global when the flag is off.
#define SIM_TRACE(flag, comp, ...)                                                               \
    do {                                                                                         \
        if (__builtin_expect(::models::trace_on(flag), 0))                                       \
            ::models::sim_log(::models::log_level::trace, comp, __VA_ARGS__);                    \
    } while (0)
