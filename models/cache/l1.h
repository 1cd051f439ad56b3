// models/cache/l1.h: Cortex-A9 L1 data cache, one per core, and the SCU that
// keeps the L1s coherent with each other.
//
// Data: the L1s keep no copy of their own; a line present in any L1 has its
// data in phys_mem's CPU view W (the host memory the driver dereferences). A
// fill copies the line from the PL310 (or DRAM through it) into W; a dirty
// eviction or clean copies W back into the PL310. So W holds what this core
// would read — including stale bytes when DMA changed DRAM under a cached line.
// Coherence between L1s (SCU): MOESI-like; a line read by a second core is
// supplied from W at c2c_cycles and both copies are marked shared; a store to a
// shared line invalidates the other copies. Maintenance by MVA is broadcast to
// all L1s (ACTLR.FW, as Linux sets on SMP).
// Timing: a load waits for its data (blocking); a store miss costs its latency
// divided by outstanding_writes (non-blocking stores); evictions and cleans
// are posted and a DSB waits for them and for posted device/uncached writes.
// Does not model: the store buffer's merging, the 2-stream hardware prefetcher
// (speculative prefetch is a parameter instead), TLBs, the I-cache.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>
#include "cache/l1_config.h"
#include "cache/cache_array.h"
#include "common/params.h"
#include "common/stats.h"
#include "mem/mem_ext.h"
#include "mem/phys_mem.h"

namespace models::cache {

struct l1_stats {
#define S FEC_STAT_MEMBER
#include "cache/l1_stats.def"
#undef S
};
extern const stat_desc l1_stat_rows[];
extern const size_t l1_stat_count;

// Cache maintenance by MVA (AArch32 CP15 c7).
enum class l1_op { inv, clean, clean_inv };  // DCIMVAC, DCCMVAC, DCCIMVAC

class l1_cache;

// Snoop control unit: the set of L1s that are coherent with each other.
class scu {
public:
    void attach(l1_cache* c) { m_l1s.push_back(c); }
    const std::vector<l1_cache*>& l1s() const { return m_l1s; }

private:
    std::vector<l1_cache*> m_l1s;
};

class l1_cache : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket_optional<l1_cache> cpu_side;  // generic loads/stores with data (optional)
    tlm_utils::simple_initiator_socket<l1_cache> mem_side;  // to the PL310's cpu_side

    l1_cache(sc_core::sc_module_name nm, const l1_config& cfg, unsigned core, mem::phys_mem& mem,
             scu& domain);

    // Direct CPU interface; t = the core's absolute time (ps), returns the
    // latency (ps) the core sees. After read(), W holds what this core reads
    // at [pa, pa+len); after write(), the lines are present and dirty and the
    // caller stores into W (phys_mem::cpu_view). len may cross lines.
    tick_t read(uint64_t pa, unsigned len, tick_t t);
    tick_t write(uint64_t pa, unsigned len, tick_t t);
    // Reads n lines of cacheable memory from the line at lpa up, each issued
    // at t plus what the reads before it cost beyond an L1 hit; returns that
    // sum (ps). The same cache state, statistics and time as n read() calls.
    // slots (optional, n entries, -1 for none): where each line was found
    // the last time, checked before the tag lookup and updated.
    tick_t read_lines(uint64_t lpa, unsigned n, tick_t t, int* slots = nullptr);
    // read() or write() of an address the caller knows is cacheable
    // (!phys_mem::is_uncached(pa)).
    tick_t access_cached(uint64_t pa, unsigned len, bool write, tick_t t);
    tick_t maint(l1_op op, uint64_t pa, tick_t t);
    // The same operation on n consecutive lines from pa (the loop of
    // v7_dma_*_range); returns the total latency.
    tick_t maint_lines(l1_op op, uint64_t pa, unsigned n, tick_t t);
    tick_t dsb(tick_t t);
    // A posted write of this core (e.g. to a device register) completes at
    // `done`; the next DSB waits for it.
    void note_posted(tick_t done)
    {
        if (done > m_posted_until)
            m_posted_until = done;
    }

    tick_t posted_until() const { return m_posted_until; }
    unsigned core() const { return m_core; }
    bool present(uint64_t pa) const { return m_arr.find(pa) >= 0; }
    bool empty() const { return m_arr.valid_lines() == 0; }
    bool is_dirty(uint64_t pa) const
    {
        int s = m_arr.find(pa);
        return s >= 0 && m_arr.dirty(s);
    }
    unsigned line_bytes() const { return m_arr.line_bytes(); }
    const l1_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }
    const l1_config& config() const { return m_cfg; }
    mem::phys_mem& memory() const { return m_mem; }

    // SCU side (called by peers). An empty L1 (an idle core's) answers
    // without a tag lookup.
    int snoop_find(uint64_t pa) const { return m_arr.valid_lines() ? m_arr.find(pa) : -1; }
    void snoop_share(int slot) { m_arr.set_flags(slot, m_arr.flags(slot) | LINE_SHARED); }
    // Drop a copy because another core takes it for writing; returns whether it was dirty.
    bool snoop_take(int slot)
    {
        bool d = m_arr.dirty(slot);
        m_arr.drop(slot);
        return d;
    }
    // Direct-call path to the PL310, equivalent to mem_side bound to its
    // cpu_side (like DMI: same timing and data, no socket overhead).
    void set_direct(class pl310* l2) { m_l2 = l2; }

    // Apply a broadcast maintenance operation to this L1's copy; t = when.
    void apply_maint(l1_op op, uint64_t pa, tick_t t);
    // The same on the valid slot that holds the line.
    void apply_maint_slot(l1_op op, int slot, tick_t t);

private:
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    tick_t access_line(uint64_t lpa, bool is_write, tick_t t);
    // access_cached() of the lines lpa..last (line addresses, lpa < last).
    tick_t access_lines(uint64_t lpa, uint64_t last, bool write, tick_t t);
    // access_line with lpa's slot already looked up (-1: not present).
    tick_t access_line_at(uint64_t lpa, int slot, bool is_write, tick_t t);
    // access_line past a hit: a store to a shared line (slot >= 0) or a miss (slot < 0).
    tick_t access_line_slow(uint64_t lpa, int slot, bool is_write, tick_t t);
    tick_t uncached(uint64_t pa, unsigned len, bool is_write, tick_t t);
    tick_t access_bytes(uint64_t pa, unsigned len, bool write, tick_t t);
    // Fill lpa into slot from the PL310 at t; returns when the data is there.
    tick_t fill(int slot, uint64_t lpa, tick_t t);
    int make_room(uint64_t lpa, tick_t t);
    void writeback(int slot, tick_t t);
    tick_t l2_call(tlm::tlm_command cmd, uint64_t pa, uint8_t* data, unsigned len, bool uncached,
                   bool posted, tick_t t);

    const l1_config m_cfg;
    const unsigned m_core;
    mem::phys_mem& m_mem;
    scu& m_scu;
    clock_domain m_clk;
    cache_array m_arr;
    mem::mem_txn m_txn;
    tick_t m_posted_until = 0;
    class pl310* m_l2 = nullptr;
    tick_t m_hit, m_c2c, m_maint_line;
    int m_hint = -1;  // slot of the latest hit: a guess, checked against the tag before use
    uint64_t m_line_mask;
    l1_stats m_stats{};
};

} // namespace models::cache
