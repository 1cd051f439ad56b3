// drivers/khost/khost_config.h: the kernel-side scenario groups, one config
// struct each, generated from its parameter table: [kernel] (the kernel
// host, khost.h), [stack] and [driver] (boot.h), [app] (app.h), [tx] (tx.h)
// and [stress] (stress.h). Plain: no SystemC, no shim.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "common/params.h"
#include "net/qdisc.h"

namespace khost {

using models::param_table;

// The kernel's architecture code, which decides the streaming-DMA cache
// maintenance ([kernel] arch; drivers/khost/arm_dma.h).
enum class kernel_arch : uint32_t { arm = 0, arm64 = 1 };

struct kernel_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "drivers/khost/kernel_params.def"
#undef P
};
extern const param_table kernel_param_table;

// [stack]: the network stack above the driver as a cost model (drivers/shim/net.c).
struct stack_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "drivers/khost/stack_params.def"
#undef P
};
extern const param_table stack_param_table;

// [driver]: the driver under test. source and patches are declared string
// keys of the registry (sim/config/registry.cc).
struct driver_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "drivers/khost/driver_params.def"
#undef P
    std::string source;                // driver directory; "" = drivers/fec of this tree
    std::string tree;                  // kernel source root to take driver `name` from ("" = none)
    std::string name;                  // a driver of drivers/khost/kernel_tree.cc ("fec")
    std::string dts;                   // the board's device tree source ("" = the i.MX6Q profile's)
    std::vector<std::string> patches;  // unified diffs applied in order (--patch)
    std::string defines;               // "NAME=VALUE;..." (khost::parse_driver_defines)
};
extern const param_table driver_param_table;

struct app_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "drivers/khost/app_params.def"
#undef P
    // Not a scenario key: set at elaboration when the traffic is a replayed
    // capture. Its datagrams carry foreign payloads, which cannot be checked:
    // one that does not verify counts as unverifiable, not corrupted.
    bool foreign_payloads = false;
};
extern const param_table app_param_table;

enum tx_protocol : uint32_t { TX_UDP = 0, TX_TCP = 1, TX_TCP_CUBIC = 2 };

struct tx_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "drivers/khost/tx_params.def"
#undef P
    // Not a scenario key: the interface's address, the frames' source (set
    // at elaboration from [soc] mac_address), first byte most significant.
    uint64_t board_mac = 0x020000000001ull;
};
extern const param_table tx_param_table;

// The board's qdisc ([qdisc] group; table drivers/khost/qdisc_params.def over
// models/net/qdisc.h's config).
extern const param_table qdisc_param_table;

// What drivers/khost/board_stack.h needs: the qdisc and the costs and
// sysctls of the board's transmit stack (from [qdisc] and [tx]).
struct stack_tx_config {
    models::net::qdisc_config qdisc;
    uint64_t limit_output_bytes = 1 << 20;  // net.ipv4.tcp_limit_output_bytes (6.12: 16 x 64 KiB)
    uint32_t min_tso_segs = 2;              // net.ipv4.tcp_min_tso_segs
    uint32_t gso_max_bytes = 65536 - 321;   // sk_gso_max_size: GSO_LEGACY_MAX_SIZE less MAX_TCP_HEADER + 1
    uint32_t ack_cycles = 3000;             // tcp_v4_rcv + tcp_ack per ACK, memory accesses excluded
    uint32_t xmit_cycles = 6000;            // tcp_write_xmit .. ndo_start_xmit per skb
    uint32_t icmp_cycles = 3000;            // icmp_rcv + icmp_echo + icmp_reply per echo request
    // The receiving TCP socket (peer.tcp_send; [stack] frame_cycles, gro_segment_cycles, tcp_rcvbuf, recv_cycles)
    uint32_t rx_frame_cycles = 12000;       // ip_rcv .. tcp_rcv_established per GRO aggregate
    uint32_t gro_segment_cycles = 600;      // dev_gro_receive .. skb_gro_receive per segment
    uint32_t recv_cycles = 3000;            // tcp_recvmsg per call, the copy excluded
    uint64_t rcvbuf = 6291456;              // sk_rcvbuf: tcp_rmem[2]
    uint32_t mss = 1448;                    // the desktop's segments' payload (B)
};

// How the memory hog's page zeroing is simulated (stress_params.def, model).
enum class stress_model : uint32_t {
    detailed = 0,   // one PL310 transaction per 32-B line, each booked on its own
    aggregate = 1,  // a page as one booking at the eviction pipeline's steady rate (docs/design.md)
};

struct stress_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "drivers/khost/stress_params.def"
#undef P
    double clock_hz = 996e6;  // core clock, Hz; set by elaboration from [cpu] clock
    uint64_t base = 0;        // first byte of worker 0's footprint (past the backed window)
    uint32_t task_workers = 0;  // bit i: worker i runs as a task of its core (not started here)
};
extern const param_table stress_param_table;

} // namespace khost
