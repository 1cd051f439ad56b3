#include "sim/config/registry.h"
#include <cstring>
#include "drivers/khost/driver_build.h"
#include "drivers/khost/kernel_tree.h"
#include <pcap/pcap.h>

namespace sim {

using models::param_desc;
using models::param_table;

static const param_desc k_scenario_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(scenario_config, __VA_ARGS__)
#include "sim/config/scenario_params.def"
#undef P
};
const param_table scenario_param_table = {"scenario", "What the run is: identity, seed and simulated time",
                                          k_scenario_rows, sizeof k_scenario_rows / sizeof k_scenario_rows[0]};

static const param_desc k_output_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(output_config, __VA_ARGS__)
#include "sim/config/output_params.def"
#undef P
};
const param_table output_param_table = {"output", "what a run records besides its statistics: the time series",
                                        k_output_rows, sizeof k_output_rows / sizeof k_output_rows[0]};

static const param_desc k_board_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(board_config, __VA_ARGS__)
#include "sim/config/board_params.def"
#undef P
};
const param_table board_param_table = {"soc", "The board: its Ethernet address and interface settings", k_board_rows,
                                       sizeof k_board_rows / sizeof k_board_rows[0]};

namespace {

const string_key k_scenario_strings[] = {
    {"id", str_kind::name, "default", "Scenario name; results go to <out>/<id>/. Letters, digits, '.', '_' and '-'",
     [](soc_config& c) { return &c.scenario.id; }, false},
    {"description", str_kind::text, "", "One line saying what the scenario shows",
     [](soc_config& c) { return &c.scenario.description; }, false},
    {"include", str_kind::path_list, "",
     "Files read before this one (';'-separated, relative to this file); this file's keys override "
     "theirs. Resolved files contain the result, not the include",
     nullptr, true},
    {"soc", str_kind::name, "",
     "SoC profile read before this file's includes and keys, which override it: scenarios/profiles/<soc>.ini "
     "of fecsim's data directory (imx6q, imx6ul, vf610, imx8mm, imx8mp, imx8ulp, imx93). -o and --vary "
     "scenario.soc=NAME replace it (a sweep over SoCs); the profile then read must be the one soc.profile "
     "names at the end",
     nullptr, false},
};

const string_key k_soc_strings[] = {
    {"profile", str_kind::name, "imx6q",
     "Name of the SoC profile the scenario describes (recorded in the results; the parameters themselves "
     "are the groups below, usually included from scenarios/profiles/<name>.ini)",
     nullptr, false},
};

const string_key k_driver_strings[] = {
    {"source", str_kind::path, "",
     "Driver source directory (.c and .h files) to build and run (empty: fecsim's own drivers/fec)",
     [](soc_config& c) { return &c.driver.source; }, false, true},
    {"tree", str_kind::path, "",
     "Kernel source tree to take the driver from, unchanged: its root directory, or a source tarball "
     "(.tar.xz, .tar.gz, .tar: the driver's files are extracted into the build cache); its Makefile's "
     "VERSION.PATCHLEVEL picks the shim's API level (6.1 or 6.12). With driver.name, instead of "
     "driver.source (docs/real-drivers.md)",
     [](soc_config& c) { return &c.driver.tree; }, false, false, true},
    {"name", str_kind::text, "",
     "The driver to build from driver.tree; fecsim knows which files make it (fec: "
     "drivers/net/ethernet/freescale/fec_main.c, fec_ptp.c, fec.h)",
     [](soc_config& c) { return &c.driver.name; }, false},
    {"dts", str_kind::path, "",
     "Device tree source of the board for a kernel tree's driver (compiled with dtc; the ENET node, "
     "fsl,imx6q-fec or another compatible of the driver's match table, at the model's address and "
     "interrupt; scenarios/profiles/<soc>.dts for other SoCs); empty: scenarios/profiles/imx6q.dts",
     [](soc_config& c) { return &c.driver.dts; }, false},
    {"defines", str_kind::text, "",
     "Object-like macros of the driver's own files given new values after the patches, "
     "NAME=VALUE;NAME=VALUE (e.g. TX_RING_SIZE=512): each NAME must be #defined exactly once, on one "
     "line, in the driver's .c/.h files; the run's summary names the line and the old value. A "
     "generated patch: sweep it with --vary driver.defines=TX_RING_SIZE=1024,TX_RING_SIZE=512",
     [](soc_config& c) { return &c.driver.defines; }, false},
    {"patches", str_kind::path_list, "",
     "Unified diffs (git format-patch, git diff, diff -u) applied in order to a copy of the driver "
     "sources before building, each with the one strip level -p0..-p4 that applies (';'-separated; "
     "--patch appends); one that does not apply, or applies at two levels, stops the run (exit 2)",
     nullptr, false},
};

const string_key k_traffic_strings[] = {
    {"pcap_file", str_kind::path, "", "Capture to replay for mode=pcap (Ethernet frames without FCS)",
     [](soc_config& c) { return &c.traffic.pcap_file; }, false},
    {"size_list", str_kind::text, "",
     "Frame sizes incl. FCS for size_mode=list, cycled, comma-separated (e.g. 64,128,1518)", nullptr, false},
};

template <typename T, size_t N>
constexpr size_t count_of(const T (&)[N])
{
    return N;
}

bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

std::string cache_geometry(const char* name, uint64_t size, unsigned assoc, unsigned line)
{
    if (!pow2(line))
        return std::string(name) + ".line must be a power of two";
    const uint64_t way_bytes = (uint64_t)assoc * line;
    if (size % way_bytes)
        return std::string(name) + ".size must be a multiple of " + name + ".assoc * " + name + ".line";
    if (!pow2(size / way_bytes))
        return std::string("the number of sets (") + name + ".size / (" + name + ".assoc * " + name +
               ".line)) must be a power of two";
    return "";
}

} // namespace

const std::vector<group_entry>& registry_groups()
{
    // Order: [scenario] first, then the SoC from the cores outwards, then software.
    static const std::vector<group_entry> groups = {
        {"scenario", scenario_param_table.title,
         "sim/soc.{h,cc} (seed, warm-up, duration and quantum of the run); include= is read by "
         "sim/config/scenario_read.cc",
         &scenario_param_table,
         [](soc_config& c) -> void* { return &c.scenario; }, k_scenario_strings, count_of(k_scenario_strings),
         "Every scenario file should open with this group. include= is only read from files, not from -o."},
        {"soc", "The SoC and board the scenario describes",
         "sim/config/registry.cc (profile: recorded with the results; the SoC itself is the groups below); "
         "mac_address and promiscuous: sim/soc.cc gives them to drivers/khost/boot.{h,cc} (as ip link "
         "does), the driver programs the MAC",
         &board_param_table, [](soc_config& c) -> void* { return &c.board; }, k_soc_strings,
         count_of(k_soc_strings),
         "The board's MAC address is what the MAC's address filter passes (with the multicast hash and "
         "broadcast) unless promiscuous; [traffic] dst_mac is what the link partner sends to."},
        {"cpu", models::cpu::cpu_param_table.title,
         "models/cpu/core.{h,cc}",
         &models::cpu::cpu_param_table,
         [](soc_config& c) -> void* { return &c.cpu; }, nullptr, 0,
         "cores sets the number of L1 caches; clock is also the clock of the L1s and the memory hog, and "
         "the clock of \"N cycles\" in [scenario] times. The Linux policy the cores carry out (softirq "
         "limits, task slice, scheduler costs, IRQ affinity) is in [kernel]."},
        {"l1", models::cache::l1_param_table.title,
         "models/cache/l1.{h,cc}",
         &models::cache::l1_param_table,
         [](soc_config& c) -> void* { return &c.mem.l1; }, nullptr, 0,
         "The L1 runs at [cpu] clock. seed is currently replaced by [scenario] seed at elaboration "
         "(sim/soc.cc), so setting it has no effect."},
        {"l2", models::cache::l2_param_table.title,
         "models/cache/pl310.{h,cc}",
         &models::cache::l2_param_table,
         [](soc_config& c) -> void* { return &c.mem.l2; }, nullptr, 0,
         "seed is currently replaced by [scenario] seed at elaboration (sim/soc.cc), so setting it has no "
         "effect."},
        {"noc", models::mem::noc_param_table.title,
         "models/mem/noc.{h,cc} (the NIC-301 AXI fabric)",
         &models::mem::noc_param_table,
         [](soc_config& c) -> void* { return &c.mem.noc; }, nullptr, 0, nullptr},
        {"dram", models::mem::dram_param_table.title,
         "models/mem/dram.{h,cc}",
         &models::mem::dram_param_table,
         [](soc_config& c) -> void* { return &c.mem.dram; }, nullptr, 0, nullptr},
        {"stress", khost::stress_param_table.title,
         "drivers/khost/stress.{h,cc} (a worker sharing a core with network work: drivers/khost/hog_task.{h,cc})",
         &khost::stress_param_table,
         [](soc_config& c) -> void* { return &c.stress; }, nullptr, 0,
         "The workers run at [cpu] clock and allocate past dram.backed."},
        {"enet", models::enet::enet_param_table.title,
         "models/enet/enet.{h,cc}",
         &models::enet::enet_param_table,
         [](soc_config& c) -> void* { return &c.enet; }, nullptr, 0,
         "The MAC at 0x02188000, interrupt 150, on the fabric beside the PL310. link_speed must equal "
         "[traffic] link_speed; the driver is told it as its link_speed module parameter. Registers, "
         "descriptors, FIFO and uDMA behaviour: docs/models/enet-design.md."},
        {"traffic", models::traffic::traffic_param_table.title,
         "models/traffic/traffic.{h,cc} (traffic_source)",
         &models::traffic::traffic_param_table,
         [](soc_config& c) -> void* { return &c.traffic; }, k_traffic_strings, count_of(k_traffic_strings),
         "The link partner sending to the MAC. seed is replaced by [scenario] seed at elaboration."},
        {"kernel", khost::kernel_param_table.title,
         "drivers/khost/khost.{h,cc}; the scheduling keys are carried out by models/cpu/core.{h,cc}, the "
         "budgets by net_rx_action in drivers/shim/net.c",
         &khost::kernel_param_table,
         [](soc_config& c) -> void* { return &c.kernel; }, nullptr, 0,
         "Every core carries out softirq_max_restart, softirq_max_time, ksoftirqd_defers, sched_slice, "
         "ctx_switch_cycles and wakeup_cycles (given to it at elaboration, in core cycles of [cpu] clock); "
         "netdev_budget and netdev_budget_time bound net_rx_action; irq_core is the ENET interrupt's "
         "affinity. These were [cpu] keys: the old names are refused with the new one. background (on in "
         "the i.MX6Q profile) gives every core the kernel's background activity, carried out by the core: "
         "the scheduler tick at hz while the core is not idle (NO_HZ_IDLE: an idle core's tick is stopped "
         "and restarts at the next jiffy boundary after it wakes; ticks are aligned on all cores), a "
         "hardirq of irq_entry_cycles + tick_cycles that raises TIMER_SOFTIRQ every tick and RCU_SOFTIRQ "
         "every rcu_softirq_interval-th, which run where NET_RX would (irq exit, the next round of an "
         "interrupted __do_softirq, or ksoftirqd); and, with bg_irq_rate, a periodic interrupt on "
         "bg_irq_core that also wakes it from idle. Like the ENET interrupt they are taken at the next "
         "preemption point, each one due taken there; their time is irq and softirq time, counted per "
         "core in ticks, timer_softirqs, rcu_softirqs, bg_irqs and cat_background, and mpstat's view "
         "(without irq_time_accounting) books a tick's hardirq time to the context that follows it. A core "
         "whose only work is a stress -m worker of its own (a thread beside the core's) takes no ticks. "
         "Sources of the costs: docs/sources.md §11."},
        {"driver", khost::driver_param_table.title,
         "drivers/khost/driver_build.{h,cc} (build, patches) and drivers/khost/boot.{h,cc} (load, module "
         "parameters, probe, tunables); our driver is drivers/fec; a kernel tree's driver: "
         "drivers/khost/kernel_tree.{h,cc} and the shim's 6.x level drivers/shim/v6",
         &khost::driver_param_table,
         [](soc_config& c) -> void* { return &c.driver; }, k_driver_strings, count_of(k_driver_strings),
         "copybreak is set after probe like ethtool --set-tunable rx-copybreak; the ring sizes and the link "
         "speed are passed as module parameters (a driver without them keeps its own values). A driver of a "
         "kernel tree (tree=, name=) is compiled unchanged and keeps its own module parameters' defaults: "
         "copybreak, rx_ring_size and tx_ring_size set for it to another value than their default are "
         "refused where they are set (it ignores them); docs/real-drivers.md says what runs."},
        {"stack", khost::stack_param_table.title,
         "drivers/shim/udp_stack.h (the stack as a cost model, for fecsim's own driver and a kernel tree's), "
         "set up by drivers/khost/boot.{h,cc}",
         &khost::stack_param_table,
         [](soc_config& c) -> void* { return &c.stack; }, nullptr, 0, nullptr},
        {"app", khost::app_param_table.title,
         "drivers/khost/app.{h,cc}",
         &khost::app_param_table,
         [](soc_config& c) -> void* { return &c.app; }, nullptr, 0, nullptr},
        {"tx", khost::tx_param_table.title,
         "drivers/khost/tx.{h,cc}",
         &khost::tx_param_table,
         [](soc_config& c) -> void* { return &c.tx; }, nullptr, 0,
         "Frames go from the board (soc.mac_address) to the link partner, whose sink verifies them "
         "(summary: tx.sent, tx.on_wire, tx.verified). With a kernel tree's driver every frame goes through "
         "the board's qdisc ([qdisc]); udp and the open-loop tcp wait only for the socket's send buffer, sndbuf "
         "(0: none), and a datagram the qdisc drops is tx.refused. With fecsim's own driver a datagram meeting "
         "a stopped queue is refused. tcp_cubic goes through the board's stack and qdisc (drivers/khost/board_stack.{h,cc}, [qdisc]) to the "
         "link partner's receiver ([peer]); tx.attempts, sent and bytes then count its writes of write_bytes, "
         "and sndbuf (0: tcp_wmem's 4 MiB ceiling) bounds the bytes written and not yet acknowledged. "
         "docs/socs.md."},
        {"qdisc", khost::qdisc_param_table.title,
         "models/net/qdisc.{h,cc}, used by drivers/khost/board_stack.{h,cc}",
         &khost::qdisc_param_table,
         [](soc_config& c) -> void* { return &c.qdisc; }, nullptr, 0,
         "The root qdisc of a kernel tree's driver's interface: everything the board sends goes through it ([tx] "
         "datagrams and streams, echo replies). Sources: docs/sources.md §15."},
        {"peer", models::traffic::peer_param_table.title,
         "models/traffic/peer.{h,cc}",
         &models::traffic::peer_param_table,
         [](soc_config& c) -> void* { return &c.peer; }, nullptr, 0,
         "Present when tx.protocol=tcp_cubic (its receiver acknowledges the board's stream) or ping is on; its "
         "frames share the link with [traffic]'s (peer.acks, peer.ping_*; traffic.injected). Needs driver.tree."},
        {"output", sim::output_param_table.title,
         "sim/soc.{h,cc} (the sampler) and sim/results/stats_files.{h,cc} (series.csv)",
         &sim::output_param_table,
         [](soc_config& c) -> void* { return &c.output; }, nullptr, 0,
         "The series covers warm-up and measurement. Columns: time_s; rx_fifo_bytes (RX FIFO level); "
         "rx_bds_ready (descriptors the MAC filled and the driver has not taken); irq_line (the ENET "
         "interrupt output); napi_polling (the RX core runs the NET_RX softirq at that instant); mac_drops, "
         "socket_drops, delivered (cumulative from time 0); cpuN_busy_pct (core N's busy share of the "
         "interval, every context but idle, booked as it elapses: 0-100 at any interval)."},
    };
    return groups;
}

const std::vector<stats_component>& registry_stats_components()
{
    static const std::vector<stats_component> components = {
        {"sink", "models/traffic/traffic.{h,cc} (traffic_sink, the link partner's receiver)"},
        {"coherence", "drivers/khost/coherence.{h,cc}"},
        {"flight", "sim/soc.{h,cc} (soc::flight: the frame balance), with models/enet/enet.{h,cc} (rx_fifo_frames, "
                   "rx_ring_frames) and drivers/khost/boot.{h,cc} (socket_queued); docs/user-guide.md says how "
                   "the counters balance"},
        {"snmp", "drivers/shim/net.c (the stack's counters), read by drivers/khost/boot.{h,cc}"},
        {"softnet", "drivers/shim/net.c (net_rx_action), read by drivers/khost/boot.{h,cc}"},
        {"napi", "drivers/shim/net.c (NAPI polling), read by drivers/khost/boot.{h,cc}"},
        {"netdev", "the driver's net_device counters (drivers/fec), through drivers/shim/platform.c and "
                   "drivers/khost/boot.{h,cc}"},
        {"ethtool", "the driver's ethtool -S counters (drivers/fec), through drivers/shim/platform.c and "
                    "drivers/khost/boot.{h,cc}"},
    };
    return components;
}

const char* registry_implemented_in(const std::string& name)
{
    if (const group_entry* g = registry_find(name))
        return g->implemented_in;
    for (const auto& c : registry_stats_components())
        if (name == c.name)
            return c.implemented_in;
    size_t n = name.size();
    while (n > 0 && name[n - 1] >= '0' && name[n - 1] <= '9')
        n--;
    if (n > 0 && n < name.size())
        return registry_implemented_in(name.substr(0, n));
    return nullptr;
}

const group_entry* registry_find(const std::string& group)
{
    for (const auto& g : registry_groups())
        if (group == g.name)
            return &g;
    return nullptr;
}

const string_key* group_entry::find_string(const std::string& key) const
{
    for (size_t i = 0; i < n_strings; i++)
        if (key == strings[i].key)
            return &strings[i];
    return nullptr;
}

const param_desc* group_entry::find_param(const std::string& key) const
{
    return table ? table->find(key.c_str()) : nullptr;
}

std::vector<std::string> group_entry::keys(bool with_load_only) const
{
    std::vector<std::string> k;
    if (table)
        for (const auto& d : *table)
            k.push_back(d.key);
    for (size_t i = 0; i < n_strings; i++)
        if (with_load_only || !strings[i].load_only)
            k.push_back(strings[i].key);
    return k;
}

const std::vector<moved_key>& registry_moved_keys()
{
    // Linux policy that was in [cpu] before the kernel host had its own group.
    static const std::vector<moved_key> moved = {
        {"cpu.irq_core", "kernel.irq_core"},
        {"cpu.hz", "kernel.hz"},
        {"cpu.softirq_max_restart", "kernel.softirq_max_restart"},
        {"cpu.softirq_max_time", "kernel.softirq_max_time"},
        {"cpu.ksoftirqd_defers", "kernel.ksoftirqd_defers"},
        {"cpu.netdev_budget", "kernel.netdev_budget"},
        {"cpu.netdev_budget_time", "kernel.netdev_budget_time"},
        {"cpu.sched_slice", "kernel.sched_slice"},
        {"cpu.ctx_switch_cycles", "kernel.ctx_switch_cycles"},
        {"cpu.wakeup_cycles", "kernel.wakeup_cycles"},
    };
    return moved;
}

const moved_key* registry_moved(const std::string& group, const std::string& key)
{
    const std::string name = group + "." + key;
    for (const auto& m : registry_moved_keys())
        if (name == m.from)
            return &m;
    return nullptr;
}

std::string moved_key_message(const moved_key& m)
{
    const std::string to = m.to;
    return std::string(m.from) + " moved to [" + to.substr(0, to.find('.')) + "]: write " + to;
}

const std::vector<inert_key>& registry_inert_keys()
{
    static const std::vector<inert_key> keys = {
        {"driver.copybreak",
         [](const soc_config& c) -> std::string {
             return c.driver.tree.empty() || c.driver.copybreak == khost::driver_config{}.copybreak
                        ? ""
                        : "a kernel tree's fec driver ignores it: the 6.12 driver has no rx-copybreak (every frame "
                          "goes up in its page-pool page), the 6.1 driver accepts the ethtool tunable but its "
                          "receive path never copies (fec_enet_copybreak has no caller); docs/real-drivers.md";
         }},
        {"driver.rx_ring_size",
         [](const soc_config& c) -> std::string {
             return c.driver.tree.empty() || c.driver.rx_ring_size == khost::driver_config{}.rx_ring_size
                        ? ""
                        : "a kernel tree's fec driver has a fixed RX ring (RX_RING_SIZE in fec.h: 256 buffers); it "
                          "is a module parameter of fecsim's own driver only";
         }},
        {"driver.defines",
         [](const soc_config& c) -> std::string {
             try {
                 khost::parse_driver_defines(c.driver.defines);
             } catch (const std::invalid_argument& e) {
                 return e.what();
             }
             return "";
         }},
        {"driver.tx_ring_size",
         [](const soc_config& c) -> std::string {
             return c.driver.tree.empty() || c.driver.tx_ring_size == khost::driver_config{}.tx_ring_size
                        ? ""
                        : "a kernel tree's fec driver has a fixed TX ring (TX_RING_SIZE in fec.h: 512 descriptors at "
                          "6.1, 1024 at 6.12: driver.defines=TX_RING_SIZE=N changes it); it is a module parameter of fecsim's "
                          "own driver only";
         }},
        {"soc.mac_address",
         [](const soc_config& c) -> std::string {
             return c.driver.tree.empty() || c.board.mac_address == board_config{}.mac_address
                        ? ""
                        : "a kernel tree's driver takes its address from the device tree (local-mac-address of "
                          "the ENET node in driver.dts); fecsim does not set it for that driver";
         }},
        {"soc.promiscuous",
         [](const soc_config& c) -> std::string {
             return c.driver.tree.empty() || c.board.promiscuous == board_config{}.promiscuous
                        ? ""
                        : "promiscuous mode (IFF_PROMISC, ndo_set_rx_mode) is set for fecsim's own driver only";
         }},
        {"app.join_group",
         [](const soc_config& c) -> std::string {
             return c.driver.tree.empty() || c.app.join_group == khost::app_config{}.join_group
                        ? ""
                        : "the socket's multicast join (dev_mc_add, ndo_set_rx_mode) is made for fecsim's own "
                          "driver only";
         }},
    };
    return keys;
}

const std::vector<config_rule>& registry_rules()
{
    static const std::vector<config_rule> rules = {
        {"traffic.mode traffic.pcap_file",
         [](const soc_config& c) -> std::string {
             if (c.traffic.mode != models::traffic::MODE_PCAP)
                 return "";
             if (c.traffic.pcap_file.empty())
                 return "mode=pcap needs traffic.pcap_file (a capture of Ethernet frames, as tcpdump -w writes)";
             char err[PCAP_ERRBUF_SIZE];
             pcap_t* p = pcap_open_offline(c.traffic.pcap_file.c_str(), err);
             if (!p)
                 return "traffic.pcap_file is not a pcap or pcapng capture (libpcap: " + std::string(err) + ")";
             const int link = pcap_datalink(p);
             pcap_close(p);
             if (link != DLT_EN10MB)
                 return "traffic.pcap_file does not hold Ethernet frames (link type " + std::to_string(link) +
                        ", not DLT_EN10MB)";
             return "";
         }},
        {"soc.mac_address",
         [](const soc_config& c) -> std::string {
             const uint64_t a = c.board.mac_address;
             return a && !(a >> 40 & 1) ? "" : "soc.mac_address must be a unicast address (not zero, first byte even)";
         }},
        {"enet.link_speed traffic.link_speed",
         [](const soc_config& c) -> std::string {
             return c.enet.link_speed == c.traffic.link_speed ? "" : "the MAC and its link partner must use the same link speed";
         }},
        {"kernel.irq_core app.core cpu.cores",
         [](const soc_config& c) -> std::string {
             return c.kernel.irq_core < c.cpu.cores && c.app.core < c.cpu.cores ? "" : "kernel.irq_core and app.core must be cores that exist";
         }},
        {"tx.core cpu.cores tx.enabled",
         [](const soc_config& c) -> std::string {
             return !c.tx.enabled || c.tx.core < c.cpu.cores ? "" : "tx.core must be a core that exists";
         }},
        {"kernel.bg_irq_core cpu.cores kernel.background kernel.bg_irq_rate",
         [](const soc_config& c) -> std::string {
             return !c.kernel.background || !c.kernel.bg_irq_rate || c.kernel.bg_irq_core < c.cpu.cores
                        ? ""
                        : "kernel.bg_irq_core must be a core that exists";
         }},
        {"app.join_group",
         [](const soc_config& c) -> std::string {
             return !c.app.join_group || (c.app.join_group >> 28) == 0xE
                        ? ""
                        : "app.join_group must be an IPv4 multicast address (224.0.0.0/4), or 0.0.0.0 for none";
         }},
        {"peer.tcp_send app.enabled",
         [](const soc_config& c) -> std::string {
             return !c.peer.tcp_send || c.app.enabled ? ""
                                                      : "peer.tcp_send needs the board's application (app.enabled=true): "
                                                        "it reads the stream (iperf3 -s)";
         }},
        {"tx.protocol tx.head_bytes tx.sndbuf tx.enabled driver.tree",
         [](const soc_config& c) -> std::string {
             if (!c.tx.enabled || !c.driver.tree.empty())
                 return "";
             // tcp_cubic: the rule of the board's TCP endpoints below says it.
             const char* k = c.tx.protocol == khost::TX_TCP_CUBIC ? nullptr
                             : c.tx.protocol == khost::TX_TCP     ? "tx.protocol=tcp"
                             : c.tx.head_bytes                    ? "tx.head_bytes"
                             : c.tx.sndbuf                        ? "tx.sndbuf"
                                                                  : nullptr;
             return k ? std::string(k) + " needs a kernel tree's driver (driver.tree): fecsim's own driver's "
                                         "transmit path takes linear UDP datagrams"
                      : "";
         }},
        {"traffic.size_min traffic.size_max traffic.size_mode",
         [](const soc_config& c) -> std::string {
             return c.traffic.size_mode != models::traffic::SIZE_UNIFORM || c.traffic.size_min <= c.traffic.size_max
                        ? ""
                        : "traffic.size_min must not exceed traffic.size_max";
         }},
        {"enet.rx_fifo_bytes enet.burst_bytes enet.bus_bytes",
         [](const soc_config& c) -> std::string {
             const uint32_t w = c.enet.bus_bytes;
             return w && c.enet.rx_fifo_bytes % w == 0 && c.enet.burst_bytes % w == 0
                        ? ""
                        : "enet.rx_fifo_bytes and enet.burst_bytes must be multiples of enet.bus_bytes";
         }},
        {"tx.protocol tx.enabled peer.ping peer.tcp_send driver.tree",
         [](const soc_config& c) -> std::string {
             const bool stream = c.tx.enabled && c.tx.protocol == khost::TX_TCP_CUBIC;
             if (!(stream || c.peer.ping || c.peer.tcp_send) || !c.driver.tree.empty())
                 return "";
             return std::string(stream ? "tx.protocol=tcp_cubic" : c.peer.ping ? "peer.ping" : "peer.tcp_send") +
                    " needs a kernel tree's driver (driver.tree): the board's TCP and ICMP endpoints and its qdisc "
                    "sit on the 6.x shim's transmit path";
         }},
        {"traffic.size_list traffic.size_mode",
         [](const soc_config& c) -> std::string {
             if (c.traffic.size_mode != models::traffic::SIZE_LIST)
                 return "";
             if (c.traffic.size_list.empty())
                 return "size_mode=list needs traffic.size_list (sizes incl. FCS, 64..9600)";
             for (uint32_t v : c.traffic.size_list)
                 if (v < 64 || v > 9600)
                     return "traffic.size_list sizes must be 64..9600 (incl. FCS)";
             return "";
         }},
        {"l1.size l1.assoc l1.line",
         [](const soc_config& c) {
             return cache_geometry("l1", c.mem.l1.size_bytes, c.mem.l1.assoc, c.mem.l1.line_bytes);
         }},
        {"l2.size l2.assoc l2.line",
         [](const soc_config& c) {
             return cache_geometry("l2", c.mem.l2.size_bytes, c.mem.l2.assoc, c.mem.l2.line_bytes);
         }},
        {"l2.kind l2.line l2.hit_cycles l2.maint_line_cycles",
         [](const soc_config& c) -> std::string {
             // Each kind's sourced ranges (docs/sources.md §9 for the PL310, §14).
             const auto& l2 = c.mem.l2;
             if (l2.kind == models::cache::l2_kind::pl310) {
                 if (l2.line_bytes != 32)
                     return "a PL310 (l2.kind=pl310) has 32-B lines only";
                 if (l2.hit_cycles < 20 || l2.hit_cycles > 37)
                     return "l2.hit_cycles of a PL310 must be 20 .. 37 (docs/sources.md §9)";
                 if (l2.maint_line_cycles < 40)
                     return "l2.maint_line_cycles of a PL310 must be 40 .. 120 (docs/sources.md §9)";
                 return "";
             }
             if (l2.hit_cycles > 40 || l2.maint_line_cycles > 40)
                 return "an integrated L2 takes l2.hit_cycles 10 .. 40 and l2.maint_line_cycles 4 .. 40 "
                        "(docs/sources.md §14)";
             return "";
         }},
        {"kernel.arch l2.kind",
         [](const soc_config& c) -> std::string {
             return c.kernel.arch != khost::kernel_arch::arm64 || c.mem.l2.kind == models::cache::l2_kind::integrated
                        ? ""
                        : "arm64 Linux has no outer-cache code: kernel.arch=arm64 needs l2.kind=integrated";
         }},
        {"kernel.page_frag_bytes",
         [](const soc_config& c) -> std::string {
             const uint64_t b = c.kernel.page_frag_bytes;
             return !b || (b >= 4096 && pow2(b)) ? "" : "kernel.page_frag_bytes must be 0 or a power of two of at least 4KiB";
         }},
        {"driver.tree driver.source",
         [](const soc_config& c) -> std::string {
             return c.driver.tree.empty() || c.driver.source.empty()
                        ? ""
                        : "driver.tree and driver.source both name the driver: set one of them";
         }},
        {"driver.tree",
         [](const soc_config& c) -> std::string {
             return c.driver.tree.empty() ? "" : khost::kernel_tree_problem(c.driver.tree, "");
         }},
        {"driver.name driver.tree",
         [](const soc_config& c) -> std::string {
             const auto& d = c.driver;
             if (d.tree.empty())
                 return d.name.empty() ? "" : "driver.name names a driver of a kernel tree: set driver.tree too";
             if (!khost::kernel_tree_problem(d.tree, "").empty())
                 return "";  // the tree's own rule says why
             if (d.name.empty())
                 return "driver.tree needs driver.name, the driver to build from it (known drivers: fec)";
             return khost::kernel_tree_problem(d.tree, d.name);
         }},
        {"enet.enhanced_bd driver.tree driver.source",
         [](const soc_config& c) -> std::string {
             return c.enet.enhanced_bd || !c.driver.tree.empty() || !c.driver.source.empty()
                        ? ""
                        : "fecsim's own driver (drivers/fec) uses enhanced descriptors: with enet.enhanced_bd=false "
                          "(legacy descriptors, as on Vybrid) run a kernel tree's driver (driver.tree)";
         }},
        {"dram.backed dram.size",
         [](const soc_config& c) -> std::string {
             return c.mem.dram.backed <= c.mem.dram.size ? "" : "dram.backed must not exceed dram.size";
         }},
        {"stress.core stress.workers cpu.cores stress.enabled",
         [](const soc_config& c) -> std::string {
             if (c.stress.enabled && c.stress.core + c.stress.workers > c.cpu.cores)
                 return "the memory hog's workers run on cores stress.core .. stress.core + stress.workers - 1, "
                        "which must exist (cpu.cores)";
             return "";
         }},
        {"stress.workers stress.vm_bytes dram.size dram.backed stress.enabled",
         [](const soc_config& c) -> std::string {
             const auto& s = c.stress;
             const uint64_t need = c.mem.dram.backed + (uint64_t)s.workers * ((s.vm_bytes + 4095) / 4096 * 4096);
             if (s.enabled && need > c.mem.dram.size)
                 return "stress.workers * stress.vm_bytes must fit in dram.size past dram.backed";
             return "";
         }},
    };
    return rules;
}

} // namespace sim
