// drivers/khost/khost_config.h: the kernel-side scenario groups, one config
// struct each, generated from its parameter table: [kernel] (the kernel
// host, khost.h), [stack] and [driver] (boot.h), [app] (app.h), [tx] (tx.h)
// and [stress] (stress.h). Plain: no SystemC, no shim.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "common/params.h"

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

struct tx_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "drivers/khost/tx_params.def"
#undef P
    // Not a scenario key: the interface's address, the frames' source (set
    // at elaboration from [soc] mac_address), first byte most significant.
    uint64_t board_mac = 0x020000000001ull;
};
extern const param_table tx_param_table;

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
