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
//   api_misuse        unmap/sync of an unmapped address, direction or size
//                     that differs from the mapping, double mapping
// Speculative fills of device-owned lines are allowed (that is why the API
// invalidates after a DMA); they count only if a stale read follows.
// Sites are the driver's code addresses, symbolised to function and file:line.
// Also measured: sync efficiency, bytes synced for the CPU vs bytes it read.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
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
};
const char* cv_kind_name(cv_kind k);

struct violation {
    cv_kind kind;
    uint64_t pa;        // first address seen
    uint64_t buf_pa;    // the mapping (0 if none)
    uint64_t buf_len;
    const void* site;   // driver code address
    std::string where;  // "function (file:line)", filled by symbolize()
    std::string detail;
    uint64_t count;     // occurrences at this site
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
    // Fast test for the access hooks.
    bool tracked(uint64_t pa) const
    {
        const uint64_t l = (pa - m_base) >> 5;
        return l < m_bits.size() * 64 && ((m_bits[l >> 6] >> (l & 63)) & 1);
    }
    // A CPU access already made visible in the CPU view (after the L1 access).
    void on_cpu(uint64_t pa, uint64_t len, bool write, const void* site);

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
        uint32_t cpu_lines = 0;  // lines currently owned by the CPU
        bool live = true;
    };
    struct line_state {
        uint32_t map;              // index into m_maps
        bool cpu_owned = false;
        bool dev_written = false;  // device wrote since the CPU last invalidated
        bool cpu_owned_write = false;  // the CPU wrote since the device's last write
        const void* last_write_site = nullptr;
    };
    void report(cv_kind k, uint64_t pa, const mapping* m, const void* site, const std::string& detail = "");
    mapping* find_mapping(uint64_t pa);
    void set_bit(uint64_t line, bool on);
    void symbolize(violation& v);

    models::mem::phys_mem& m_mem;
    alloc_query m_alloc;
    uint64_t m_base;
    std::vector<uint64_t> m_bits;  // one bit per 32-B line of the backed window
    std::unordered_map<uint64_t, line_state> m_lines;  // by line number
    std::vector<mapping> m_maps;
    std::map<uint64_t, uint32_t> m_by_pa;  // mapping start -> index
    std::map<std::pair<int, const void*>, size_t> m_seen;
    std::vector<violation> m_list;
    coherence_stats m_stats;
};

} // namespace khost
