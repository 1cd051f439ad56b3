// drivers/khost/boot.h: the driver's life in the simulated kernel, as the
// boot and the network tools see it: build and load (modprobe with module
// parameters), initcalls, probe, ethtool tunables, ndo_open, the stack's
// settings, and the counters the kernel exports (net_device stats, ethtool
// -S, /proc/net/snmp, softnet_stat).
//
// Contract: everything here talks to the shim (drivers/shim/shim.h) so that
// the elaborator (sim/soc) never includes a shim header. driver_setup and
// stack_setup run at elaboration; driver_boot runs on the RX interrupt core's
// thread at t = 0. Failures throw driver_error with the step and the errno.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>
#include "drivers/khost/khost_config.h"
#include "common/stats.h"

namespace khost {

// The device the board description (device tree) gives the driver.
struct board_device {
    const char* compatible;  // platform driver name to match
    const char* dev_name;    // the device's name ("2188000.ethernet")
    const char* tree_id;     // its platform_device_id for a kernel tree's driver ("imx6q-fec")
    uint64_t base, size;     // register block
    unsigned irq;
    // The board's address, first byte most significant: set after probe as
    // `ip link set eth0 address` would (when not what the probe chose).
    uint64_t mac_address;
};

// Build (or reuse), load and register the driver, then set its module
// parameters as modprobe would (a driver without one keeps its default).
// Returns the dlopen handle. link_speed_bps: the PHY's speed.
void* driver_setup(const driver_config& d, double link_speed_bps);
// Configure the shim's stack from [stack] and net_rx_action's budgets.
void stack_setup(const stack_config& s, uint32_t netdev_budget, uint64_t netdev_budget_ps);
// The application's UDP socket (recvmsg and the datagrams waiting in its queue): the
// shim's, or the 6.x level's of a kernel tree's driver.
int socket_queued();
long socket_recvmsg(void* buf, size_t len, uint64_t* ready_ns);
// The NET_RX softirq handler (net_rx_action), for core::set_softirq_handler.
void net_rx_softirq();
// The handler for driver d (handle: driver_setup's): net_rx_softirq, or the
// 6.x level's of a kernel tree's driver.
std::function<void()> net_rx_softirq_handler(const driver_config& d, void* handle);
// The sender's way into driver d: a kernel tree's driver's transmit entry
// points (drivers/shim/v6/fecsim_v6.h), none for fecsim's own driver.
struct tx_v6_port;
tx_v6_port tx_port(const driver_config& d, void* handle);
// A kernel tree's driver at the end of a run, as text lines (interface,
// link, ethtool -S names); "" for fecsim's own driver.
std::string tree_driver_report(void* handle);
// On the RX interrupt core at t = 0: initcalls, probe of `dev`, ethtool
// --set-tunable rx-copybreak, ndo_open, the multicast join of the
// application's socket (join_group 0: none), promiscuous mode; the board's
// MAC address (if not the probe's) before ndo_open. Returns the net_device.
// promiscuous: then `ip link set eth0 promisc on` (IFF_PROMISC, ndo_set_rx_mode).
// handle: driver_setup's. A kernel tree's driver: probe and open only.
void* driver_boot(const driver_config& d, void* handle, const board_device& dev, uint32_t join_group,
                  bool promiscuous);

// Why driver_boot failed ("driver probe failed: -22 (EINVAL)"), or null if it
// did not. Kept here because the failure is thrown on a core's SystemC thread,
// and SystemC hands the caller of sc_start only its own report of it.
const std::string* boot_failure();

// The kernel log (what dmesg shows): every printk, dev_err, netdev_info ...
// line of the driver and the shim, in order, at most the last 256.
// kernel_log_add is the shim's printk (drivers/khost/simhost.cc).
void kernel_log_add(int level, const char* line);
struct kernel_log_line {
    int level;  // the printk level: 3 = KERN_ERR, 4 = KERN_WARNING, 6 = KERN_INFO
    std::string text;
};
std::vector<kernel_log_line> kernel_log_tail(size_t n);

// net_device counters and ethtool -S of ndev (ethtool reads MIB registers;
// done outside any core, it costs nothing).
struct netdev_snapshot {
    uint64_t rx_packets = 0, rx_dropped = 0, rx_errors = 0, rx_fifo_errors = 0;
    std::vector<std::pair<std::string, uint64_t>> ethtool;
};
netdev_snapshot netdev_snapshot_take(void* ndev);
void netdev_counters(void* ndev, uint64_t* rx_packets, uint64_t* rx_dropped, uint64_t* rx_errors,
                     uint64_t* rx_fifo_errors);

// The stack's counters under their kernel names (resettable).
struct net_counters {
    uint64_t udp_in_datagrams, udp_rcvbuf_errors, udp_no_ports;
    uint64_t ip_in_receives, ip_in_hdr_errors;
    uint64_t softnet_processed, softnet_time_squeeze;
    uint64_t napi_polls, napi_complete;
    uint64_t rx_otherhost;
    uint64_t udp_in_csum_errors;
    uint64_t udp_in_errors, udp_short;           // Udp.InErrors; of them, short packets
    uint64_t ip_in_csum_errors, ip_in_truncated;  // Ip.InCsumErrors (also InHdrErrors), InTruncatedPkts
    uint64_t ip_in_delivers_other;  // TCP and ICMP datagrams the board's endpoints took
};
net_counters net_counters_read();
// Frames the driver has handed up that the stack has not taken yet (a
// kernel tree's driver: its GRO_NORMAL batch; 0 for fecsim's own driver,
// whose stack takes each frame at once).
unsigned stack_backlog_len();
// A kernel tree's driver: the shim's copy of n bytes of a held skb's
// payload to a user buffer (instrumented: the current core's caches and
// cycles) and its free of an skb the board's TCP socket held.
void v6_skb_copy(const void* from, void* to, size_t n);
void v6_skb_consume(void* skb);
void net_counters_reset();
// snmp.*, softnet.* and napi.* counters, as stats.json lists them.
void net_counters_visit(const models::stat_visitor& v);

} // namespace khost
