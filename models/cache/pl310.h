// models/cache/pl310.h: PL310 (L2C-310) shared L2 cache with data.
//
// Models: a 16-way write-back, read- and write-allocate cache holding line data
// (for the backed memory; a line past it keeps none and reads as zeros, as DRAM);
// the slave ports shared by all masters with round-robin arbitration per
// request (common/rr_port.h: a request arriving during another master's burst
// waits for one of its line transfers, not for the burst); line fills from and
// evictions to DRAM through the fabric, tracked while in flight; an eviction
// buffer of eviction_buffer_lines entries (a request whose dirty victim finds
// it full holds the ports until an entry frees); maintenance by PA
// (INV/CLEAN/CLEAN_INV_LINE_PA) and CACHE_SYNC as writes to its register block,
// each atomic: it holds every slave port for its duration, so one core's
// maintenance delays the others' L2 traffic. With maint_waits_for_drain, a line
// operation that has the ports first waits for fills/evictions in flight
// (including the one of the line transfer arbitration let in just before it);
// CACHE_SYNC always does. Non-cacheable accesses pass through.
// Does not model: way and set/way operations (logged unimplemented), the
// prefetch engine, lockdown, exclusive mode, ECC, the store buffer merging,
// separate line-fill buffers (fills are not limited in number).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>
#include "cache/l2_config.h"
#include "cache/cache_array.h"
#include "common/params.h"
#include "common/stats.h"
#include "common/rr_port.h"
#include "common/timeline.h"
#include "mem/mem_ext.h"
#include "mem/phys_mem.h"
#include "cache/pl310_regs.h"

namespace models::mem { class noc; }

namespace models::cache {

struct l2_stats {
#define S FEC_STAT_MEMBER
#include "cache/l2_stats.def"
#undef S
};
extern const stat_desc l2_stat_rows[];
extern const size_t l2_stat_count;

class pl310 : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<pl310> cpu_side;  // L1s, stressor
    tlm_utils::simple_target_socket_optional<pl310> regs;  // register block (offsets); optional
    tlm_utils::simple_initiator_socket<pl310> mem_side;          // to the fabric

    pl310(sc_core::sc_module_name nm, const l2_config& cfg, mem::phys_mem& mem);

    // Data-side access in absolute time (the body of cpu_side's b_transport).
    // Cacheable reads and writes cover whole lines (a multi-line write is a
    // burst of line writes); returns when the initiator may go on.
    tick_t access(tlm::tlm_generic_payload& gp, tick_t t);

    // Register write at absolute time t by a core. Returns when the write was
    // accepted (the core may go on); *done receives when the operation
    // completes (a later DSB waits for it).
    // master: the issuing core (MASTER_CPU0 + core), for port arbitration.
    tick_t reg_write(uint32_t offset, uint32_t value, tick_t t, tick_t* done,
                     uint8_t master = mem::MASTER_OTHER);
    // n writes of a by-PA line operation register for consecutive lines from
    // pa, each issued when the previous one was accepted: exactly the loop
    // of Linux's l2c210_*_range. Same result as n reg_write() calls: runs of
    // operations during which no other master holds the ports, nothing is in
    // flight and no clean writes back are booked as one block each; the
    // operations between them take their turns one by one.
    tick_t reg_write_lines(uint32_t offset, uint64_t pa, unsigned n, tick_t t, tick_t* done,
                           uint8_t master = mem::MASTER_OTHER);
    uint32_t reg_read(uint32_t offset);
    // The memory hog's page zeroing as an aggregate (stress.model=aggregate,
    // docs/design.md "Memory hog"): len bytes of whole-line writes from
    // line-aligned pa by master at t, lines past the backed window. The cache
    // state changes as line by line (each line allocated dirty, its victim
    // chosen by the policy; a dirty victim inside the backed window leaves
    // through the detailed write-back path); the timing is booked as one
    // block: the ports as one envelope of port_cycles slots, and the hog
    // victims' evictions as runs at the pipeline's steady line period in the
    // eviction buffer, the fabric port, the DRAM channel and the in-flight
    // record. Returns when the last line has left the ports.
    tick_t zero_aggregate(uint64_t pa, unsigned len, tick_t t, uint8_t master);
    // zero_aggregate(): blocks booked so far, and lines that went one by one
    // (another master's operations booked ahead of them).
    uint64_t aggregate_blocks() const { return m_agg_pages; }
    uint64_t aggregate_single_lines() const { return m_agg_line_lines; }
    // Evictions of detailed bursts counted instead of computed one by one,
    // once their pattern repeated (access_lines, eviction_runs; booked as
    // one by one would book them).
    uint64_t burst_run_evictions() const { return m_burst_run_evictions; }
    // kind=integrated: the L2 share of n by-VA maintenance operations to the
    // PoC on consecutive lines from pa (op: INV_LINE_PA, CLEAN_LINE_PA or
    // CLEAN_INV_LINE_PA for DC IVAC, CVAC, CIVAC), issued by the core at t
    // after its L1 share. Each line is looked up in turn like a request
    // (maint_line_cycles holding the port, no drain wait, nothing atomic);
    // a dirty line leaves through the eviction buffer. Returns when the
    // last lookup is done; *done: when its write-backs have completed too.
    tick_t poc_lines(uint32_t op, uint64_t pa, unsigned n, tick_t t, tick_t* done,
                     uint8_t master = mem::MASTER_OTHER);

    const l2_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }
    const l2_config& config() const { return m_cfg; }
    void set_horizon(tick_t h);
    // Direct-call path to the fabric, equivalent to mem_side bound to
    // noc.masters[port] (like DMI: same timing and data, no socket overhead).
    void set_direct(mem::noc* n, unsigned port) { m_noc = n; m_noc_port = port; }

    // Inspection for tests and the coherence checker.
    bool present(uint64_t pa) const { return m_arr.find(pa) >= 0; }
    bool is_dirty(uint64_t pa) const
    {
        int s = m_arr.find(pa);
        return s >= 0 && m_arr.dirty(s);
    }
    const uint8_t* line_data(uint64_t pa)
    {
        int s = m_arr.find(pa);
        return s >= 0 ? m_arr.data(s) : nullptr;
    }
    unsigned line_bytes() const { return m_arr.line_bytes(); }

private:
    void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    void regs_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

    // When a request of master arriving at t gets the slave ports; counts waits.
    rr_port::grant_info grant_port(tick_t t, uint8_t master);
    // grant_port, then hold the ports for dur.
    tick_t book_port(tick_t t, tick_t dur, uint8_t master);
    // When an atomic operation granted the ports (g) may start: transfers in
    // flight have completed. Counts drain_wait_ps.
    tick_t drain_ready(const rr_port::grant_info& g);
    // Time >= t an eviction-buffer entry is free (sets m_eb_pick).
    tick_t eb_enter(tick_t t);
    // Line operations (t = when the port is ours). allocate/writeback return
    // when the victim has left for the eviction buffer; allocate's slot still
    // holds the victim's tag, which the caller's install() replaces.
    tick_t allocate(uint64_t lpa, tick_t t, uint8_t master, int* slot);
    tick_t writeback(int slot, tick_t t, uint8_t master);
    // Returns when the data is there; *stall = when the victim was out.
    tick_t line_read(uint64_t lpa, uint8_t* out, tick_t t, uint8_t master, tick_t* stall);
    // access() of a cacheable request, line by line.
    tick_t access_lines(tlm::tlm_generic_payload& gp, const mem::mem_ext& x, tick_t t);
    // Returns when the port may take the next request.
    tick_t line_write(uint64_t lpa, const uint8_t* in, tick_t t, uint8_t master);
    tick_t maint_line(uint32_t op, uint64_t pa, tick_t t, tick_t* done, uint8_t master);
    // The effect of a line operation (INV/CLEAN/CLEAN_INV_LINE_PA) on lpa at
    // s: its count, the drop, a dirty line's write-back by wb_master
    // (*wb_done, when given, becomes at least that write's completion).
    // Returns when the victim has left for the eviction buffer (s if none).
    tick_t line_op(uint32_t op, uint64_t lpa, tick_t s, uint8_t wb_master, tick_t* wb_done);
    // m_down (set by the caller) to the fabric at t; returns its completion.
    tick_t forward(tick_t t);
    // Latest completion among fills/evictions started at or before t.
    tick_t drained_at(tick_t t) const;
    // a when a fill or eviction is in flight at a; else the start of the first
    // one after a (~0: none).
    tick_t quiet_until(tick_t a) const;
    void note_inflight(tick_t start, tick_t end, uint8_t master);
    // n >= 1 evictions of master's lines past the backed window (timing only),
    // eviction j entering the buffer at in[j] (increasing) and taking entry
    // entry[j % p], each complete f0 later with nothing in its way: booked
    // as writeback() books each (fabric port, DRAM channel, buffer entry,
    // in-flight record), with the same counters but the buffer waits.
    void book_evictions(const tick_t* in, uint64_t n, const size_t* entry, unsigned p, tick_t f0,
                        uint8_t master);
    class eviction_runs;  // access_lines(): a detailed burst's evictions, once they repeat

    const l2_config m_cfg;
    mem::phys_mem& m_mem;
    clock_domain m_clk;
    cache_array m_arr;
    rr_port m_port{mem::MASTER_COUNT};  // slave-port occupancy per master
    std::vector<timeline> m_eb;         // one occupancy timeline per eviction-buffer entry
    struct span { tick_t start, end; };
    std::vector<span> m_eb_last;        // per entry: its latest booking (free_at's common answers)
    size_t m_eb_pick = 0;
    tick_t m_last_flight[mem::MASTER_COUNT] = {};  // duration of each master's latest fill/eviction
    struct flight { tick_t start, end; };
    // Fills and evictions in flight, one list per master: each master issues
    // in its own time order, so appends keep every list sorted by start.
    struct flight_list {
        std::vector<flight> v;
        size_t head = 0;
        tick_t max_end = 0;  // latest end of any flight noted
    };
    flight_list m_inflight[mem::MASTER_COUNT];
    // Forgets the flights of l that ended more than the horizon before start.
    void prune_flights(flight_list& l, tick_t start);
    uint32_t m_flight_masters = 0;  // bit per master that has noted a flight
    // The aggregate hog's evictions in flight, one record per page: flight j
    // starts at r.slot_start(j) and takes r.busy ps; end = r.end(), kept
    // (two divisions each time otherwise, for every record a drain looks at).
    struct flight_run {
        slot_run r;
        tick_t end;
    };
    std::vector<flight_run> m_flight_runs;  // in booking order; [0, m_fr_head) forgotten
    bool m_eb_runs = false;               // zero_aggregate() has booked runs in the eviction buffer
    size_t m_fr_head = 0;
    uint64_t m_agg_pages = 0, m_agg_line_lines = 0;  // see aggregate_blocks()
    uint64_t m_burst_run_evictions = 0;              // see burst_run_evictions()
    std::vector<tick_t> m_ev_in;                     // eviction_runs' entry times, reused
    tick_t m_inflight_max_end = 0, m_longest_flight = 0;
    mem::noc* m_noc = nullptr;  // direct path (see set_direct)
    unsigned m_noc_port = 0;
    tick_t m_horizon = 100 * PS_PER_US;
    mem::mem_txn m_down;  // reusable downstream transaction
    uint32_t m_ctrl = 1, m_aux = 0x76470001;
    l2_stats m_stats{};
};

} // namespace models::cache
