// drivers/khost/tx.h: a sending application (like `iperf3 -c -u`, or a TCP
// stream writer) as a timer-driven task: per send user work, then the
// stack's send path into the driver: fecsim's own driver through the 5.4
// shim (shim_dev_xmit), a kernel tree's driver through the 6.x level's
// fecsim_v6_xmit (drivers/shim/v6/fecsim_v6.h), which builds the skb with
// the offload fields (checksum, scatter-gather, TSO). Frames carry the same
// sequence number and payload check as the link partner's
// (models/traffic/frame_format.h); the link partner's sink verifies what
// the MAC put on the wire.
#pragma once
#include <vector>
#include "drivers/khost/khost_config.h"
#include "common/params.h"
#include "common/stats.h"
#include "cpu/core.h"
#include "net/frame_format.h"

struct fecsim_v6_tx_req;
struct fecsim_v6_tx_stats;

namespace khost {

struct tx_stats {
#define S FEC_STAT_MEMBER
#include "drivers/khost/tx_stats.def"
#undef S
};
extern const models::stat_desc tx_stat_rows[];
extern const size_t tx_stat_count;

// A kernel tree's driver's transmit entry points (drivers/shim/v6/fecsim_v6.h),
// looked up in its shared object (drivers/khost/boot.cc); all null for
// fecsim's own driver.
struct tx_v6_port {
    int (*xmit)(const fecsim_v6_tx_req*) = nullptr;
    void (*set_wake)(void (*)(void*), void*) = nullptr;
    void (*set_wmem)(void (*)(void*, unsigned, long), void*) = nullptr;
    unsigned (*features)() = nullptr;
    int (*stopped)() = nullptr;
    const fecsim_v6_tx_stats* (*stats)() = nullptr;
    void (*reset)() = nullptr;
};

class board_stack;

class tx_task : public models::cpu::task {
public:
    // ndev: fecsim's own driver's net_device once probed; port: a tree
    // driver's, and stack its transmit stack (drivers/khost/board_stack.h:
    // the queue's wake and the socket's charge come through it; the
    // tcp_cubic stream is its). stack is null for fecsim's own driver.
    tx_task(const tx_config& cfg, models::cpu::core& c, void** ndev, const tx_v6_port& port, board_stack* stack);
    const char* name() const override { return "tx"; }
    bool runnable() const override;
    void step(models::cpu::core& c) override;
    const tx_stats& stats() const { return m_stats; }
    void reset_stats();
    // The tree driver's transmit queue counters ("txq." rows of
    // drivers/shim/v6/tx_stats.def); nothing for fecsim's own driver.
    void visit_queue_stats(const models::stat_visitor& v) const;

private:
    size_t build(uint32_t* payload);  // the next frame into m_frame (no FCS); its payload bytes
    static void woken(void* self);    // tcp_cubic: ACKs freed send-buffer room
    static void wmem(void* self, long delta);  // the socket's send-buffer charge changed (B)
    bool sndbuf_full() const;

    const tx_config m_cfg;
    models::cpu::core& m_core;
    void** m_ndev;  // the driver's net_device, once probed
    const tx_v6_port m_port;
    board_stack* m_stack;
    bool tcp_cubic() const;
    void step_stream(models::cpu::core& c);  // tx.protocol=tcp_cubic: a write or the retransmission timer
    uint64_t m_written = 0;  // tcp_cubic: stream bytes written
    models::tick_t m_next, m_interval;
    uint32_t m_seq = 0;        // UDP: datagram number; TCP: stream offset
    uint16_t m_ip_id = 0;
    traffic_flow m_flow{};
    std::vector<uint8_t> m_frame;
    tx_stats m_stats{};
};

} // namespace khost
