// drivers/khost/tx.h: a sending application (like `iperf3 -c -u`) as a timer-driven
// task: per datagram user work, then the stack's send path into the driver
// (shim_dev_xmit). Frames carry the same sequence number and payload check as
// the link partner's (models/traffic/frame_format.h); the link partner's sink
// verifies what the MAC put on the wire.
#pragma once
#include <vector>
#include "drivers/khost/khost_config.h"
#include "common/params.h"
#include "common/stats.h"
#include "cpu/core.h"
#include "net/frame_format.h"

namespace khost {

struct tx_stats {
#define S FEC_STAT_MEMBER
#include "drivers/khost/tx_stats.def"
#undef S
};
extern const models::stat_desc tx_stat_rows[];
extern const size_t tx_stat_count;

class tx_task : public models::cpu::task {
public:
    tx_task(const tx_config& cfg, models::cpu::core& c, void** ndev);
    const char* name() const override { return "tx"; }
    bool runnable() const override;
    void step(models::cpu::core& c) override;
    const tx_stats& stats() const { return m_stats; }
    void reset_stats() { m_stats = {}; }

private:
    const tx_config m_cfg;
    models::cpu::core& m_core;
    void** m_ndev;  // the driver's net_device, once probed
    models::tick_t m_next, m_interval;
    uint32_t m_seq = 0;
    traffic_flow m_flow{};
    std::vector<uint8_t> m_frame;
    tx_stats m_stats{};
};

} // namespace khost
