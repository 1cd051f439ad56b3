// models/mem/phys_mem.h: the simulated physical address space and its two host
// views.
//
//  D, the DRAM view: what the memory chips hold. The DRAM model and the uDMA
//    read and write it.
//  W, the CPU view: the host memory that driver code dereferences. For every
//    cacheable line held by some L1 it holds that line's data (the L1s use W as
//    their data store; the SCU keeps the L1s coherent, so one copy suffices).
//    For a cacheable line in no L1 it holds nothing meaningful: the L1 refreshes
//    it from the PL310 or D on the fill that every access triggers.
//  Uncached ranges (dma_alloc_coherent memory) are mapped so that W and D are
//    the same host pages: a CPU store is what the device reads, and vice versa.
//
// Only the first `backed` bytes from `base` carry data; the rest of the address
// space (the stressor's footprint) is timing-only and reads as zero.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include "mem/dram_config.h"

namespace models::mem {

class phys_mem {
public:
    explicit phys_mem(const phys_mem_config& cfg);
    ~phys_mem();
    phys_mem(const phys_mem&) = delete;
    phys_mem& operator=(const phys_mem&) = delete;

    uint64_t base() const { return m_cfg.base; }
    uint64_t size() const { return m_cfg.size; }
    uint64_t backed() const { return m_cfg.backed; }
    bool contains(uint64_t pa) const { return pa - m_cfg.base < m_cfg.size; }
    bool is_backed(uint64_t pa, uint64_t len = 1) const
    {
        return pa - m_cfg.base < m_cfg.backed && pa - m_cfg.base + len <= m_cfg.backed;
    }

    // Host pointers of the two views (only for backed addresses).
    uint8_t* cpu_view(uint64_t pa) const { return m_w + (pa - m_cfg.base); }
    uint8_t* dram_view(uint64_t pa) const { return m_d + (pa - m_cfg.base); }
    uint8_t* cpu_base() const { return m_w; }
    // Physical address of a CPU-view host pointer, or ~0 if outside W.
    uint64_t pa_of_cpu(const void* p) const
    {
        uint64_t off = (uint64_t)((const uint8_t*)p - m_w);
        return off < m_cfg.backed ? m_cfg.base + off : ~0ull;
    }

    // Make [pa, pa+len) uncached: W aliases D there. Page-aligned; the range
    // must be backed. Throws std::invalid_argument otherwise.
    void map_uncached(uint64_t pa, uint64_t len);
    bool is_uncached(uint64_t pa) const
    {
        if (pa < m_unc_lo || pa >= m_unc_hi)  // outside every range (the test of nearly every access)
            return false;
        for (const auto& r : m_uncached)
            if (pa - r.first < r.second)
                return true;
        return false;
    }

    // DRAM accesses (data side of the DRAM model): null data = zeros / ignored.
    void dram_read(uint64_t pa, uint8_t* out, unsigned len) const;
    void dram_write(uint64_t pa, const uint8_t* in, unsigned len);

private:
    phys_mem_config m_cfg;
    int m_fd = -1;
    uint8_t* m_d = nullptr;
    uint8_t* m_w = nullptr;
    std::vector<std::pair<uint64_t, uint64_t>> m_uncached;  // (start, len)
    uint64_t m_unc_lo = ~0ull, m_unc_hi = 0;                // [lo, hi): the ranges' hull (empty: lo > hi)
};

} // namespace models::mem
