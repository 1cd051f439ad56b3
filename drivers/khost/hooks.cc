// drivers/khost/hooks.cc: the instrumentation entry points of kernel code.
//
// Kernel code (the shim runtime and the driver) is compiled with
// -fsanitize=thread (compile step only: libtsan is never linked) and
// -fsanitize-coverage=trace-pc. The compiler then calls these functions
// before every load and store, at every function entry and exit, and in every
// basic block. They route accesses that fall into simulated memory to the
// running core's L1 (timing, and the CPU view refreshed before the access
// executes) and charge a per-call and per-block instruction cost; anything
// else returns at once.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fnmatch.h>
#include <string>
#include <unordered_map>
#include <vector>
#include "common/trace_events.h"
#include "cpu/core.h"
#include "drivers/khost/khost.h"
#include "drivers/khost/symbolize.h"

using models::cpu::core;
using khost::kernel;

namespace {

// Function spans of the run's timeline: which entries (by the return
// address of their entry hook, one per function) are recorded, and per core
// which open frames were.
struct function_tracer {
    std::vector<std::string> globs;
    std::unordered_map<const void*, uint32_t> ids;  // 0: not recorded
    std::vector<std::vector<uint8_t>> open;         // [core][depth]
};
function_tracer* g_functions = nullptr;

uint32_t function_id(const void* ra)
{
    auto it = g_functions->ids.find(ra);
    if (it != g_functions->ids.end())
        return it->second;
    uint32_t id = 0;
    const std::string name = khost::function_name(ra);
    if (!name.empty())
        for (const auto& g : g_functions->globs)
            if (fnmatch(g.c_str(), name.c_str(), 0) == 0) {
                id = models::g_trace->intern(name);
                break;
            }
    g_functions->ids.emplace(ra, id);
    return id;
}

void function_entry(core& c, const void* ra, unsigned depth)
{
    auto& open = g_functions->open;
    if (open.size() <= c.id())
        open.resize(c.id() + 1);
    auto& o = open[c.id()];
    if (o.size() <= depth)
        o.resize(depth + 1);
    const uint32_t id = function_id(ra);
    o[depth] = id != 0;
    if (id)
        models::g_trace->begin(models::te_track::driver, c.id(), c.now(), id);
}

void function_exit(core& c, unsigned depth)
{
    auto& open = g_functions->open;
    if (c.id() < open.size() && depth < open[c.id()].size() && open[c.id()][depth]) {
        open[c.id()][depth] = 0;
        models::g_trace->end(models::te_track::driver, c.id(), c.now());
    }
}

// Per core, the call site of each open function entry (the caller's return
// address __tsan_func_entry receives), outermost first: names the driver
// line that called the shim function in which something happened.
std::vector<std::vector<const void*>> g_callers;

inline void hook(const void* p, size_t size, bool write, const void* site)
{
    kernel* k = kernel::instance();
    if (!k)
        return;
    const uintptr_t off = (uintptr_t)p - k->w_base();
    if (off >= k->w_size())
        return;
    core* c = core::current();
    if (!c)
        return;
    k->access(*c, k->mem().mem.base() + off, size, write, site);
}


} // namespace

#define RA __builtin_return_address(0)

extern "C" {

void __tsan_init(void) {}

// Entry and exit keep the running core's stack of function entries and
// trace_pc its last basic block (core::trace(), for fault reports).
void __tsan_func_entry(void* caller)
{
    if (core* c = core::current()) {
        core::code_trace& t = c->trace();
        if (t.depth < core::code_trace::max_depth) {
            t.frames[t.depth] = RA;
            if (g_callers.size() <= c->id())
                g_callers.resize(c->id() + 1, std::vector<const void*>(core::code_trace::max_depth));
            g_callers[c->id()][t.depth] = caller;
        }
        if (g_functions && models::g_trace)
            function_entry(*c, RA, t.depth);
        t.depth++;
        c->charge(c->config().call_cycles, c->current_cat());
    }
}
void __tsan_func_exit(void)
{
    if (core* c = core::current()) {
        core::code_trace& t = c->trace();
        if (t.depth)
            t.depth--;
        if (g_functions && models::g_trace)
            function_exit(*c, t.depth);
    }
}

void __sanitizer_cov_trace_pc(void)
{
    if (core* c = core::current()) {
        c->trace().pc = RA;
        c->charge(c->config().bb_cycles, c->current_cat());
    }
}

#define FEC_HOOK(n)                                                                                          \
    void __tsan_read##n(void* p) { hook(p, n, false, RA); }                                                  \
    void __tsan_write##n(void* p) { hook(p, n, true, RA); }                                                  \
    void __tsan_unaligned_read##n(void* p) { hook(p, n, false, RA); }                                        \
    void __tsan_unaligned_write##n(void* p) { hook(p, n, true, RA); }                                        \
    void __tsan_volatile_read##n(void* p) { hook(p, n, false, RA); }                                         \
    void __tsan_volatile_write##n(void* p) { hook(p, n, true, RA); }
FEC_HOOK(1)
FEC_HOOK(2)
FEC_HOOK(4)
FEC_HOOK(8)
FEC_HOOK(16)
#undef FEC_HOOK

void __tsan_read_range(void* p, size_t n) { hook(p, n, false, RA); }
void __tsan_write_range(void* p, size_t n) { hook(p, n, true, RA); }
void __tsan_vptr_read(void**) {}
void __tsan_vptr_update(void**, void*) {}

} // extern "C"

namespace khost {

std::vector<const void*> caller_stack()
{
    std::vector<const void*> v;
    core* c = core::current();
    if (!c || c->id() >= g_callers.size())
        return v;
    const unsigned n = std::min<unsigned>(c->trace().depth, core::code_trace::max_depth);
    for (unsigned i = n; i-- > 0;)
        v.push_back(g_callers[c->id()][i]);
    return v;
}

void trace_functions(const std::vector<std::string>& globs)
{
    delete g_functions;
    g_functions = nullptr;
    if (!globs.empty())
        g_functions = new function_tracer{globs, {}, {}};
}

} // namespace khost
