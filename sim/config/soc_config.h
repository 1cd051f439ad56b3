// sim/config/soc_config.h: the plain configuration aggregate that the
// scenario loader fills and sim/soc elaborates: one member per scenario
// group, each the config struct of a model (models/*/<m>_config.h) or of the
// kernel host (drivers/khost/khost_config.h), plus the [scenario] and
// [output] groups that are fecsim's own. No SystemC: the loader, the docs
// generator and the results writers compile against this, not the models.
#pragma once
#include <cstdint>
#include <string>
#include "cache/hierarchy_config.h"
#include "common/params.h"
#include "common/ticks.h"
#include "cpu/cpu_config.h"
#include "drivers/khost/khost_config.h"
#include "enet/enet_config.h"
#include "traffic/traffic_config.h"

namespace sim {

using models::tick_t;

// [scenario] group: what the run is (not a model; its table lives in sim/).
struct scenario_config {
    std::string id = "default";
    std::string description;
    uint64_t seed = 1;                              // feeds every model generator
    tick_t duration_ps = 10 * models::PS_PER_S;     // measured region
    tick_t warmup_ps = 0;                           // simulated, then statistics reset
    tick_t quantum_ps = models::PS_PER_US;          // global quantum of temporal decoupling
    bool lazy_sync = true;                          // cores skip syncs nobody can observe
};

struct output_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "sim/config/output_params.def"
#undef P
    // Where pcap_rx / pcap_tx write (set by the run command: rx.pcap and
    // tx.pcap of the run directory; not scenario keys).
    std::string pcap_rx_file, pcap_tx_file;
};
extern const models::param_table output_param_table;

// [soc] group: the board's address and interface settings.
struct board_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "sim/config/board_params.def"
#undef P
};
extern const models::param_table board_param_table;

struct soc_config {
    scenario_config scenario;
    board_config board;                   // [soc]
    models::cpu::cpu_config cpu;          // [cpu]
    models::cache::hierarchy_config mem;  // [l1], [l2], [noc], [dram]; cores/clock from [cpu]
    khost::stress_config stress;          // [stress]
    models::enet::enet_config enet;       // [enet]
    models::traffic::traffic_config traffic;  // [traffic]
    khost::kernel_config kernel;          // [kernel]
    khost::stack_config stack;            // [stack]
    khost::driver_config driver;          // [driver]
    khost::app_config app;                // [app]
    khost::tx_config tx;                  // [tx]
    models::net::qdisc_config qdisc;      // [qdisc]
    models::traffic::peer_config peer;    // [peer]
    output_config output;                 // [output]
};

} // namespace sim
