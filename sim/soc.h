// sim/soc.h: the simulated system as one object: every model elaborated from
// resolved configs, run for a scenario, and its results.
//
// Contract with the rest of sim/: the scenario loader fills a soc_config
// (sim/config/soc_config.h, plain); soc elaborates in its constructor, so a
// process builds at most one soc (SystemC has one simulation context).
// run() simulates warmup, resets every statistic, then simulates duration.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include <memory>
#include "cache/hierarchy.h"
#include "common/stats.h"
#include "cpu/core.h"
#include "enet/enet.h"
#include "drivers/khost/app.h"
#include "drivers/khost/boot.h"
#include "drivers/khost/hog_task.h"
#include "drivers/khost/stress.h"
#include "drivers/khost/khost.h"
#include "drivers/khost/kworker.h"
#include "drivers/khost/tx.h"
#include "drivers/khost/board_stack.h"
#include "traffic/traffic.h"
#include "traffic/peer.h"
#include "sim/config/soc_config.h"
#include "sim/results/stats_files.h"
#include "sim/results/summary.h"

namespace sim {

// i.MX6Q memory map and interrupt of the ENET (imx6qdl.dtsi).
constexpr uint64_t ENET_BASE = 0x02188000;
constexpr uint64_t ENET_SIZE = 0x4000;
constexpr unsigned ENET_IRQ = 150;

class soc {
public:
    explicit soc(const soc_config& cfg);
    ~soc();
    soc(const soc&) = delete;
    soc& operator=(const soc&) = delete;

    // Simulate warmup + duration; returns the summary (sim/results/summary.h).
    // Wall time is measured here.
    run_summary run();
    // Register the signals worth a waveform (IRQ lines, FIFO level, ...) on an
    // open VCD file before run().
    void trace(sc_core::sc_trace_file* tf) const;
    // Every raw counter, named by instance path ("l2.misses"), with description and unit.
    // After faulted(), the counters at the stop without the net_device and
    // ethtool ones (reading those would run driver code).
    void visit_stats(const models::stat_visitor& v) const;
    // A driver fault stopped run() (drivers/khost/fault.h).
    void faulted() { m_faulted = true; }
    // A kernel tree's driver at the end of the run (interface, link, ethtool
    // -S names; khost::tree_driver_report); "" for fecsim's own driver.
    std::string driver_report() const { return khost::tree_driver_report(m_driver); }
    // Write out the capture files of [output] pcap_rx / pcap_tx (also done
    // when the soc is destroyed); call before the run directory is committed.
    void flush_captures() const;
    // Time series sampled during run() (columns named in series_columns()).
    const std::vector<std::string>& series_columns() const { return m_series_cols; }
    const std::vector<std::vector<double>>& series() const { return m_series; }

private:
    void reset_stats();
    void boot();  // on the irq core at t = 0: load the driver, probe, open

    soc_config m_cfg;
    models::cache::hierarchy m_mem;
    khost::stressor m_stress;  // elaborated right after the memory system, before the cores
    std::vector<std::unique_ptr<models::cpu::core>> m_cores;
    std::unique_ptr<models::enet::enet> m_enet;
    std::unique_ptr<models::traffic::traffic_source> m_source;
    std::unique_ptr<models::traffic::traffic_sink> m_sink;
    std::unique_ptr<models::traffic::link_tap> m_rx_tap;  // [output] pcap_rx
    std::unique_ptr<khost::kernel> m_kernel;
    std::unique_ptr<khost::app_task> m_app;
    std::unique_ptr<khost::kworker_task> m_kworker;  // a kernel tree's driver only
    std::unique_ptr<khost::tx_task> m_tx;
    khost::tx_v6_port m_tx_port;                         // outlives the stack and the sender that use it
    std::unique_ptr<khost::board_stack> m_stack;        // a kernel tree's driver only
    std::unique_ptr<models::traffic::link_peer> m_peer;  // [peer]: a TCP stream or ping
    std::vector<std::unique_ptr<khost::hog_task>> m_hogs;  // stress workers sharing a core with network work
    sc_core::sc_signal<bool> m_irq{"enet_irq"};
    sc_core::sc_signal<bool> m_no_irq{"no_irq"};
    void sampler();
    bool m_series_reset = false;  // the statistics were reset since the last sample
    std::vector<uint64_t> m_sample_busy;  // the sampler's: each core's busy ps at the last sample
    std::vector<double> m_sample_row;
    std::vector<models::cpu::ctx> m_sample_ctx;
    // The stress worker that has core `core` to itself (it runs outside the
    // core model), or -1.
    int hog_worker_of_core(size_t core) const;
    // Counters the warm-up reset cleared, kept so the series stays cumulative from 0.
    uint64_t m_pre_written = 0, m_pre_mac_drops = 0, m_pre_sock_drops = 0, m_pre_delivered = 0;
    // Sampled signals for VCD (updated every output.sample_interval).
    sc_core::sc_signal<uint32_t> m_fifo_sig{"rx_fifo_bytes"}, m_ready_sig{"rx_bds_ready"};
    sc_core::sc_signal<bool> m_napi_sig{"napi_polling"};
    // Per core: its context (cpu::ctx: 0 hardirq, 1 softirq, 2 sys, 3 user, 4 idle).
    std::vector<std::unique_ptr<sc_core::sc_signal<uint32_t>>> m_ctx_sig;
    void* m_ndev = nullptr;
    void* m_driver = nullptr;
    // Counters that cannot be reset (the driver's), sampled at the end of warm-up.
    khost::netdev_snapshot m_snap, m_final;
    // The frame balance: frames the source offered that no fate counter has
    // taken yet (counted: offered minus every drop place and the datagrams
    // the application read), and the same frames found where they are
    // (observed: RX FIFO, RX ring in memory, a GRO batch, socket queue). base: the
    // driver's counters at the start of the counting (they never reset).
    struct frame_flight {
        int64_t counted = 0;
        uint64_t observed = 0;
    };
    frame_flight flight(const khost::netdev_snapshot& base) const;
    frame_flight m_flight_start, m_flight_end;
    bool m_faulted = false;
    std::vector<std::string> m_series_cols;
    std::vector<std::vector<double>> m_series;
};

// Every raw counter of s (soc::visit_stats), in visiting order.
std::vector<stat_entry> stats_collect(const soc& s);

} // namespace sim
