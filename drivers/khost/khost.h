// drivers/khost/khost.h: the kernel host, sim/'s implementation of drivers/shim/simhost.h
// on the models, plus the instrumentation hooks of kernel code.
//
// Contract: kernel code (the shim runtime and the driver) runs on the threads
// of models::cpu::core; every simhost call and every instrumented memory
// access is charged to the core whose thread runs it (core::current()).
// Outside a core thread (elaboration) accesses cost nothing and touch no
// cache state. Simulated memory for kernel allocations comes from the backed
// DRAM window: a cached heap and an uncached pool for dma_alloc_coherent.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <unordered_map>
#include <vector>
#include "drivers/khost/khost_config.h"
#include "cache/hierarchy.h"
#include "common/params.h"
#include "common/stats.h"
#include "cpu/core.h"
#include "drivers/khost/coherence.h"

namespace khost {

using models::tick_t;

struct kernel_stats {
#define S FEC_STAT_MEMBER
#include "drivers/khost/kernel_stats.def"
#undef S
};
extern const models::stat_desc kernel_stat_rows[];
extern const size_t kernel_stat_count;

// Kernel-code functions whose entry and exit the run's timeline records
// (models::g_trace), by fnmatch globs on their names; empty: none. Set
// before the simulation starts.
void trace_functions(const std::vector<std::string>& globs);
// The running core's open call sites in kernel code (the return addresses
// into each caller), innermost first; empty outside a core.
std::vector<const void*> caller_stack();

class kernel : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<kernel> mmio;  // to the ENET register block

    kernel(sc_core::sc_module_name nm, const kernel_config& cfg, models::cache::hierarchy& mem,
          std::vector<models::cpu::core*> cores, uint64_t mmio_base, uint64_t mmio_size);
    ~kernel() override;

    static kernel* instance() { return s_instance; }
    const kernel_config& config() const { return m_cfg; }
    models::cache::hierarchy& mem() { return m_mem; }
    models::cpu::core& irq_core() { return *m_cores.at(m_irq_core); }

    // simhost.h, called through the C wrappers. kind: enum simhost_mem_kind;
    // site: the kernel code that asked (nullptr for the host's own).
    void* alloc(size_t size, size_t align, bool uncached, int kind = 0, const void* site = nullptr);
    void free(const void* p, int kind = 0, const void* site = nullptr);
    // An skb data buffer from one of the running core's two page-fragment
    // caches (napi: napi_alloc_skb's; config page_frag_bytes; 0 or a buffer
    // larger than a chunk: alloc).
    void* alloc_frag(size_t size, bool napi, const void* site);
    void dma_coherent_free(uint64_t handle, const void* cpu, size_t size, const void* site);
    uint64_t pa_of(const void* p) const { return m_mem.mem.pa_of_cpu(p); }
    // site: the kernel code address making the access (for the coherence checker).
    void access(models::cpu::core& c, uint64_t pa, size_t size, bool write, const void* site);
    void copy(void* dst, const void* src, size_t n, const void* site);
    void fill(void* dst, int v, size_t n, const void* site);
    void prefetch(const void* p);
    // Reads every line of [p, p+n) through the running core's L1, charging
    // what each read costs beyond an L1 hit (the hit's work is in the
    // caller's cycle charge); nothing outside a core or simulated memory.
    void touch(const void* p, size_t n, const void* site);
    uint32_t mmio_read(uint64_t pa);
    void mmio_write(uint64_t pa, uint32_t v);
    void barrier(int kind);
    void dma(int op, uint64_t pa, size_t size, int dir, const void* caller);
    int request_irq(unsigned irq, int (*fn)(int, void*), void* dev);
    void free_irq(unsigned irq);
    // The receiving socket's reader: its core and its task (woken from a
    // sleep in recvmsg by socket_wake).
    void set_socket_reader(models::cpu::core* c, class app_task* app)
    {
        m_reader = c;
        m_reader_app = app;
    }
    void socket_wake();

    coherence_checker& checker() { return *m_checker; }
    // The live allocation holding pa: start and length (false if none).
    bool alloc_of(uint64_t pa, uint64_t* start, uint64_t* len) const;
    const kernel_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }

    // Host structures that hold simulated kernel objects (the board's TCP
    // socket's skbs): fn appends the pointers they hold, which the leak
    // scan treats as roots.
    void set_host_roots(std::function<void(std::vector<const void*>&)> fn) { m_host_roots = std::move(fn); }
    // Fast range test of the hooks.
    uintptr_t w_base() const { return m_w_base; }
    uintptr_t w_size() const { return m_w_size; }

private:
    // Memory checks (coherence.h lists the kinds): a CPU access to a poisoned
    // heap line, a copy or fill running out of its allocation, the end-of-run
    // leak scan.
    void mem_fault(uint64_t pa, uint64_t len, bool write, const void* site);
    // access() of uncached memory, and of a line the checker tracks.
    void access_uncached(models::cpu::core& c, uint64_t pa, size_t size, bool write);
    void access_tracked(models::cpu::core& c, uint64_t pa, size_t size, bool write, const void* site);
    void retake_lines(models::cpu::core& c, uint64_t pa, size_t size);
    // True if it reported (the range op's per-line faults are then not counted).
    bool check_range(const void* p, size_t n, bool write, const void* site);
    // One report per memcpy/memset, kept per core: a range operation's
    // charges can let other cores run, and their faults are their own.
    struct range_op {
        bool in = false, reported = false;
    };
    std::vector<range_op> m_range_ops;  // by core id
    range_op& range_of(const models::cpu::core& c);
    void leak_scan();
    std::function<void(std::vector<const void*>&)> m_host_roots;
    // Unreachable objects per allocating site (and live mappings of freed or
    // unreachable buffers per map site) that may be in flight, per core, when
    // the run stops: one in a local of the receive or send path and one
    // unlinked by a reader (recvmsg) or a free in progress.
    static constexpr uint64_t leak_allowance = 2;
    struct region {
        uint64_t start, end, next;                          // bump allocation
        std::map<uint64_t, std::vector<uint64_t>> free_by_size;  // size -> pas (LIFO)
    };
    uint64_t take(region& r, uint64_t size, uint64_t align);
    // Records a live heap slot of sz bytes at pa (size asked: the redzone
    // starts there) and opens it to the checker.
    void open_slot(uint64_t pa, uint64_t sz, size_t size, int kind, const void* site, bool frag);
    // kernel.allocs and alloc_bytes_live_max, for an allocation just made.
    void count_alloc();
    // Page-fragment caches: two per core, at 2 x core + napi (the chunk being carved and the
    // offset below which the next fragment goes), the live fragments per
    // chunk (by chunk pa; a chunk is page_frag_bytes-aligned), and the
    // chunks whose last fragment was freed after their core left them
    // (reused last-freed-first, as the buddy allocator's free list hands
    // back the block freed last).
    struct frag_cache {
        uint64_t chunk = 0, offset = 0;
    };
    std::vector<frag_cache> m_frag;
    std::map<uint64_t, uint32_t> m_chunk_live;
    std::vector<uint64_t> m_free_chunks;
    // Forgets the freed fragments' slots of a chunk about to be carved again.
    void reset_chunk(uint64_t chunk);
    // touch(): by core id, the range it read last and the L1 slot each of
    // its lines was found in (a hint the L1 checks).
    struct touch_hint {
        uint64_t pa = ~0ull;
        std::vector<int> slots;
    };
    std::vector<touch_hint> m_touch_hint;

    const kernel_config m_cfg;
    models::cache::hierarchy& m_mem;
    std::vector<models::cpu::core*> m_cores;
    unsigned m_irq_core;
    uint64_t m_mmio_base, m_mmio_size;
    uintptr_t m_w_base, m_w_size;
    region m_heap{}, m_pool{};
    // A slot handed out once: live, or freed and not yet reused (slots of a
    // size are reused whole, so they never overlap).
    struct slot {
        uint64_t size;     // slot bytes (rounded up)
        uint64_t asked;    // bytes asked for: the redzone starts here
        const void* site;  // allocating site; nullptr: the host's own (simhost_alloc)
        const void* free_site;
        uint8_t kind;      // enum simhost_mem_kind
        bool uncached;
        bool freed;
        bool frag;         // a page fragment (alloc_frag)
    };
    std::map<uint64_t, slot> m_live;  // by pa
    // The slot holding pa, live or freed (nullptr: none).
    const slot* slot_of(uint64_t pa, uint64_t* start) const;
    std::unique_ptr<coherence_checker> m_checker;
    models::mem::mem_txn m_mmio_txn;
    models::cpu::core* m_reader = nullptr;
    class app_task* m_reader_app = nullptr;
    kernel_stats m_stats{};
    static kernel* s_instance;
};

} // namespace khost
