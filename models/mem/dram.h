// models/mem/dram.h: one DDR channel behind the MMDC.
//
// Models: a shared channel with a bandwidth (bytes per cycle plus a per-
// transaction overhead) booked on a timeline, so masters contend and latency
// rises under load; a fixed access latency for reads; data in phys_mem's DRAM
// view. Does not model: banks, rows, refresh, scheduling reorder.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include "common/log.h"
#include "common/params.h"
#include "mem/dram_config.h"
#include "common/stats.h"
#include "common/timeline.h"
#include "mem/mem_ext.h"
#include "mem/mem_observer.h"
#include "mem/phys_mem.h"

namespace models::mem {

struct dram_stats {
#define S FEC_STAT_MEMBER
#include "mem/dram_stats.def"
#undef S
};
extern const stat_desc dram_stat_rows[];
extern const size_t dram_stat_count;

class dram : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<dram> bus;  // from the interconnect

    dram(sc_core::sc_module_name nm, const dram_config& cfg, phys_mem& mem);
    const dram_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }
    const dram_config& config() const { return m_cfg; }
    void set_horizon(tick_t h) { m_channel.set_horizon(h); }
    void set_observer(mem_observer* o) { m_observer = o; }

    // Direct form of b_transport: t = absolute request time (ps); returns the
    // absolute time the initiator may go on. Data moved as for b_transport.
    tick_t access(tlm::tlm_generic_payload& gp, tick_t t) { return access(gp, ext_of(gp), t); }
    // The same with the payload's extension x (a caller that holds it).
    tick_t access(tlm::tlm_generic_payload& gp, const mem_ext& x, tick_t t);
    // A write of len bytes of data (nullptr: zeros) by master at t: access()
    // without a payload, the same bookings, data and counters. Returns when
    // the write is performed.
    tick_t write(uint64_t pa, const uint8_t* data, unsigned len, uint8_t master, tick_t t)
    {
        const tick_t svc = m_service.ps(len);
        const tick_t start = m_channel.book(t, svc);
        count_writes(1, svc, len, master);
        m_stats.queue_ps += start - t;
        m_mem.dram_write(pa, data, len);
        if (m_observer && pa < m_observer->observe_hi && pa + len > m_observer->observe_lo)
            m_observer->dram_write(pa, len, master);
        SIM_TRACE(TRACE_DRAM, name(), "wr pa=0x%llx len=%u master=%u wait=%llups", (unsigned long long)pa, len, master,
                  (unsigned long long)(start - t));
        return start + svc + m_clk.cycles(m_cfg.write_latency_cycles);
    }

    // at.n writes of len bytes by master, write j taking the channel at
    // at.slot_start(j) (at.busy is ignored: the service time), booked as one
    // run (noc::write_run). Timing and counters only: no data moves and the
    // observer is not told (lines past the backed window).
    void write_run(slot_run at, unsigned len, uint8_t master)
    {
        at.busy = m_service.ps(len);
        m_channel.book_run(at);
        count_writes(at.n, at.busy, len, master);
    }
    // The channel's latest booked end (every time from it on is free).
    tick_t busy_until() const { return m_channel.busy_until(); }
    // The addresses whose writes the observer is told of, [*lo, *hi) (empty:
    // *lo > *hi when there is no observer).
    void observed_window(uint64_t* lo, uint64_t* hi) const
    {
        *lo = m_observer ? m_observer->observe_lo : ~0ull;
        *hi = m_observer ? m_observer->observe_hi : 0;
    }
    // n writes of len bytes by master, write j taking the channel at
    // t[j] + offset (increasing) without a wait, booked one by one as
    // write() books them (noc::write_slots): the same bookings and counters,
    // no data moved and the observer not told (lines past the backed
    // window, outside observed_window()).
    void write_slots(const tick_t* t, uint64_t n, tick_t offset, unsigned len, uint8_t master)
    {
        const tick_t svc = m_service.ps(len);
        for (uint64_t j = 0; j < n; j++)
            m_channel.book(t[j] + offset, svc);
        count_writes(n, svc, len, master);
    }
    // A write's channel occupancy and completion latency with nothing queued, ps.
    tick_t write_time(unsigned len) { return m_service.ps(len) + m_clk.cycles(m_cfg.write_latency_cycles); }
    tick_t service_time(unsigned len) { return m_service.ps(len); }

private:
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    // The counters of n writes of len bytes by master, svc ps on the channel each.
    void count_writes(uint64_t n, tick_t svc, unsigned len, uint8_t master)
    {
        m_stats.busy_ps += n * svc;
        if (master == MASTER_ENET)
            m_stats.dma_bytes += n * len;
        else
            m_stats.cpu_bytes += n * len;
        m_stats.writes += n;
        m_stats.bytes_written += n * len;
    }

    const dram_config m_cfg;
    phys_mem& m_mem;
    clock_domain m_clk;
    transfer_time m_service;  // channel occupancy per transaction
    timeline m_channel;
    dram_stats m_stats{};
    mem_observer* m_observer = nullptr;
};

} // namespace models::mem
