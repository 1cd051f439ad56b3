#include "sim/soc.h"
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include "common/log.h"
#include "drivers/khost/board_stack.h"
#include "drivers/khost/fault.h"
#include "traffic/peer.h"

namespace sim {

using namespace models;
using namespace khost;

static std::string top_name(const cpu::task& t, unsigned core);

// Who runs on the current core now, as a driver developer would name it:
// "hardirq on CPU0", "softirq on CPU0", "iperf3 on CPU1" (top's name).
static std::string running_context()
{
    const cpu::core* c = cpu::core::current();
    if (!c)
        return "";
    const std::string on = " on CPU" + std::to_string(c->id());
    switch (c->current_ctx()) {
    case cpu::ctx::irq: return "hardirq" + on;
    case cpu::ctx::softirq:  // in ksoftirqd (top's name), else at an interrupt's exit
        return c->running() && std::string(c->running()->name()) == "ksoftirqd"
                   ? top_name(*c->running(), c->id()) + on
                   : "softirq" + on;
    default: return c->running() ? top_name(*c->running(), c->id()) + on : "a task" + on;
    }
}

// Does `core` run network work (the RX interrupt, the application, the sender)?
static bool runs_network(const soc_config& c, unsigned core)
{
    return core == c.kernel.irq_core || (c.app.enabled && core == c.app.core) || (c.tx.enabled && core == c.tx.core);
}

static cache::hierarchy_config seeded(const soc_config& c)
{
    cache::hierarchy_config h = c.mem;
    h.cores = c.cpu.cores;
    h.cpu_hz = c.cpu.clock_hz;
    h.quantum_ps = c.scenario.quantum_ps;
    h.l1.seed = c.scenario.seed;
    h.l2.seed = c.scenario.seed;
    return h;
}

// The cores carry out the kernel's scheduling policy ([kernel]).
static cpu::cpu_config scheduled(const soc_config& c)
{
    cpu::cpu_config p = c.cpu;
    p.sched.softirq_max_restart = c.kernel.softirq_max_restart;
    p.sched.softirq_max_time_ps = c.kernel.softirq_max_time_ps;
    p.sched.ksoftirqd_defers = c.kernel.ksoftirqd_defers;
    p.sched.sched_slice_ps = c.kernel.sched_slice_ps;
    p.sched.ctx_switch_cycles = c.kernel.ctx_switch_cycles;
    p.sched.wakeup_cycles = c.kernel.wakeup_cycles;
    p.sched.lockup_ps = c.kernel.lockup_ps;
    p.sched.irq_time_accounting = c.kernel.irq_time_accounting;
    p.sched.ipi_cycles = c.kernel.ipi_cycles;
    p.sched.idle_exit_cycles = c.kernel.idle_exit_cycles;
    p.sched.block_cycles = c.kernel.block_cycles;
    if (c.kernel.background) {
        p.sched.tick_hz = c.kernel.hz;
        p.sched.bg_irq_hz = c.kernel.bg_irq_rate;
    }
    p.sched.tick_cycles = c.kernel.tick_cycles;
    p.sched.timer_softirq_cycles = c.kernel.timer_softirq_cycles;
    p.sched.rcu_softirq_interval = c.kernel.rcu_softirq_interval;
    p.sched.rcu_softirq_cycles = c.kernel.rcu_softirq_cycles;
    p.sched.bg_irq_cycles = c.kernel.bg_irq_cycles;
    p.sched.bg_irq_core = c.kernel.bg_irq_core;
    return p;
}

static khost::stress_config placed_stress(const soc_config& c)
{
    khost::stress_config s = khost::stress_placed(c.stress, seeded(c));
    // A worker on a core with network work shares it (a task of that core).
    s.task_workers = 0;
    if (c.stress.enabled)
        for (unsigned i = 0; i < c.stress.workers && i < 32; i++)
            if (runs_network(c, c.stress.core + i))
                s.task_workers |= 1u << i;
    return s;
}

static traffic::traffic_config seeded_traffic(const soc_config& c)
{
    traffic::traffic_config t = c.traffic;
    t.seed = c.scenario.seed;
    return t;
}

soc::soc(const soc_config& cfg) : m_cfg(cfg), m_mem(seeded(cfg)), m_stress("stress", placed_stress(cfg))
{
    m_stress.bind(m_mem.l2);
    if (cfg.app.join_group && (cfg.app.join_group >> 28) != 0xE)
        throw std::invalid_argument("app.join_group must be an IPv4 multicast address (224.0.0.0/4)");
    if (cfg.kernel.irq_core >= cfg.cpu.cores || cfg.app.core >= cfg.cpu.cores)
        throw std::invalid_argument("kernel.irq_core and app.core must name existing cores");
    if (cfg.kernel.background && cfg.kernel.bg_irq_rate && cfg.kernel.bg_irq_core >= cfg.cpu.cores)
        throw std::invalid_argument("kernel.bg_irq_core must name an existing core");
    const cpu::cpu_config cpu_cfg = scheduled(cfg);
    for (unsigned i = 0; i < cfg.cpu.cores; i++) {
        m_cores.emplace_back(new cpu::core(("cpu" + std::to_string(i)).c_str(), cpu_cfg, i, *m_mem.l1[i]));
        m_ctx_sig.emplace_back(new sc_core::sc_signal<uint32_t>(("cpu" + std::to_string(i) + "_context").c_str(),
                                                                (uint32_t)cpu::ctx::idle));
        m_cores.back()->irq.bind(i == cfg.kernel.irq_core ? m_irq : m_no_irq);
    }
    m_enet.reset(new enet::enet("enet", cfg.enet));
    m_enet->dma.bind(m_mem.noc.masters);
    m_enet->irq.bind(m_irq);
    m_enet->set_ring_peek([this](uint32_t pa) -> const uint8_t* {
        return m_mem.mem.is_backed(pa, m_enet->bd_bytes()) ? m_mem.mem.dram_view(pa) : nullptr;
    });
    m_source.reset(new traffic::traffic_source("traffic", seeded_traffic(cfg)));
    if (cfg.output.pcap_rx) {
        m_rx_tap.reset(new traffic::link_tap("rx_tap", cfg.output.pcap_rx_file));
        m_source->out.bind(m_rx_tap->in);
        m_rx_tap->out.bind(m_enet->phy_rx);
    } else {
        m_source->out.bind(m_enet->phy_rx);
    }
    m_enet->phy_pause.bind(m_source->pause_in);
    traffic::sink_config sink_cfg;
    if (cfg.output.pcap_tx)
        sink_cfg.pcap_file = cfg.output.pcap_tx_file;
    m_sink.reset(new traffic::traffic_sink("sink", sink_cfg));
    m_enet->phy_tx.bind(m_sink->in);

    std::vector<cpu::core*> cores;
    for (auto& c : m_cores)
        cores.push_back(c.get());
    watch_cores(cores);
    m_kernel.reset(new kernel("kernel", cfg.kernel, m_mem, cores, ENET_BASE, ENET_SIZE));
    m_kernel->mmio.bind(m_enet->regs);
    m_kernel->checker().set_context(running_context);

    m_driver = driver_setup(cfg.driver, cfg.enet.link_speed);
    stack_setup(cfg.stack, cfg.kernel.netdev_budget, cfg.kernel.netdev_budget_ps);

    cpu::core& irqc = *m_cores[cfg.kernel.irq_core];
    irqc.set_softirq_handler(3, net_rx_softirq_handler(cfg.driver, m_driver));
    if (!cfg.driver.tree.empty()) {  // a kernel tree's driver: its timers and work run here
        m_kworker.reset(new kworker_task(irqc));
        irqc.add_task(m_kworker.get());
    }
    irqc.set_boot([this] { boot(); });
    if (cfg.app.enabled) {
        khost::app_config ac = cfg.app;
        ac.foreign_payloads = cfg.traffic.mode == traffic::MODE_PCAP;
        m_app.reset(new app_task(ac));
        m_cores[cfg.app.core]->add_task(m_app.get());
        m_kernel->set_socket_reader(m_cores[cfg.app.core].get(), m_app.get());
    }
    const bool stream = cfg.tx.enabled && cfg.tx.protocol == khost::TX_TCP_CUBIC;
    if (cfg.peer.tcp_send && !cfg.app.enabled)
        throw std::invalid_argument("peer.tcp_send needs the board's application (app.enabled=true): it reads the "
                                    "stream (iperf3 -s)");
    if ((stream || cfg.peer.ping || cfg.peer.tcp_send) && cfg.driver.tree.empty())
        throw std::invalid_argument(std::string(stream ? "tx.protocol=tcp_cubic" : cfg.peer.ping ? "peer.ping" : "peer.tcp_send") +
                                    " needs a kernel tree's driver (driver.tree): the board's TCP and ICMP endpoints "
                                    "and its qdisc sit on the 6.x shim's transmit path");
    m_tx_port = tx_port(cfg.driver, m_driver);
    if (!cfg.driver.tree.empty()) {
        khost::stack_tx_config st;
        st.qdisc = cfg.qdisc;
        st.limit_output_bytes = cfg.tx.tcp_limit_output_bytes;
        st.ack_cycles = cfg.tx.tcp_ack_cycles;
        st.xmit_cycles = cfg.tx.send_cycles;
        st.icmp_cycles = cfg.tx.icmp_cycles;
        st.rx_frame_cycles = cfg.stack.frame_cycles;
        st.gro_segment_cycles = cfg.stack.gro_segment_cycles;
        st.recv_cycles = cfg.stack.recv_cycles;
        st.rcvbuf = cfg.stack.tcp_rcvbuf;
        st.mss = cfg.tx.mss;
        m_stack.reset(new khost::board_stack(st, m_tx_port, cores, cfg.board.mac_address));
        khost::board_stack_install(m_stack.get());
        if (cfg.peer.tcp_send) {
            m_stack->tcp_rx_open(m_cores[cfg.app.core].get());
            m_app->set_tcp(m_stack.get());
            m_kernel->set_host_roots([s = m_stack.get()](std::vector<const void*>& r) { s->held_skbs(r); });
        }
    }
    if (stream || cfg.peer.ping || cfg.peer.tcp_send) {
        m_peer.reset(new traffic::link_peer("peer", cfg.peer, cfg.traffic, *m_source, cfg.tx.mss));
        m_sink->set_peer(m_peer.get());
    }
    if (cfg.tx.enabled) {
        if (cfg.tx.core >= cfg.cpu.cores)
            throw std::invalid_argument("tx.core must name an existing core");
        khost::tx_config tc = cfg.tx;
        tc.board_mac = cfg.board.mac_address;
        m_tx.reset(new tx_task(tc, *m_cores[cfg.tx.core], &m_ndev, m_tx_port, m_stack.get()));
        m_cores[cfg.tx.core]->add_task(m_tx.get());
    }
    const khost::stress_config& sc = m_stress.config();
    for (unsigned i = 0; sc.enabled && i < sc.workers; i++) {
        if (!(sc.task_workers >> i & 1))
            continue;
        cpu::core& c = *m_cores.at(sc.core + i);
        m_hogs.emplace_back(new hog_task(m_stress.program(i), m_mem.l2, c, sc.start_ps));
        c.add_task(m_hogs.back().get());
        if (sc.start_ps)  // an idle core would not look for it before something else woke it
            sc_core::sc_spawn(
                [&c, t = sc.start_ps] {
                    sc_core::wait(from_ps(t));
                    c.wake(t);
                },
                sc_core::sc_gen_unique_name("stress_start"));
    }
    m_series_cols = {"time_s",    "rx_fifo_bytes", "rx_bds_ready", "irq_line",
                     "napi_polling", "mac_drops", "socket_drops", "delivered"};
    for (const auto& c : m_cores)
        m_series_cols.push_back("cpu" + std::to_string(c->id()) + "_busy_pct");
    if (cfg.output.series) {
        for (auto& c : m_cores)
            c->log_contexts(true);
        sc_core::sc_spawn([this] { sampler(); }, "sampler");
    }
}

soc::~soc() = default;

void soc::flush_captures() const
{
    if (m_rx_tap)
        m_rx_tap->flush();
    m_sink->flush();
}

// Samples the receive path every output.sample_interval: FIFO level, ring
// descriptors the MAC filled and the driver has not taken, the interrupt
// line, whether the RX core is in the NET_RX softirq (NAPI polls), counters,
// and each core's busy share of the interval. The cores run ahead of
// SystemC time: their context and busy time are taken at the sampling
// instant (cpu::core::context_at, busy_ps_now), not at the cores' own times.
void soc::sampler()
{
    const tick_t dt = m_cfg.output.sample_interval_ps;
    // The thread never returns: what it keeps lives with the module.
    std::vector<uint64_t>& busy_prev = m_sample_busy;
    std::vector<double>& row = m_sample_row;
    std::vector<cpu::ctx>& at = m_sample_ctx;
    busy_prev.assign(m_cores.size(), 0);
    at.resize(m_cores.size());
    for (;;) {
        sc_core::wait(from_ps(dt));
        const tick_t t = now_ps();
        uint64_t rx = 0, drop = 0, err = 0, fifo_err = 0;
        if (m_ndev)
            netdev_counters(m_ndev, &rx, &drop, &err, &fifo_err);
        const auto& es = m_enet->stats();
        const uint32_t fifo = m_enet->rx_fifo_level();
        const uint64_t written = m_pre_written + es.rx_delivered;
        const uint32_t ready = (uint32_t)(written > rx + err ? written - rx - err : 0);
        for (size_t i = 0; i < m_cores.size(); i++)
            at[i] = m_cores[i]->context_at(t);
        const bool polling = at[m_cfg.kernel.irq_core] == cpu::ctx::softirq;
        m_fifo_sig.write(fifo);
        m_ready_sig.write(ready);
        m_napi_sig.write(polling);
        for (size_t i = 0; i < m_ctx_sig.size(); i++)
            m_ctx_sig[i]->write((uint32_t)at[i]);
        const net_counters ns = net_counters_read();
        row = {(double)t / PS_PER_S, (double)fifo, (double)ready, m_irq.read() ? 1.0 : 0.0, polling ? 1.0 : 0.0,
               (double)(m_pre_mac_drops + es.rx_fifo_drops + es.rx_truncated),
               (double)(m_pre_sock_drops + ns.udp_rcvbuf_errors),
               (double)(m_pre_delivered + (m_app ? m_app->stats().verified : 0))};
        for (size_t i = 0; i < m_cores.size(); i++) {
            uint64_t busy = m_cores[i]->busy_ps_now();
            if (const int w = hog_worker_of_core(i); w >= 0)
                busy += m_stress.busy_ps_now((unsigned)w);
            if (m_series_reset)
                busy_prev[i] = 0;
            // The busy time so far never goes back: a step back of the
            // scheduler's idle-charged cycles is made up by what follows.
            row.push_back(100.0 * (double)(busy > busy_prev[i] ? busy - busy_prev[i] : 0) / (double)dt);
            busy_prev[i] = std::max(busy_prev[i], busy);
        }
        m_series.push_back(row);
        m_series_reset = false;
    }
}

// top's COMMAND of a task: per-CPU kernel threads carry their core.
static std::string top_name(const cpu::task& t, unsigned core)
{
    const std::string n = t.name();
    if (n == "ksoftirqd" || n == "kworker")
        return n + "/" + std::to_string(core);
    if (n == "app")
        return "iperf3";  // the receiving iperf3 -s
    if (n == "tx")
        return "iperf3-tx";
    return n;
}

int soc::hog_worker_of_core(size_t core) const
{
    const khost::stress_config& sc = m_stress.config();
    if (!sc.enabled || core < sc.core || core >= sc.core + sc.workers || (sc.task_workers >> (core - sc.core) & 1))
        return -1;
    return (int)(core - sc.core);
}

void soc::boot()
{
    m_ndev = driver_boot(m_cfg.driver, m_driver,
                         board_device{"fec", "2188000.ethernet", "imx6q-fec", ENET_BASE, ENET_SIZE, ENET_IRQ,
                                      m_cfg.board.mac_address},
                         m_cfg.app.enabled ? m_cfg.app.join_group : 0, m_cfg.board.promiscuous);
}

soc::frame_flight soc::flight(const netdev_snapshot& base) const
{
    const auto& es = m_enet->stats();
    const netdev_snapshot nd = netdev_snapshot_take(m_ndev);  // a tree driver's too
    const uint64_t rxd = nd.rx_dropped, rxe = nd.rx_errors, rxf = nd.rx_fifo_errors;
    const uint64_t errors = rxe - base.rx_errors, fifo_errors = rxf - base.rx_fifo_errors;
    const net_counters ns = net_counters_read();
    // A truncated frame (OV) is a MAC drop from the moment the FIFO overflows;
    // the driver's rx_fifo_errors count the same frames again later.
    const uint64_t fates = es.rx_disabled + es.rx_filtered + es.rx_pause_consumed + es.rx_fifo_drops +
                           es.rx_truncated + es.rx_flushed + es.rx_ring_discarded + es.rx_accel_discards + (rxd - base.rx_dropped) + errors -
                           std::min(errors, fifo_errors) + ns.rx_otherhost + ns.ip_in_hdr_errors + ns.ip_in_truncated + ns.udp_short + ns.udp_no_ports +
                           ns.ip_in_delivers_other + (m_stack ? m_stack->tcp_rx_segs() : 0) +
                           ns.udp_rcvbuf_errors + ns.udp_in_csum_errors + ns.udp_in_datagrams;
    frame_flight f;
    f.counted = (int64_t)(m_source->stats().frames + m_source->stats().injected) - (int64_t)fates;
    f.observed = m_enet->rx_fifo_frames(false) + m_enet->rx_ring_frames(false) + stack_backlog_len() +
                 (unsigned)socket_queued();
    return f;
}

void soc::reset_stats()
{
    m_series_reset = true;
    m_flight_start = flight(netdev_snapshot{});
    {
        const auto& es = m_enet->stats();
        m_pre_written += es.rx_delivered;
        m_pre_mac_drops += es.rx_fifo_drops + es.rx_truncated;
        m_pre_sock_drops += net_counters_read().udp_rcvbuf_errors;
        if (m_app)
            m_pre_delivered += m_app->stats().verified;
    }
    for (auto& l : m_mem.l1)
        l->reset_stats();
    m_mem.l2.reset_stats();
    m_mem.noc.reset_stats();
    m_mem.dram.reset_stats();
    m_stress.reset_stats();
    for (auto& c : m_cores) {
        c->settle();
        c->reset_stats();
    }
    m_enet->reset_stats();
    m_source->reset_stats();
    m_sink->reset_stats();
    m_kernel->reset_stats();
    m_kernel->checker().reset_stats();
    net_counters_reset();
    if (m_app)
        m_app->reset_stats();
    if (m_tx)
        m_tx->reset_stats();
    if (m_stack)
        m_stack->reset_stats();
    if (m_peer)
        m_peer->reset_stats();
    m_snap = netdev_snapshot_take(m_ndev);
}

run_summary soc::run()
{
    const auto w0 = std::chrono::steady_clock::now();
    // Lazy synchronisation stops at the end of each sc_start (0: never lazy).
    cpu::core::set_run_until(m_cfg.scenario.lazy_sync ? now_ps() + m_cfg.scenario.warmup_ps : 0);
    if (m_cfg.scenario.warmup_ps)
        sc_core::sc_start(from_ps(m_cfg.scenario.warmup_ps));
    else
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    reset_stats();
    const tick_t t0 = now_ps();
    cpu::core::set_run_until(m_cfg.scenario.lazy_sync ? t0 + m_cfg.scenario.duration_ps : 0);
    sc_core::sc_start(from_ps(m_cfg.scenario.duration_ps));
    for (auto& c : m_cores) {
        c->end_region();
        sim_log(log_level::info, c->name(), "synchronisation waits: %llu made, %llu left out (scenario.lazy_sync)",
                (unsigned long long)c->sync_waits(), (unsigned long long)c->sync_waits_saved());
    }
    // Hog workers with a core of their own ran outside the core models.
    const khost::stress_config& sc = m_stress.config();
    for (unsigned i = 0; sc.enabled && i < sc.workers; i++) {
        if (sc.task_workers >> i & 1)
            continue;
        const khost::hog_program& p = m_stress.program(i);
        m_cores.at(sc.core + i)->account_external(cpu::ctx::user, p.user_ps());
        m_cores.at(sc.core + i)->account_external(cpu::ctx::sys, p.sys_ps());
    }
    if (sc.enabled && sc.model == khost::stress_model::aggregate)
        sim_log(log_level::info, m_mem.l2.name(),
                "aggregate memory hog, warm-up included: %llu page blocks booked at once, %llu lines one by one "
                "behind another master's operations (stress.model)",
                (unsigned long long)m_mem.l2.aggregate_blocks(), (unsigned long long)m_mem.l2.aggregate_single_lines());
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    const double secs = (double)(now_ps() - t0) / PS_PER_S;

    run_summary s;
    const netdev_snapshot now = netdev_snapshot_take(m_ndev);
    m_final = now;
    m_flight_end = flight(m_snap);
    m_flight_end.counted += m_flight_start.counted;
    for (const frame_flight* f : {&m_flight_start, &m_flight_end}) {
        // Frames code holds between two places are in neither or in two:
        // on the RX core one frame (given its fate while its descriptor is
        // not yet back, or taken from a GRO batch while the stack works on
        // it), on the application's core the datagram it has dequeued and
        // not yet counted.
        const int64_t d = f->counted - (int64_t)f->observed;
        if (f->counted < 0 || d < -1 || d > 2)
            sim_log(log_level::error, "soc",
                    "frame balance at the %s: %lld frames offered and not yet counted as delivered or dropped, "
                    "%llu found in the RX FIFO, the RX ring and the socket",
                    f == &m_flight_start ? "start of the measurement" : "end", (long long)f->counted,
                    (unsigned long long)f->observed);
    }
    {
        std::map<std::string, uint64_t> counters;
        visit_stats([&](const std::string& name, uint64_t x, const char*, const char*) { counters[name] = x; });
        summary_fill_counters(&s, counters);
    }
    // The formula rows and items of sim/results/summary_metrics.def (the
    // counter rows are filled above).
    s.scenario = m_cfg.scenario.id;
    s.seed = m_cfg.scenario.seed;
    s.sim_time_s = secs;
    s.wall_time_s = wall;
    s.realtime_factor = wall > 0 ? (double)(now_ps()) / PS_PER_S / wall : 0;
    const app_stats* as = m_app ? &m_app->stats() : nullptr;
    // Distinct frames that reached the application intact (a stale copy of an
    // old frame verifies, but is a duplicate).
    // Datagrams of a replayed capture that cannot be checked count as delivered.
    s.frames_delivered = as ? as->verified - std::min(as->verified, as->duplicated) + as->unverifiable : 0;
    s.loss_pct = s.frames_offered ? 100.0 * (double)(s.frames_offered - std::min(s.frames_offered, s.frames_delivered)) /
                                        (double)s.frames_offered
                                  : 0;
    // Frames the driver discarded itself; FIFO-truncated ones (OV) are MAC drops.
    s.drops_driver = (now.rx_dropped - m_snap.rx_dropped) + (now.rx_errors - m_snap.rx_errors) -
                     std::min(now.rx_errors - m_snap.rx_errors, now.rx_fifo_errors - m_snap.rx_fifo_errors);
    cpu::core& irqc = *m_cores[m_cfg.kernel.irq_core];
    s.irq_rate_hz = secs > 0 ? (double)irqc.stats().irqs / secs : 0;
    {
        double masked_ps = 0;
        m_enet->visit_stats("", [&](const std::string& n, uint64_t x, const char*, const char*) {
            if (n == "rx_irq_masked_ps")
                masked_ps = (double)x;
        });
        s.irq_masked_pct = secs > 0 ? std::min(100.0, 100.0 * masked_ps / PS_PER_S / secs) : 0;
    }
    for (auto& c : m_cores) {
        const auto& st = c->stats();
        const double tot = (double)(st.irq_ps + st.softirq_ps + st.sys_ps + st.user_ps + st.idle_ps);
        auto pct = [&](uint64_t x) { return tot > 0 ? 100.0 * (double)x / tot : 0.0; };
        cpu_time t;
        t.core = c->id();
        t.irq_pct = pct(st.irq_ps);
        t.softirq_pct = pct(st.softirq_ps);
        t.sys_pct = pct(st.sys_ps);
        t.user_pct = pct(st.user_ps);
        t.idle_pct = pct(st.idle_ps);
        const double acct =
            (double)(st.acct_user_ps + st.acct_sys_ps + st.acct_irq_ps + st.acct_softirq_ps + st.acct_idle_ps);
        auto apct = [&](uint64_t x) { return acct > 0 ? 100.0 * (double)x / acct : 0.0; };
        t.mpstat_usr_pct = apct(st.acct_user_ps);
        t.mpstat_sys_pct = apct(st.acct_sys_ps);
        t.mpstat_irq_pct = apct(st.acct_irq_ps);
        t.mpstat_soft_pct = apct(st.acct_softirq_ps);
        t.mpstat_idle_pct = apct(st.acct_idle_ps);
        s.cpu.push_back(t);
        for (const cpu::task* k : c->tasks()) {
            const tick_t run = k->run_ps - (m_cfg.kernel.irq_time_accounting && k != c->tasks()[0]
                                                ? std::min(k->run_ps, k->interrupted_ps)
                                                : 0);
            if (run)
                s.tasks.push_back({top_name(*k, c->id()), c->id(), secs > 0 ? 100.0 * (double)run / PS_PER_S / secs : 0});
        }
    }
    const uint64_t frames = now.rx_packets - m_snap.rx_packets;
    const auto& cs = irqc.stats();
    auto per = [&](uint64_t cyc) { return frames ? (double)cyc / (double)frames : 0.0; };
    s.cpf_dma_sync = per(cs.cat_dma_sync);
    s.cpf_copy = per(cs.cat_copy);
    s.cpf_stack = per(cs.cat_stack);
    s.cpf_mmio = per(cs.cat_mmio);
    s.cpf_descriptor = per(cs.cat_desc);
    s.cpf_total = per(cs.cat_driver + cs.cat_desc + cs.cat_mmio + cs.cat_dma_sync + cs.cat_copy + cs.cat_stack +
                      cs.cat_alloc);
    s.dma_sync_cycles = m_kernel->stats().dma_sync_ps / irqc.clock().period_ps;
    {
        std::map<std::string, uint64_t> q;
        if (m_tx)
            m_tx->visit_queue_stats([&](const std::string& n, uint64_t x, const char*, const char*) { q[n] = x; });
        const double ns = secs * 1e9;
        s.txq_ring_mean = ns > 0 ? (double)q["txq.inflight_bd_ns_sum"] / ns : 0;
        s.txq_stopped_pct = ns > 0 ? std::min(100.0, 100.0 * (double)q["txq.stopped_ns"] / ns) : 0;
        s.txq_latency_mean_us = q["txq.completed"] ? (double)q["txq.latency_ns_sum"] / (double)q["txq.completed"] / 1e3 : 0;
        s.txq_latency_max_us = (double)q["txq.latency_ns_max"] / 1e3;
    }
    if (m_stack)
        m_stack->visit_stats([&](const std::string& n, uint64_t x, const char*, const char*) {
            if (n == "tcp.retrans_segs")
                s.tcp_retrans = x;
            else if (n == "stack.tcp_tsq_throttled")
                s.tcp_tsq_throttled = x;
        });
    if (m_peer) {
        const traffic::peer_stats& p = m_peer->stats();
        s.tcp_goodput_mbps = secs > 0 ? (double)p.tcp_bytes * 8 / secs / 1e6 : 0;
        if (m_stack && m_stack->tcp_rx_on() && as)
            s.tcp_rx_goodput_mbps = secs > 0 ? (double)as->bytes * 8 / secs / 1e6 : 0;
        s.ping_sent = p.ping_sent;
        s.ping_received = p.ping_received;
        if (const double n = (double)p.ping_received) {
            const double mean_us = (double)p.rtt_sum_ns / n / 1e3;
            s.ping_rtt_min_ms = (double)p.rtt_min_ns / 1e6;
            s.ping_rtt_avg_ms = mean_us / 1e3;
            s.ping_rtt_max_ms = (double)p.rtt_max_ns / 1e6;
            s.ping_rtt_mdev_ms = std::sqrt(std::max(0.0, (double)p.rtt_sq_sum_us2 / n - mean_us * mean_us)) / 1e3;
        }
    }
    for (const auto& v : m_kernel->checker().violations())
        s.violations.push_back({cv_kind_name(v.kind), v.where, v.detail, v.count, v.pa, v.buf_pa, v.buf_len});
    s.coherence_violations = s.violations.size();
    return s;
}

void soc::trace(sc_core::sc_trace_file* tf) const
{
    // Dotted names are VCD scopes: soc.enet (the MAC: IRQ line, RX FIFO),
    // soc.driver (RX ring descriptors ready, NAPI), soc.cpuN (context).
    sc_core::sc_trace(tf, m_irq, "soc.enet.irq");
    sc_core::sc_trace(tf, m_fifo_sig, "soc.enet.rx_fifo_bytes");
    sc_core::sc_trace(tf, m_ready_sig, "soc.driver.rx_bds_ready");
    sc_core::sc_trace(tf, m_napi_sig, "soc.driver.napi_polling");
    for (size_t i = 0; i < m_ctx_sig.size(); i++)
        sc_core::sc_trace(tf, *m_ctx_sig[i], "soc.cpu" + std::to_string(i) + ".context");
}

void soc::visit_stats(const stat_visitor& v) const
{
    for (const auto& l : m_mem.l1)
        stats_visit(&l->stats(), cache::l1_stat_rows, cache::l1_stat_count, std::string(l->name()) + ".", v);
    stats_visit(&m_mem.l2.stats(), cache::l2_stat_rows, cache::l2_stat_count, "l2.", v);
    stats_visit(&m_mem.noc.stats(), mem::noc_stat_rows, mem::noc_stat_count, "noc.", v);
    stats_visit(&m_mem.dram.stats(), mem::dram_stat_rows, mem::dram_stat_count, "dram.", v);
    stats_visit(&m_stress.stats(), khost::stress_stat_rows, khost::stress_stat_count, "stress.", v);
    for (const auto& c : m_cores)
        stats_visit(&const_cast<cpu::core&>(*c).stats(), cpu::cpu_stat_rows, cpu::cpu_stat_count, std::string(c->name()) + ".", v);
    m_enet->visit_stats("enet.", v);
    m_source->visit_stats("traffic.", v);
    m_sink->visit_stats("sink.", v);
    stats_visit(&m_kernel->stats(), kernel_stat_rows, kernel_stat_count, "kernel.", v);
    const coherence_stats& chk = m_kernel->checker().stats();
    v("coherence.violations", chk.violations, "distinct DMA-API/coherence violations (kind, driver site)", "count");
    v("coherence.events", chk.events, "occurrences of those violations", "count");
    v("coherence.synced_bytes", chk.synced_bytes, "bytes made visible to the CPU by sync_for_cpu/unmap", "B");
    v("coherence.touched_bytes", chk.touched_bytes, "bytes the CPU read in buffers it owned", "B");
    if (m_app)
        stats_visit(&const_cast<app_task&>(*m_app).stats(), app_stat_rows, app_stat_count, "app.", v);
    if (m_tx)
        stats_visit(&m_tx->stats(), tx_stat_rows, tx_stat_count, "tx.", v);
    if (m_tx)
        m_tx->visit_queue_stats(v);
    if (m_stack)
        m_stack->visit_stats(v);
    if (m_peer)
        m_peer->visit_stats("peer.", v);
    net_counters_visit(v);
    auto nonneg = [](int64_t x) { return x > 0 ? (uint64_t)x : 0; };
    v("flight.start", nonneg(m_flight_start.counted),
      "frames offered before the measurement whose fate (delivered or a drop) came after its start", "count");
    v("flight.end", nonneg(m_flight_end.counted),
      "frames offered and neither delivered to the application nor dropped at the end: the balance of the "
      "counters (offered + flight.start - socket reads - every drop)",
      "count");
    v("flight.observed_start", m_flight_start.observed,
      "frames found at the start of the measurement in the RX FIFO, the RX ring (written, not given back) and "
      "the socket queue",
      "count");
    v("flight.observed_end", m_flight_end.observed, "the same places at the end", "count");
    if (m_faulted)
        return;
    v("netdev.rx_packets", m_final.rx_packets - m_snap.rx_packets, "net_device rx_packets", "count");
    v("netdev.rx_dropped", m_final.rx_dropped - m_snap.rx_dropped, "net_device rx_dropped", "count");
    v("netdev.rx_errors", m_final.rx_errors - m_snap.rx_errors, "net_device rx_errors", "count");
    v("netdev.rx_fifo_errors", m_final.rx_fifo_errors - m_snap.rx_fifo_errors, "net_device rx_fifo_errors", "count");
    for (size_t i = 0; i < m_final.ethtool.size(); i++) {
        uint64_t base = 0;
        for (const auto& b : m_snap.ethtool)
            if (b.first == m_final.ethtool[i].first)
                base = b.second;
        v("ethtool." + m_final.ethtool[i].first, m_final.ethtool[i].second - base, "ethtool -S counter", "count");
    }
}

std::vector<stat_entry> stats_collect(const soc& s)
{
    std::vector<stat_entry> v;
    s.visit_stats([&](const std::string& name, uint64_t x, const char* desc, const char* unit) {
        v.push_back({name, x, desc ? desc : "", unit ? unit : ""});
    });
    return v;
}

} // namespace sim
