#include "drivers/khost/boot.h"
#include <cstring>
#include <deque>
#include <memory>
#include "common/log.h"
#include "common/ticks.h"
#include "drivers/khost/driver_build.h"
#include "drivers/khost/tx.h"
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

// A kernel tree's driver: the 6.x level's network counters (NAPI, page
// pools) and its copy of the stack model (drivers/shim/udp_stack.h, the
// socket the application reads); all null for fecsim's own driver.
static fecsim_v6_net_stats* g_v6_stats = nullptr;
namespace {
struct v6_stack {
    void (*configure)(const shim_net_config*);
    const struct shim_net_stats* (*stats)();
    void (*reset)();
    int (*queued)();
    int (*gro_pending)();
    long (*recvmsg)(void*, size_t, uint64_t*);
    void (*netdev_counters)(unsigned long long*, unsigned long long*, unsigned long long*, unsigned long long*);
    void (*skb_copy)(const void*, void*, size_t);
    void (*skb_consume)(void*);
};
v6_stack g_v6{};
} // namespace

// The board's device tree blob of a tree driver's run (driver_setup compiles it).
static std::string g_dtb;

void* driver_setup(const driver_config& d, double link_speed_bps)
{
    driver_build_config b;
    b.source_dir = d.source;
    b.tree = d.tree;
    b.tree_driver = d.name;
    b.patches = d.patches;
    b.defines = parse_driver_defines(d.defines);  // checked by the loader
    void* handle = driver_load(b);  // throws driver_error; registers the driver with the shim
    if (!d.tree.empty()) {
        // a tree's driver keeps its own module parameters' defaults; its board is a device tree
        g_dtb = compile_device_tree(d.dts.empty() ? default_dts() : d.dts);
        g_v6_stats = (fecsim_v6_net_stats*)v6_symbol(handle, "fecsim_v6_net");
        g_v6.configure = (void (*)(const shim_net_config*))v6_symbol(handle, "fecsim_v6_stack_configure");
        g_v6.stats = (const struct shim_net_stats* (*)())v6_symbol(handle, "fecsim_v6_stack_stats");
        g_v6.reset = (void (*)())v6_symbol(handle, "fecsim_v6_stack_reset_stats");
        g_v6.queued = (int (*)())v6_symbol(handle, "fecsim_v6_udp_queued");
        g_v6.gro_pending = (int (*)())v6_symbol(handle, "fecsim_v6_gro_pending");
        g_v6.recvmsg = (long (*)(void*, size_t, uint64_t*))v6_symbol(handle, "fecsim_v6_udp_recvmsg");
        g_v6.netdev_counters = (decltype(g_v6.netdev_counters))v6_symbol(handle, "fecsim_v6_netdev_counters");
        g_v6.skb_copy = (decltype(g_v6.skb_copy))v6_symbol(handle, "fecsim_v6_skb_copy");
        g_v6.skb_consume = (decltype(g_v6.skb_consume))v6_symbol(handle, "fecsim_v6_skb_consume");
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
    nc.stack_meta_bytes = s.meta_bytes;
    nc.rcvbuf = s.rcvbuf;
    nc.recv_cycles = s.recv_cycles;
    nc.free_cycles = s.free_cycles;
    nc.alloc_cycles = s.alloc_cycles;
    nc.udp_port = s.udp_port;
    nc.netdev_budget = netdev_budget;
    nc.netdev_budget_ns = netdev_budget_ps / PS_PER_NS;
    nc.tx_cycles = 0;  // the sender charges its send path itself (tx.send_cycles)
    shim_net_configure(&nc);
    if (g_v6.configure)
        g_v6.configure(&nc);
}

int socket_queued() { return g_v6.queued ? g_v6.queued() : shim_udp_queued(); }

long socket_recvmsg(void* buf, size_t len, uint64_t* ready_ns)
{
    return g_v6.recvmsg ? g_v6.recvmsg(buf, len, ready_ns) : shim_udp_recvmsg(buf, len, ready_ns);
}

void net_rx_softirq() { shim_net_rx_action(); }

namespace {

std::unique_ptr<std::string> g_boot_failure;
std::deque<kernel_log_line> g_kernel_log;

// "-22 (EINVAL)"
std::string errno_text(int rc)
{
    const char* n = rc < 0 ? strerrorname_np(-rc) : nullptr;
    return std::to_string(rc) + (n ? std::string(" (") + n + ")" : "");
}

[[noreturn]] void boot_failed(const std::string& what, int rc)
{
    g_boot_failure.reset(new std::string(what + (rc ? ": " + errno_text(rc) : "")));
    throw driver_error(*g_boot_failure);
}

} // namespace

const std::string* boot_failure() { return g_boot_failure.get(); }

void kernel_log_add(int level, const char* line)
{
    if (g_kernel_log.size() == 256)
        g_kernel_log.pop_front();
    std::string t = line;
    while (!t.empty() && t.back() == '\n')
        t.pop_back();
    g_kernel_log.push_back({level, t});
}

std::vector<kernel_log_line> kernel_log_tail(size_t n)
{
    const size_t from = g_kernel_log.size() > n ? g_kernel_log.size() - n : 0;
    return std::vector<kernel_log_line>(g_kernel_log.begin() + (long)from, g_kernel_log.end());
}

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
        boot_failed("driver probe failed", rc);
    rc = open();
    if (rc)
        boot_failed("ndo_open failed", rc);
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

tx_v6_port tx_port(const driver_config& d, void* handle)
{
    tx_v6_port p;
    if (d.tree.empty()) {  // fecsim's own driver: the 5.4 shim's counters (drivers/shim/txq.c)
        p.stats = shim_txq_stats;
        p.reset = shim_txq_reset;
        return p;
    }
    p.xmit = (int (*)(const fecsim_v6_tx_req*))v6_symbol(handle, "fecsim_v6_xmit");
    p.set_wake = (void (*)(void (*)(void*), void*))v6_symbol(handle, "fecsim_v6_tx_set_wake");
    p.set_wmem = (void (*)(void (*)(void*, unsigned, long), void*))v6_symbol(handle, "fecsim_v6_tx_set_wmem");
    p.features = (unsigned (*)())v6_symbol(handle, "fecsim_v6_tx_features");
    p.stopped = (int (*)())v6_symbol(handle, "fecsim_v6_tx_stopped");
    p.stats = (const fecsim_v6_tx_stats* (*)())v6_symbol(handle, "fecsim_v6_tx_stats_read");
    p.reset = (void (*)())v6_symbol(handle, "fecsim_v6_tx_reset");
    return p;
}

std::function<void()> net_rx_softirq_handler(const driver_config& d, void* handle)
{
    if (d.tree.empty())
        return net_rx_softirq;
    return (void (*)(void))v6_symbol(handle, "fecsim_v6_net_rx_action");
}

void* driver_boot(const driver_config& d, void* handle, const board_device& dev, uint32_t join_group,
                  bool promiscuous)
{
    if (!d.tree.empty())
        return tree_driver_boot(handle, dev);
    int rc = shim_run_initcalls();
    if (rc)
        boot_failed("driver init failed", rc);
    shim_board board{dev.compatible, dev.base, dev.size, dev.irq};
    rc = shim_probe(&board);
    if (rc)
        boot_failed("driver probe failed", rc);
    void* ndev = shim_netdev();
    if (!ndev)
        boot_failed("the driver registered no net_device", 0);
    if (dev.mac_address != SHIM_PROBE_MAC) {  // ip link set eth0 address ... (the interface still down)
        uint8_t mac[6];
        for (int i = 0; i < 6; i++)
            mac[i] = (uint8_t)(dev.mac_address >> (8 * (5 - i)));
        if ((rc = shim_set_mac_address(ndev, mac)) != 0)
            boot_failed("setting the MAC address failed", rc);
    }
    if ((rc = shim_set_rx_copybreak(ndev, d.copybreak)) != 0)
        sim_log(log_level::warn, "soc", "ethtool --set-tunable rx-copybreak %u: error %d", d.copybreak, rc);
    rc = shim_dev_open(ndev);
    if (rc)
        boot_failed("ndo_open failed", rc);
    if (join_group && (rc = shim_ip_mc_join(join_group)) != 0)
        boot_failed("joining multicast group failed", rc);
    if (promiscuous && (rc = shim_set_promisc(ndev, 1)) != 0)
        boot_failed("setting promiscuous mode failed", rc);
    return ndev;
}

void netdev_counters(void* ndev, uint64_t* rx_packets, uint64_t* rx_dropped, uint64_t* rx_errors,
                     uint64_t* rx_fifo_errors)
{
    if (g_v6.netdev_counters) {
        unsigned long long p, d, e, f;
        g_v6.netdev_counters(&p, &d, &e, &f);
        *rx_packets = p, *rx_dropped = d, *rx_errors = e, *rx_fifo_errors = f;
        return;
    }
    shim_netdev_counters(ndev, rx_packets, rx_dropped, rx_errors, rx_fifo_errors);
}

netdev_snapshot netdev_snapshot_take(void* ndev)
{
    netdev_snapshot s;
    if (g_v6.netdev_counters) {  // a tree driver's interface (its ethtool -S: tree_driver_report)
        netdev_counters(ndev, &s.rx_packets, &s.rx_dropped, &s.rx_errors, &s.rx_fifo_errors);
        return s;
    }
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
    const struct shim_net_stats* ns = g_v6.stats ? g_v6.stats() : shim_net_stats();
    if (const fecsim_v6_net_stats* v = g_v6_stats)  // the tree driver's NAPI
        return net_counters{ns->udp_in_datagrams, ns->udp_rcvbuf_errors, ns->udp_no_ports,  ns->ip_in_receives,
                            ns->ip_in_hdr_errors, ns->softnet_processed, ns->softnet_time_squeeze, v->napi_polls,
                            v->napi_complete,     ns->rx_otherhost,         ns->udp_in_csum_errors,
                            ns->udp_in_errors,    ns->udp_short,            ns->ip_in_csum_errors,
                            ns->ip_in_truncated,  ns->ip_in_delivers_other};
    return net_counters{ns->udp_in_datagrams, ns->udp_rcvbuf_errors, ns->udp_no_ports,  ns->ip_in_receives,
                        ns->ip_in_hdr_errors, ns->softnet_processed, ns->softnet_time_squeeze, ns->napi_polls,
                        ns->napi_complete, ns->rx_otherhost, ns->udp_in_csum_errors, ns->udp_in_errors,
                        ns->udp_short, ns->ip_in_csum_errors, ns->ip_in_truncated, ns->ip_in_delivers_other};
}

void v6_skb_copy(const void* from, void* to, size_t n) { g_v6.skb_copy(from, to, n); }
void v6_skb_consume(void* skb) { g_v6.skb_consume(skb); }

unsigned stack_backlog_len() { return g_v6.gro_pending ? (unsigned)g_v6.gro_pending() : 0; }

void net_counters_reset()
{
    if (g_v6_stats) {
        *g_v6_stats = fecsim_v6_net_stats{};
        g_v6.reset();
    } else {
        shim_net_reset_stats();
    }
}

void net_counters_visit(const stat_visitor& v)
{
    const net_counters ns = net_counters_read();
    v("snmp.Udp.InDatagrams", ns.udp_in_datagrams, "UDP datagrams delivered to the socket reader", "count");
    v("snmp.Udp.RcvbufErrors", ns.udp_rcvbuf_errors, "UDP datagrams dropped: socket receive buffer full", "count");
    v("snmp.Udp.NoPorts", ns.udp_no_ports, "UDP datagrams to a port nobody listens on", "count");
    v("snmp.Udp.InCsumErrors", ns.udp_in_csum_errors,
      "UDP datagrams dropped by recvmsg: a wrong checksum the device did not vouch for", "count");
    v("snmp.Udp.InErrors", ns.udp_in_errors,
      "UDP datagrams dropped on receive: receive buffer full, wrong checksum, short packet", "count");
    v("snmp.Ip.InReceives", ns.ip_in_receives, "IP datagrams received", "count");
    v("snmp.Ip.InHdrErrors", ns.ip_in_hdr_errors,
      "IP datagrams dropped for their header: not IPv4/UDP (and not the board's TCP stream or an echo request), a "
      "header length below 20 B or beyond the frame, a "
      "wrong header checksum, a total length below the header",
      "count");
    v("snmp.Ip.InCsumErrors", ns.ip_in_csum_errors, "IP headers with a wrong checksum (counted in InHdrErrors too)",
      "count");
    v("snmp.Ip.InTruncatedPkts", ns.ip_in_truncated, "IP datagrams whose total length is beyond the frame: dropped",
      "count");
    v("stack.ip_delivers_other", ns.ip_in_delivers_other,
      "TCP segments and ICMP messages the board's own endpoints took (its TCP stream's ACKs, echo requests)", "count");
    v("stack.udp_short", ns.udp_short,
      "UDP short packets: no room for the header, or a UDP length beyond the datagram or below 8 (dropped and "
      "counted in Udp.InErrors, as __udp4_lib_rcv does)",
      "count");
    v("softnet.processed", ns.softnet_processed, "frames handed to the stack by NAPI", "count");
    v("softnet.time_squeeze", ns.softnet_time_squeeze, "net_rx_action runs ended by budget or time", "count");
    v("napi.polls", ns.napi_polls, "NAPI poll calls", "count");
    v("napi.completions", ns.napi_complete, "napi_complete_done calls", "count");
    v("stack.rx_otherhost", ns.rx_otherhost,
      "frames for another host's MAC (accepted in promiscuous mode) dropped by the stack before IP, as "
      "ip_rcv does (no SNMP counter)",
      "count");
    const fecsim_v6_net_stats* p = g_v6_stats;
    if (!p)
        return;  // fecsim's own driver has no page pool
    // The tree driver's page pools (struct page_pool_stats; drivers/shim/v6/page_pool.c).
    v("page_pool.alloc_fast", p->pp_alloc_fast, "pages taken from a pool's alloc cache", "count");
    v("page_pool.alloc_slow", p->pp_alloc_slow, "bulks of pages from the page allocator (cache and ring empty)",
      "count");
    v("page_pool.alloc_empty", p->pp_alloc_empty, "cache refills that found the ptr_ring empty", "count");
    v("page_pool.alloc_refill", p->pp_alloc_refill, "cache refills from the ptr_ring", "count");
    v("page_pool.alloc_failed", p->pp_alloc_failed, "allocations with no page to give (the driver's refill fails)",
      "count");
    v("page_pool.recycle_cached", p->pp_recycle_cached, "pages recycled directly into the alloc cache", "count");
    v("page_pool.recycle_cache_full", p->pp_recycle_cache_full, "direct recycling with the cache full", "count");
    v("page_pool.recycle_ring", p->pp_recycle_ring, "pages recycled into the ptr_ring", "count");
    v("page_pool.recycle_ring_full", p->pp_recycle_ring_full, "recycling with the ptr_ring full (page released)",
      "count");
    v("page_pool.recycle_released_refcnt", p->pp_recycle_released_refcnt,
      "pages released because another reference held them", "count");
    v("page_pool.pages_released", p->pp_pages_released, "pages returned to the page allocator, unmapped", "count");
    v("stack.skb_alloc", p->skb_alloc, "skbs built by the driver (build_skb) or allocated", "count");
    v("stack.skb_free", p->skb_free, "skbs freed (their page-pool heads recycled)", "count");
    v("stack.skb_truesize", p->skb_truesize, "truesize of the last skb the driver built: what it charges the socket",
      "B");
}

} // namespace khost
