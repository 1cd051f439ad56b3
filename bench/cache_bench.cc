// bench/cache_bench.cc: cache line operations per wall second for a mixed
// stream on one core: loads and stores over a working set larger than L1
// (hits, L1 misses that hit the PL310, misses to DRAM, dirty evictions), a
// copybreak-like copy, and the stock driver's per-frame maintenance
// (sync_for_cpu + sync_for_device of a 2033-B buffer: 128 L1 + 128 PL310 line
// operations). Reports the median of several runs with min and max.
//
// A "line operation" is one L1 line access (a load or store touching one
// line), one L1 maintenance operation or one PL310 line operation/sync.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>
#include "cache/hierarchy.h"
#include "common/rng.h"
#include "drivers/khost/arm_dma.h"

using namespace models;
using namespace models::cache;
using khost::dma_dir;

extern "C" int sc_main(int, char**) { return 1; }

struct result {
    double ops;
    double seconds;
};

static result run_once(unsigned frames)
{
    hierarchy_config cfg;
    cfg.cores = 1;
    hierarchy h(cfg);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    khost::cpu_caches cc = khost::caches_of(h, 0);
    l1_cache& l1 = *h.l1[0];
    rng r(42);
    const uint64_t base = 0x10000000, ring = base + (8 << 20);
    tick_t t = 0;
    uint64_t ops = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (unsigned f = 0; f < frames; f++) {
        // 200 scattered accesses over a 256 KiB working set (about 1/8 L1 hits
        // on a cold line, the rest PL310 hits after warm-up), 1/4 stores.
        for (int i = 0; i < 200; i++) {
            const uint64_t a = base + (r.below(256 * 1024 / 4) * 4);
            t += (i & 3) == 0 ? l1.write(a, 4, t) : l1.read(a, 4, t);
        }
        // 400 accesses to a hot 4 KiB region (stack, skb heads): L1 hits.
        for (int i = 0; i < 400; i++)
            t += l1.read(base + (8 << 20) - 8192 + (uint64_t)(i * 40 % 4096), 4, t);
        // Copybreak: copy 242 B out of the RX buffer into a fresh skb (8 + 8 lines).
        const uint64_t buf = ring + (uint64_t)(f % 512) * 2048;
        const uint64_t skb = base + (16 << 20) + (uint64_t)(f % 4096) * 256;
        t = khost::arm_dma_sync_for_cpu(cc, buf, 2033, dma_dir::from_device, t);
        for (uint64_t o = 0; o < 242; o += 32) {
            t += l1.read(buf + o, 32, t);
            t += l1.write(skb + o, 32, t);
        }
        t = khost::arm_dma_sync_for_device(cc, buf, 2033, dma_dir::from_device, t);
        ops += 200 + 400 + 16 + 2 * (64 + 64 + 1);
    }
    auto t1 = std::chrono::steady_clock::now();
    return {(double)ops, std::chrono::duration<double>(t1 - t0).count()};
}

int main(int argc, char** argv)
{
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    const unsigned frames = argc > 1 ? (unsigned)atoi(argv[1]) : 20000;
    const int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs == 0) {  // one run in this process (for callgrind/perf)
        result r = run_once(frames);
        std::printf("cache_bench: %.1f M line ops/s\n", r.ops / r.seconds / 1e6);
        return 0;
    }
    // Each run needs a fresh SystemC context: fork per run.
    std::vector<double> rates;
    for (int i = 0; i < runs; i++) {
        int fd[2];
        if (pipe(fd))
            return 2;
        pid_t pid = fork();
        if (pid == 0) {
            result r = run_once(frames);
            double rate = r.ops / r.seconds;
            if (write(fd[1], &rate, sizeof rate) != sizeof rate)
                _exit(2);
            _exit(0);
        }
        double rate = 0;
        if (read(fd[0], &rate, sizeof rate) != sizeof rate)
            return 2;
        waitpid(pid, nullptr, 0);
        close(fd[0]);
        close(fd[1]);
        rates.push_back(rate);
    }
    std::sort(rates.begin(), rates.end());
    const double med = rates[rates.size() / 2];
    std::printf("cache_bench: %u frames x %d runs: median %.1f M line ops/s (min %.1f, max %.1f); target >= 20\n",
                frames, runs, med / 1e6, rates.front() / 1e6, rates.back() / 1e6);
    return 0;
}
