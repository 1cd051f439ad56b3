// drivers/khost/coherence.h: DMA coherence checker.
//
// Tracks, per cache line of every live streaming DMA mapping, who owns it
// under the DMA API (the CPU after sync_for_cpu/unmap, the device after
// map/sync_for_device) and what the hardware did (device writes, CPU accesses,
// write-backs), and reports each violation once per (kind, driver site):
//   stale_read        the CPU read bytes that differ from what the device
//                     wrote, because its copy predates the DMA (no invalidate)
//   lost_dma_data     a dirty CPU line was written back over bytes the device
//                     had written to a buffer it owned
//   cpu_owned_by_dev  the CPU read or wrote a line the device owns
//   partial_sync_miss the CPU read a line of a buffer outside the range of its
//                     last sync_for_cpu
//   dev_write_cpu_owned the device wrote a line the CPU owns (no
//                     sync_for_device since sync_for_cpu: outside the API)
//   shared_line       a mapping shares a cache line with another allocation
//   api_misuse        a DMA-API rule broken (the rule, an api_rule, leads the
//                     detail: docs/models/coherence-rules.md lists them with
//                     the kernel's CONFIG_DMA_API_DEBUG checks they cover)
// and, on the kernel heap (khost tells alloc/free; lines outside any live
// allocation are poisoned and share the one-bit fast test):
//   heap_out_of_bounds an access to heap memory outside every live allocation,
//                     or a memcpy/memset running past the end of its allocation
//   use_after_free    an access to an allocation that has been freed
//   double_free       a free of an allocation already freed
//   invalid_free      a free of an address no allocation starts at
//   memory_leak       allocations (skbs, kmalloc) unreachable at the end of run
// Speculative fills of device-owned lines are allowed (that is why the API
// invalidates after a DMA); they count only if a stale read follows.
// Sites are the driver's code addresses, symbolised to function and file:line.
// Also measured: sync efficiency, bytes synced for the CPU vs bytes it read.
#pragma once
#include <cstdint>
#include <functional>
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>
#include "mem/mem_observer.h"
#include "mem/phys_mem.h"

namespace khost {

enum class cv_kind : uint8_t {
    stale_read,
    lost_dma_data,
    cpu_owned_by_dev,
    partial_sync_miss,
    dev_write_cpu_owned,
    shared_line,
    api_misuse,
    heap_out_of_bounds,
    use_after_free,
    double_free,
    invalid_free,
    memory_leak,
};
const char* cv_kind_name(cv_kind k);
// Whether the kind named k (cv_kind_name) is one of the memory checks on the
// kernel heap (heap_out_of_bounds ... memory_leak) rather than a DMA rule.
bool cv_kind_is_memory_check(const std::string& k);

// The DMA-API rules reported as api_misuse (none for the other kinds).
enum class api_rule : uint8_t {
    none,
    unmap_not_mapped,     // unmap/free of an address not mapped (or unmapped before)
    unmap_invalid,        // unmap of the DMA_MAPPING_ERROR address
    unmap_size,           // unmap/free size differs from the mapping's
    unmap_direction,      // unmap direction differs from the mapping's
    unmap_function,       // single vs coherent: unmapped with the other API
    free_cpu_address,     // dma_free_coherent with another CPU address
    map_error_unchecked,  // dma_mapping_error() never called on the address
    map_not_dmaable,      // not simulated kernel memory, or coherent memory
    map_overlap,          // a line of the buffer is already in a live mapping
    sync_not_mapped,      // sync of an address not mapped
    sync_outside,         // sync past the end of the mapping
    sync_direction,       // sync direction differs (mapping not bidirectional)
    sync_ro_for_cpu,      // sync_for_cpu of a DMA_TO_DEVICE mapping
    sync_wo_for_device,   // sync_for_device of a DMA_FROM_DEVICE mapping
    free_while_mapped,    // kfree/kfree_skb of memory under a live mapping
    mapping_leak,         // at the end of run: live mapping of a freed or
                          // unreachable buffer
};
const char* api_rule_name(api_rule r);

struct violation {
    cv_kind kind;
    uint64_t pa;        // first address seen
    uint64_t buf_pa;    // the mapping (0 if none)
    uint64_t buf_len;
    const void* site;   // driver code address
    std::string where;  // "function (file:line)", filled by symbolize()
    std::string detail;
    uint64_t count;     // occurrences at this site
    api_rule rule = api_rule::none;
    // Further driver sites (allocated at, freed at, mapped at...), appended
    // to detail as "what function (file:line)" by symbolize().
    const void* site2 = nullptr;
    const char* site2_what = nullptr;
    const void* site3 = nullptr;
    const char* site3_what = nullptr;
    // The call sites open when it was first seen, innermost first: when the
    // site is the shim's code, the innermost driver one is named too.
    std::vector<const void*> callers = {};
    // Who ran the access when it was first seen ("iperf3 on CPU1"), from
    // set_context(); named when no driver line is on the call stack.
    std::string context = {};
};

struct coherence_stats {
    uint64_t violations = 0;  // distinct (kind, site)
    uint64_t events = 0;      // all occurrences
    uint64_t synced_bytes = 0;   // bytes covered by sync_for_cpu / unmap
    uint64_t touched_bytes = 0;  // bytes the CPU read inside mappings
};

class coherence_checker : public models::mem::mem_observer {
public:
    // alloc_of(pa, &start, &len) tells which allocation holds pa (false: none).
    using alloc_query = std::function<bool(uint64_t, uint64_t*, uint64_t*)>;
    coherence_checker(models::mem::phys_mem& mem, alloc_query q);

    void on_dma(int op, uint64_t pa, uint64_t size, int dir, const void* site);
    // dma_map_single of memory that is not simulated kernel memory.
    void on_not_dmaable(const void* p, uint64_t size, const void* site);
    // dma_alloc_coherent / dma_free_coherent (handle = pa of the memory).
    // on_coherent_free returns false when the handle is no coherent
    // allocation (then the caller frees nothing).
    void on_coherent_alloc(uint64_t handle, uint64_t cpu_pa, uint64_t size, const void* site);
    bool on_coherent_free(uint64_t handle, uint64_t cpu_pa, uint64_t size, const void* site);
    // Heap lines outside every live allocation (and redzones): a CPU access
    // there goes to the fault handler (set by khost), as do frees of memory
    // under a live mapping (mapped(), below).
    void poison(uint64_t pa, uint64_t len, bool on);
    // The last line of each live heap slot is marked: a copy or fill that
    // reaches one is checked against its allocation (reaches_end).
    void mark_end(uint64_t pa, bool on);
    bool reaches_end(uint64_t pa, uint64_t len) const;
    using fault_fn = std::function<void(uint64_t pa, uint64_t len, bool write, const void* site)>;
    void set_fault_handler(fault_fn f) { m_fault = std::move(f); }
    // The running core's open call sites, innermost first (khost's hooks).
    void set_call_stack(std::function<std::vector<const void*>()> f) { m_call_stack = std::move(f); }
    // Describes the context running now ("softirq on CPU0", "iperf3 on CPU1").
    void set_context(std::function<std::string()> f) { m_context = std::move(f); }
    // [pa, pa+len) is being freed: whether a line of it is in a live
    // streaming mapping; if so, that mapping's start and map site, and the
    // mapping is marked as outliving its buffer.
    bool freed_under_mapping(uint64_t pa, uint64_t len, uint64_t* map_pa, const void** map_site);
    // Live streaming mappings: start, size, map site, whether their buffer was freed.
    void for_each_mapping(
        const std::function<void(uint64_t pa, uint64_t size, const void* site, bool buf_freed)>& f) const;
    // Run once by the first violations() call: the end-of-run checks (leaks).
    void set_finish(std::function<void()> f) { m_finish = std::move(f); }
    // One occurrence of a violation found outside the checker (memory checks).
    void report_ext(cv_kind k, api_rule r, uint64_t pa, uint64_t buf_pa, uint64_t buf_len, const void* site,
                    const std::string& detail, const void* site2 = nullptr, const char* what2 = nullptr,
                    const void* site3 = nullptr, const char* what3 = nullptr, uint64_t count = 1);
    // Fast test for the access hooks: a mapped or a poisoned line.
    bool tracked(uint64_t pa) const
    {
        const uint64_t l = (pa - m_base) >> 5;
        return l < m_bits.size() * 64 && ((m_bits[l >> 6] >> (l & 63)) & 1);
    }
    // Whether any line of [pa, pa+size) is tracked, a word of lines at a time.
    bool tracked_any(uint64_t pa, uint64_t size) const
    {
        const uint64_t l0 = (pa - m_base) >> 5;
        if (!size || l0 >= m_nbits)
            return false;
        const uint64_t l1 = std::min<uint64_t>((pa + size - 1 - m_base) >> 5, m_nbits - 1);
        for (uint64_t w = l0 >> 6; w <= l1 >> 6; w++) {
            uint64_t m = m_bits[w];
            if (w == l0 >> 6)
                m &= ~0ull << (l0 & 63);
            if (w == l1 >> 6 && (l1 & 63) != 63)
                m &= (2ull << (l1 & 63)) - 1;
            if (m)
                return true;
        }
        return false;
    }
    // tracked(pa) || tracked(pa + size - 1), the second test only when the
    // access ends in another line: the test of every load and store.
    bool tracked_ends(uint64_t pa, uint64_t size) const
    {
        const uint64_t l0 = (pa - m_base) >> 5, l1 = (pa + size - 1 - m_base) >> 5;
        const uint64_t* b = m_bits.data();
        if (l0 < m_nbits && ((b[l0 >> 6] >> (l0 & 63)) & 1))
            return true;
        return l1 != l0 && l1 < m_nbits && ((b[l1 >> 6] >> (l1 & 63)) & 1);
    }
    // Only mapped lines (the device side does not care about poison).
    bool mapped_line(uint64_t pa) const
    {
        const uint64_t l = (pa - m_base) >> 5;
        return l < m_map_bits.size() * 64 && ((m_map_bits[l >> 6] >> (l & 63)) & 1);
    }
    // A CPU access already made visible in the CPU view (after the L1 access).
    void on_cpu(uint64_t pa, uint64_t len, bool write, const void* site);
    // "function (file:line)" of a kernel code address (addr2line on its object).
    static std::string where_of(const void* site);

    void dram_write(uint64_t pa, unsigned len, uint8_t master) override;

    const coherence_stats& stats() const { return m_stats; }
    void reset_stats();
    // Distinct violations with symbolised sites.
    const std::vector<violation>& violations();

private:
    struct mapping {
        uint64_t pa, size;
        int dir;
        const void* map_site;
        const void* cpu_sync_site = nullptr;
        // The last sync_for_cpu's range (bytes from pa); current: no
        // sync_for_device since.
        uint64_t cpu_sync_off = 0, cpu_sync_len = 0;
        bool cpu_sync_current = false;
        uint32_t cpu_lines = 0;  // lines currently owned by the CPU
        bool live = true;
        bool err_checked = false;  // dma_mapping_error() saw the address
        bool buf_freed = false;    // its buffer was freed while it was live
        const void* unmap_site = nullptr;
    };
    struct coherent {
        uint64_t cpu_pa, size;
        const void* site;
    };
    struct line_state {
        uint32_t map;              // index into m_maps
        bool cpu_owned = false;
        bool dev_written = false;  // device wrote since the CPU last invalidated
        bool cpu_owned_write = false;  // the CPU wrote since the device's last write
        bool live = false;         // the slot holds a line of a mapping (else: free)
    };
    // Line states by absolute line number (pa >> 5). Inside the backed
    // window: one table entry per 4-KiB page, each a chunk of the page's 128
    // slots (2 KiB) allocated on the first mapping of a line there and kept,
    // so a lookup is two indexings and a range walks the slots in place;
    // memory goes only to pages ever mapped (the 64-MiB default window: a
    // 128-KiB table, 32 MiB if every page were mapped). Per-mapping arrays
    // would not do: dram_write and on_cpu know only the address, and a line
    // can pass to a newer overlapping mapping. Lines past the window (a
    // mapping running off its end) go to a hash map.
    static constexpr unsigned CHUNK_SHIFT = 7;  // lines per chunk: 4 KiB / 32 B
    // The sites apart from the states: walks and the device side touch only
    // the states (8 B a line), the site is written by CPU stores alone.
    struct line_chunk {
        line_state s[1u << CHUNK_SHIFT];
        const void* site[1u << CHUNK_SHIFT] = {};  // last CPU store to the line
    };
    // The state of line l, or nullptr if no mapping holds it.
    line_state* line(uint64_t l)
    {
        const uint64_t i = l - m_base_line;
        if (i < m_win_lines) {
            line_chunk* c = m_chunks[i >> CHUNK_SHIFT].get();
            line_state* st = c ? &c->s[i & ((1u << CHUNK_SHIFT) - 1)] : nullptr;
            return st && st->live ? st : nullptr;
        }
        return far_line(l);
    }
    line_state* far_line(uint64_t l);
    // The last CPU store's site of a line that has a state (see line()).
    const void*& write_site(uint64_t l)
    {
        const uint64_t i = l - m_base_line;
        if (i < m_win_lines)
            return m_chunks[i >> CHUNK_SHIFT]->site[i & ((1u << CHUNK_SHIFT) - 1)];
        return m_far_site[l];
    }
    // Frees line l's slot.
    void drop_line(uint64_t l, line_state& st);
    template <bool alloc, class F>
    void walk(uint64_t first, uint64_t last, F&& f);
    void report(cv_kind k, uint64_t pa, const mapping* m, const void* site, const std::string& detail = "");
    void partial_miss(uint64_t pa, const mapping& m, const void* site);
    void misuse(api_rule r, uint64_t pa, const mapping* m, const void* site, const std::string& detail,
                const void* site2 = nullptr, const char* what2 = nullptr);
    mapping* find_mapping(uint64_t pa);
    void set_bit(uint64_t line, bool on);
    // set_bit(l, on) for lines first..last.
    void set_map_bits(uint64_t first, uint64_t last, bool on);
    bool line_range(uint64_t pa, uint64_t len, uint64_t* i0, uint64_t* i1) const;
    void finish();
    void symbolize(violation& v);

    models::mem::phys_mem& m_mem;
    alloc_query m_alloc;
    uint64_t m_base;
    std::vector<uint64_t> m_bits;  // one bit per 32-B line of the backed window: mapped or poisoned
    uint64_t m_nbits;              // bits in m_bits (whole words)
    std::vector<uint64_t> m_map_bits, m_poison_bits;  // the two parts of m_bits
    std::vector<uint64_t> m_end_bits;                 // last line of each live heap slot
    uint64_t m_base_line, m_win_lines;                   // the window in lines
    std::vector<std::unique_ptr<line_chunk>> m_chunks;   // by page of the window
    std::unordered_map<uint64_t, line_state> m_far;      // lines past the window
    std::unordered_map<uint64_t, const void*> m_far_site;  // and their write sites
    std::vector<mapping> m_maps;
    std::map<uint64_t, uint32_t> m_by_pa;  // mapping start -> index
    bool m_lines_shared = false;           // a mapping was made over a line another one held
    std::map<uint64_t, uint32_t> m_dead_by_pa;  // unmapped mapping start -> index (last one)
    std::map<uint64_t, coherent> m_coherent;   // live dma_alloc_coherent by handle
    std::map<std::pair<int, const void*>, size_t> m_seen;  // (kind | rule << 8, site)
    fault_fn m_fault;
    std::function<std::vector<const void*>()> m_call_stack;
    std::function<std::string()> m_context;
    std::function<void()> m_finish;
    bool m_finished = false;
    std::vector<violation> m_list;
    coherence_stats m_stats;
};

} // namespace khost
