// bench/demo_sync.cc: what one RX frame's DMA maintenance costs on the i.MX6Q
// memory models: the stock fec driver's full syncs of a 2033-B buffer vs the
// partial sync of a 242-B frame, without and with the stress -m memory hog.
// A showcase of the memory models alone, with the parameter-table defaults
// (not the calibrated profile scenarios/profiles/imx6q.ini that `fecsim run`
// uses; docs/calibration.md has the calibrated costs).
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include "cache/hierarchy.h"
#include "drivers/khost/arm_dma.h"
#include "drivers/khost/stress.h"

using namespace models;
using namespace models::cache;
using namespace khost;

extern "C" int sc_main(int, char**) { return 1; }

// Core 0 runs `frames` frames' maintenance, one every 21.28 us (100 Mbit/s
// line rate for 246-B frames); prints the mean cost per frame.
struct rx_core : sc_core::sc_module {
    hierarchy& h;
    bool partial;
    unsigned frames;
    tick_t total = 0;
    SC_HAS_PROCESS(rx_core);
    rx_core(sc_core::sc_module_name n, hierarchy& hh, bool p, unsigned f) : sc_module(n), h(hh), partial(p), frames(f)
    {
        SC_THREAD(run);
    }
    void run()
    {
        auto cc = caches_of(h, 0);
        for (unsigned i = 0; i < frames; i++) {
            sc_core::wait(21280, sc_core::SC_NS);
            const uint64_t buf = 0x10000000 + (4 << 20) + (uint64_t)(i % 512) * 2048 + 64;
            const tick_t t0 = now_ps();
            tick_t t = arm_dma_sync_for_cpu(cc, buf, partial ? 242 : 2033, dma_dir::from_device, t0);
            if (!partial)
                t = arm_dma_sync_for_device(cc, buf, 2033, dma_dir::from_device, t);
            total += t - t0;
        }
    }
};

static void one(bool partial, bool stress)
{
    hierarchy_config c;
    stress_config sc;
    sc.enabled = stress;
    hierarchy h(c);
    stressor hog("stress", stress_placed(sc, c));
    hog.bind(h.l2);
    rx_core rx("rx", h, partial, 2000);
    sc_core::sc_start(21280.0 * (rx.frames + 1), sc_core::SC_NS);
    std::printf("  %-8s %-10s %6.2f us per frame   L1 ops %5.1f  PL310 ops %5.1f  syncs %.1f\n",
                partial ? "partial" : "stock", stress ? "stress -m" : "idle", (double)rx.total / rx.frames / 1e6,
                (double)(h.l1[0]->stats().inv_ops + h.l1[0]->stats().clean_inv_ops) / rx.frames,
                (double)(h.l2.stats().inv_line_ops + h.l2.stats().clean_inv_line_ops) / rx.frames,
                (double)h.l2.stats().syncs / rx.frames);
}

int main()
{
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    std::printf("fecsim memory-model demo: DMA maintenance per RX frame (parameter-table defaults,\n"
                "not the calibrated i.MX6Q profile; see docs/calibration.md)\n");
    for (int k = 0; k < 4; k++) {
        std::fflush(stdout);
        pid_t pid = fork();  // one SystemC simulation per process
        if (pid == 0) {
            one(k & 1, k & 2);
            std::fflush(stdout);
            _exit(0);
        }
        int st;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st))
            return 1;
    }
    return 0;
}
