#include "drivers/khost/boot.h"
#include "common/log.h"
#include "common/ticks.h"
#include "drivers/khost/driver_build.h"
#include "drivers/shim/shim.h"
#include "drivers/shim/v6/fecsim_v6.h"
#include <dlfcn.h>

namespace khost {

using namespace models;

static const param_desc k_stack_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(stack_config, __VA_ARGS__)
#include "drivers/khost/stack_params.def"
#undef P
};
const param_table stack_param_table = {"stack", "network stack above the driver as a cost model, UDP socket",
                                       k_stack_rows, sizeof k_stack_rows / sizeof k_stack_rows[0]};

static const param_desc k_driver_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(driver_config, __VA_ARGS__)
#include "drivers/khost/driver_params.def"
#undef P
};
const param_table driver_param_table = {"driver", "the driver under test: copybreak and ring sizes",
                                        k_driver_rows, sizeof k_driver_rows / sizeof k_driver_rows[0]};

static void* v6_symbol(void* handle, const char* name)
{
    void* f = dlsym(handle, name);
    if (!f)
        throw driver_error(std::string("the tree driver's build has no ") + name + " (drivers/shim/v6)");
    return f;
}

// A kernel tree's driver: the 6.x level's counters (its NAPI and the sink
// above it) stand for the stack's; null for fecsim's own driver.
static fecsim_v6_net_stats* g_v6_stats = nullptr;

// The board's device tree blob of a tree driver's run (driver_setup compiles it).
static std::string g_dtb;

void* driver_setup(const driver_config& d, double link_speed_bps)
{
    driver_build_config b;
    b.source_dir = d.source;
    b.tree = d.tree;
    b.tree_driver = d.name;
    b.patches = d.patches;
    void* handle = driver_load(b);  // throws driver_error; registers the driver with the shim
    if (!d.tree.empty()) {
        // a tree's driver keeps its own module parameters' defaults; its board is a device tree
        g_dtb = compile_device_tree(d.dts.empty() ? default_dts() : d.dts);
        g_v6_stats = (fecsim_v6_net_stats*)v6_symbol(handle, "fecsim_v6_net");
        return handle;
    }
    const std::pair<const char*, std::string> params[] = {
        {"rx_ring_size", std::to_string(d.rx_ring_size)},
        {"tx_ring_size", std::to_string(d.tx_ring_size)},
        {"link_speed", std::to_string((unsigned)(link_speed_bps / 1e6))},
    };
    for (const auto& p : params)
        if (shim_set_param(p.first, p.second.c_str()) == -22)
            throw driver_error(std::string("driver module parameter ") + p.first + " rejects " + p.second);
    return handle;
}

void stack_setup(const stack_config& s, uint32_t netdev_budget, uint64_t netdev_budget_ps)
{
    shim_net_config nc{};
    nc.stack_cycles = s.frame_cycles;
    nc.stack_byte_millicycles = s.byte_millicycles;
    nc.rcvbuf = s.rcvbuf;
    nc.recv_cycles = s.recv_cycles;
    nc.free_cycles = s.free_cycles;
    nc.alloc_cycles = s.alloc_cycles;
    nc.udp_port = s.udp_port;
    nc.netdev_budget = netdev_budget;
    nc.netdev_budget_ns = netdev_budget_ps / PS_PER_NS;
    nc.tx_cycles = 0;  // the sender charges its send path itself (tx.send_cycles)
    shim_net_configure(&nc);
}

void net_rx_softirq() { shim_net_rx_action(); }

// A kernel tree's driver: the shim's 6.x level inside its shared object
// runs the initcall, the probe of the device tree's ENET node and dev_open
// (drivers/shim/v6/fecsim_v6.h). The 5.4 runtime's net_device functions do
// not apply to it: it returns no net_device (its state: tree_driver_report).

static void* tree_driver_boot(void* handle, const board_device& dev)
{
    const std::string& dtb = g_dtb;
    auto boot = (int (*)(const fecsim_v6_board*))v6_symbol(handle, "fecsim_v6_boot");
    auto open = (int (*)(void))v6_symbol(handle, "fecsim_v6_open");
    const fecsim_v6_board b{dev.tree_id, dev.dev_name, dev.base, dev.size, dev.irq,
                            dtb.data(), (unsigned long)dtb.size(), "fsl,imx6q-fec"};
    int rc = boot(&b);
    if (rc)
        throw driver_error("driver probe failed: " + std::to_string(rc));
    rc = open();
    if (rc)
        throw driver_error("ndo_open failed: " + std::to_string(rc));
    return nullptr;
}

std::string tree_driver_report(void* handle)
{
    auto report = handle ? (int (*)(char*, int))dlsym(handle, "fecsim_v6_report") : nullptr;
    if (!report)
        return "";
    char buf[8192];
    report(buf, sizeof buf);
    return buf;
}

std::function<void()> net_rx_softirq_handler(const driver_config& d, void* handle)
{
    if (d.tree.empty())
        return net_rx_softirq;
    return (void (*)(void))v6_symbol(handle, "fecsim_v6_net_rx_action");
}

void* driver_boot(const driver_config& d, void* handle, const board_device& dev, uint32_t join_group)
{
    if (!d.tree.empty())
        return tree_driver_boot(handle, dev);
    int rc = shim_run_initcalls();
    if (rc)
        throw driver_error("driver init failed: " + std::to_string(rc));
    shim_board board{dev.compatible, dev.base, dev.size, dev.irq};
    rc = shim_probe(&board);
    if (rc)
        throw driver_error("driver probe failed: " + std::to_string(rc));
    void* ndev = shim_netdev();
    if (!ndev)
        throw driver_error("the driver registered no net_device");
    if ((rc = shim_set_rx_copybreak(ndev, d.copybreak)) != 0)
        sim_log(log_level::warn, "soc", "ethtool --set-tunable rx-copybreak %u: error %d", d.copybreak, rc);
    rc = shim_dev_open(ndev);
    if (rc)
        throw driver_error("ndo_open failed: " + std::to_string(rc));
    if (join_group && (rc = shim_ip_mc_join(join_group)) != 0)
        throw driver_error("joining multicast group failed: " + std::to_string(rc));
    return ndev;
}

void netdev_counters(void* ndev, uint64_t* rx_packets, uint64_t* rx_dropped, uint64_t* rx_errors,
                     uint64_t* rx_fifo_errors)
{
    shim_netdev_counters(ndev, rx_packets, rx_dropped, rx_errors, rx_fifo_errors);
}

netdev_snapshot netdev_snapshot_take(void* ndev)
{
    netdev_snapshot s;
    if (!ndev)
        return s;
    shim_netdev_counters(ndev, &s.rx_packets, &s.rx_dropped, &s.rx_errors, &s.rx_fifo_errors);
    char names[64][32];
    uint64_t vals[64];
    const int n = shim_ethtool_stats(ndev, names, vals, 64);
    for (int i = 0; i < n; i++)
        s.ethtool.emplace_back(names[i], vals[i]);
    return s;
}

net_counters net_counters_read()
{
    if (const fecsim_v6_net_stats* v = g_v6_stats)
        return net_counters{0, 0, 0, 0, 0, v->rx_frames, 0, v->napi_polls, v->napi_complete};
    const struct shim_net_stats* ns = shim_net_stats();
    return net_counters{ns->udp_in_datagrams, ns->udp_rcvbuf_errors, ns->udp_no_ports,  ns->ip_in_receives,
                        ns->ip_in_hdr_errors, ns->softnet_processed, ns->softnet_time_squeeze, ns->napi_polls,
                        ns->napi_complete};
}

void net_counters_reset()
{
    if (g_v6_stats)
        *g_v6_stats = fecsim_v6_net_stats{};
    else
        shim_net_reset_stats();
}

void net_counters_visit(const stat_visitor& v)
{
    const net_counters ns = net_counters_read();
    v("snmp.Udp.InDatagrams", ns.udp_in_datagrams, "UDP datagrams delivered to the socket reader", "count");
    v("snmp.Udp.RcvbufErrors", ns.udp_rcvbuf_errors, "UDP datagrams dropped: socket receive buffer full", "count");
    v("snmp.Udp.NoPorts", ns.udp_no_ports, "UDP datagrams to a port nobody listens on", "count");
    v("snmp.Ip.InReceives", ns.ip_in_receives, "IP datagrams received", "count");
    v("snmp.Ip.InHdrErrors", ns.ip_in_hdr_errors, "frames the stack could not parse as IPv4/UDP", "count");
    v("softnet.processed", ns.softnet_processed, "frames handed to the stack by NAPI", "count");
    v("softnet.time_squeeze", ns.softnet_time_squeeze, "net_rx_action runs ended by budget or time", "count");
    v("napi.polls", ns.napi_polls, "NAPI poll calls", "count");
    v("napi.completions", ns.napi_complete, "napi_complete_done calls", "count");
}

} // namespace khost
