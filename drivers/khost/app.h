// drivers/khost/app.h: the receiving application (like `iperf3 -s` on a UDP socket) as
// a task on one core: a blocking recvmsg loop; per datagram the syscall path
// (shim), the copy into the user buffer through this core's caches, the
// payload check on what this core read (models/traffic/frame_format.h), and
// user-mode work. With the board's receiving TCP socket (set_tcp: iperf3 -s
// of a TCP stream, drivers/khost/board_stack.h), a recvmsg loop over the
// stream: per call the bytes queued (up to buffer_bytes), checked against
// the stream's content at their offset, and the delayed-ACK timer when it
// is due on this core.
#pragma once
#include "drivers/khost/khost_config.h"
#include "common/params.h"
#include "common/stats.h"
#include "cpu/core.h"
#include "net/frame_format.h"

namespace khost {

class board_stack;

struct app_stats {
#define S FEC_STAT_MEMBER
#include "drivers/khost/app_stats.def"
#undef S
};
extern const models::stat_desc app_stat_rows[];
extern const size_t app_stat_count;

class app_task : public models::cpu::task {
public:
    explicit app_task(const app_config& cfg);
    const char* name() const override { return "app"; }
    bool runnable() const override;
    void step(models::cpu::core& c) override;
    const app_stats& stats();
    void reset_stats();
    // Asleep in recvmsg: it found the socket queue empty, and no datagram
    // has woken it since.
    bool asleep() const { return m_asleep; }
    void woken() { m_asleep = false; }
    // Read the board's receiving TCP socket instead of the UDP one.
    void set_tcp(board_stack* s) { m_tcp = s; }

private:
    void step_tcp(models::cpu::core& c);
    board_stack* m_tcp = nullptr;
    mutable bool m_asleep = true;
    mutable uint64_t m_sleeps = 0;
    app_config m_cfg;
    void* m_buf = nullptr;  // user buffer, simulated memory
    traffic_seq_tracker m_seq;
    app_stats m_stats{};
    app_stats m_base{};  // tracker counts at the last reset
};

} // namespace khost
