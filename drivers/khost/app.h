// drivers/khost/app.h: the receiving application (like `iperf3 -s` on a UDP socket) as
// a task on one core: a blocking recvmsg loop; per datagram the syscall path
// (shim), the copy into the user buffer through this core's caches, the
// payload check on what this core read (models/traffic/frame_format.h), and
// user-mode work.
#pragma once
#include "drivers/khost/khost_config.h"
#include "common/params.h"
#include "common/stats.h"
#include "cpu/core.h"
#include "net/frame_format.h"

namespace khost {

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

private:
    mutable bool m_asleep = true;
    mutable uint64_t m_sleeps = 0;
    app_config m_cfg;
    void* m_buf = nullptr;  // user buffer, simulated memory
    traffic_seq_tracker m_seq;
    app_stats m_stats{};
    app_stats m_base{};  // tracker counts at the last reset
};

} // namespace khost
