// drivers/khost/arm_dma.h: streaming-DMA cache maintenance as Linux's
// architecture code performs it (docs/sources.md §4.3, 4.4, 14).
//
// arm (32-bit, v5.4 to 6.12: arch/arm/mm/dma-mapping.c, cache-v7.S):
//   sync_for_cpu(dir != TO_DEVICE)  : outer (PL310) invalidate range, then
//                                     L1 v7_dma_inv_range           (__dma_page_dev_to_cpu)
//   sync_for_device / map:
//        FROM_DEVICE                : L1 v7_dma_inv_range, then PL310 invalidate range
//        TO_DEVICE, BIDIRECTIONAL   : L1 v7_dma_clean_range, then PL310 clean range
//                                                                     (__dma_page_cpu_to_dev)
//   v7_dma_inv_range  : a partial first/last line is cleaned+invalidated
//                       (DCCIMVAC), the lines between invalidated (DCIMVAC), DSB.
//   v7_dma_clean_range: DCCMVAC per line, DSB.
//   l2c210_inv_range  : partial first/last line CLEAN_INV_LINE_PA, INV_LINE_PA
//                       for the rest, one CACHE_SYNC; clean/flush: CLEAN_LINE_PA /
//                       CLEAN_INV_LINE_PA per line, one CACHE_SYNC. No lock, no
//                       4 KiB chunking (the L2C-310 path, not L2C-220).
//   The outer steps exist only with a PL310 ([l2] kind=pl310); with an
//   integrated L2 (Cortex-A7) the by-MVA operations reach it on their own.
// arm64 (6.12: arch/arm64/mm/dma-mapping.c, cache.S):
//   sync_for_device / map, any dir : dcache_clean_poc: DC CVAC per line, DSB
//   sync_for_cpu(dir != TO_DEVICE)  : dcache_inval_poc: a partial last, then
//                                     first, line DC CIVAC, the rest DC IVAC, DSB
// A by-VA operation to the PoC acts on the issuing core's L1 (broadcast to
// the others) and, when the L2 is integrated, on the L2 after it (its share:
// pl310::poc_lines). An L1 with inv_is_clean_inv (Cortex-A53) carries out
// an invalidate as clean+invalidate at both levels.
// Each function takes the issuing core's absolute time t and returns the time
// it is done (the caller's new local time). The coherent-DMA profile never
// calls these: that decision belongs to the kernel-API shim.
#pragma once
#include <cstdint>
#include "cache/l1.h"
#include "cache/hierarchy.h"
#include "cache/pl310.h"
#include "drivers/khost/khost_config.h"

namespace khost {

using models::tick_t;
using models::cache::l1_cache;
using models::cache::pl310;

// Values as in the Linux DMA API.
enum class dma_dir : int { bidirectional = 0, to_device = 1, from_device = 2, none = 3 };

struct cpu_caches {
    l1_cache& l1;  // the issuing core's L1 (maintenance by MVA is broadcast)
    pl310& l2;
    kernel_arch arch = kernel_arch::arm;
};
inline cpu_caches caches_of(models::cache::hierarchy& h, unsigned core, kernel_arch arch = kernel_arch::arm)
{
    return cpu_caches{*h.l1.at(core), h.l2, arch};
}

tick_t v7_dma_inv_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t);
tick_t v7_dma_clean_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t);
tick_t v7_dma_flush_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t);
tick_t l2c210_inv_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t);
tick_t l2c210_clean_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t);
tick_t l2c210_flush_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t);
tick_t dcache_inval_poc(cpu_caches& c, uint64_t start, uint64_t end, tick_t t);
tick_t dcache_clean_poc(cpu_caches& c, uint64_t start, uint64_t end, tick_t t);

tick_t arm_dma_sync_for_cpu(cpu_caches& c, uint64_t pa, uint64_t size, dma_dir dir, tick_t t);
tick_t arm_dma_sync_for_device(cpu_caches& c, uint64_t pa, uint64_t size, dma_dir dir, tick_t t);

// A by-VA operation on n lines from pa to the PoC: the L1 share, then an
// integrated L2's. Returns the time it is done.
tick_t poc_lines(cpu_caches& c, models::cache::l1_op op, uint64_t pa, unsigned n, tick_t t);

} // namespace khost
