// models/mem/noc.h: the AXI fabric between bus masters and DRAM.
//
// Models: one port per bound master with its own data width (a port carries
// one burst at a time), a fixed one-way latency, and forwarding to DRAM where
// the masters contend. Does not model: QoS, outstanding-transaction limits,
// peripheral (AIPS) routing; MMIO does not cross this model.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>
#include "mem/noc_config.h"
#include "common/params.h"
#include "common/stats.h"
#include "common/timeline.h"
#include "mem/mem_ext.h"

namespace models::mem {

struct noc_stats {
#define S FEC_STAT_MEMBER
#include "mem/noc_stats.def"
#undef S
};
extern const stat_desc noc_stat_rows[];
extern const size_t noc_stat_count;

class noc : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<noc> masters;  // PL310 master port, ENET uDMA, ...
    tlm_utils::simple_initiator_socket<noc> mem_side;         // to DRAM

    noc(sc_core::sc_module_name nm, const noc_config& cfg);
    const noc_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }
    void set_horizon(tick_t h);
    // Direct-call path to DRAM, equivalent to mem_side bound to d.bus.
    void set_direct(class dram* d) { m_dram = d; }

    // b_transport in absolute time: t = request time (ps); returns when the master may go on.
    tick_t access(unsigned port, tlm::tlm_generic_payload& gp, tick_t t) { return access(port, gp, ext_of(gp), t); }
    // The same with the payload's extension x (a caller that holds it).
    tick_t access(unsigned port, tlm::tlm_generic_payload& gp, const mem_ext& x, tick_t t);
    // A posted write of len bytes of data (nullptr: zeros) by master on port
    // at t: access() without a payload (the PL310's evictions), the same
    // bookings, data and counters. Returns when the write is performed.
    tick_t write(unsigned port, uint64_t pa, const uint8_t* data, unsigned len, uint8_t master, tick_t t);
    // at.n posted writes of len bytes each by master on port, write j taking
    // the port at at.slot_start(j) (at.busy is ignored: the transfer time),
    // booked as one run here and in DRAM (the aggregate memory hog's
    // evictions). Timing only: their lines lie past the backed window (no
    // data, nothing the DRAM's observer watches). Counts at.n transactions.
    // Needs the direct path to DRAM (set_direct); the slots must not overlap
    // (spacing >= one transfer and channel time).
    void write_run(unsigned port, slot_run at, unsigned len, uint8_t master);
    // n posted writes of len bytes by master on port, write j taking the
    // port at t[j] (increasing) and DRAM a latency later, each without a
    // wait (the caller knows nothing is booked in their way): booked as n
    // write() calls book them (an interval each, joined where they touch),
    // with the same counters, the data and observer steps left out (lines
    // past the backed window, outside what the observer watches).
    void write_slots(unsigned port, const tick_t* t, uint64_t n, unsigned len, uint8_t master);
    // For a posted write of len bytes, ps: its time on a master port (*xfer),
    // on the DRAM channel (*channel), and from taking the port to its DRAM
    // completion (*done_after) when nothing else is in the way.
    void write_timing(unsigned len, tick_t* xfer, tick_t* channel, tick_t* done_after);
    // The latest end of anything booked on the master port and, through the
    // direct path, on the DRAM channel: a posted write on port at that time
    // or later finds neither busy.
    tick_t write_path_busy_until(unsigned port) const;
    // With the direct path to DRAM: true, and the addresses whose writes
    // DRAM's observer is told of (dram::observed_window). Without: false.
    bool direct_write_window(uint64_t* lo, uint64_t* hi) const;

private:
    // Books port for a burst of len bytes of master at t and counts it;
    // returns when the burst leaves the port for DRAM.
    [[gnu::always_inline]] tick_t enter(unsigned port, unsigned len, uint8_t master, tick_t t)
    {
        const tick_t xfer = m_xfer.ps(len);
        const tick_t start = port_line(port).book(t, xfer);
        count_transactions(1, len, master);
        m_stats.port_wait_ps += start - t;
        return start + m_clk.cycles(m_cfg.latency_cycles);
    }
    // The timeline of master port `port`, made on its first use.
    [[gnu::always_inline]] timeline& port_line(unsigned port)
    {
        if (port >= m_ports.size()) [[unlikely]]
            add_ports(port + 1);
        return m_ports[port];
    }
    void add_ports(size_t n);
    // The counters of n transactions of len bytes by master.
    void count_transactions(uint64_t n, unsigned len, uint8_t master)
    {
        m_stats.transactions += n;
        m_stats.bytes += n * len;
        if (master == MASTER_ENET)
            m_stats.enet_transactions += n;
    }
    void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    void end_of_elaboration() override;

    const noc_config m_cfg;
    clock_domain m_clk;
    transfer_time m_xfer;  // a burst's time on a master port
    std::vector<timeline> m_ports;
    class dram* m_dram = nullptr;
    tick_t m_horizon = 100 * PS_PER_US;
    noc_stats m_stats{};
};

} // namespace models::mem
