#include "drivers/khost/arm_dma.h"
#include "cache/pl310_regs.h"

namespace khost {

using namespace models;
using namespace models::cache;

static tick_t l2_op(cpu_caches& c, uint32_t reg, uint64_t pa, tick_t t)
{
    tick_t done;
    const tick_t acc = c.l2.reg_write(reg, (uint32_t)pa, t, &done, (uint8_t)(mem::MASTER_CPU0 + c.l1.core()));
    c.l1.note_posted(done);
    return acc;
}

static tick_t l2_lines(cpu_caches& c, uint32_t reg, uint64_t pa, unsigned n, tick_t t)
{
    tick_t done;
    const tick_t acc = c.l2.reg_write_lines(reg, pa, n, t, &done, (uint8_t)(mem::MASTER_CPU0 + c.l1.core()));
    c.l1.note_posted(done);
    return acc;
}

static bool integrated(const cpu_caches& c) { return c.l2.config().kind == l2_kind::integrated; }

// The integrated L2's share of a by-VA operation the L1 has done.
static tick_t l2_poc(cpu_caches& c, l1_op op, uint64_t pa, unsigned n, tick_t t)
{
    if (op == l1_op::inv && c.l1.config().inv_is_clean_inv)
        op = l1_op::clean_inv;
    const uint32_t reg = op == l1_op::inv     ? pl310_reg::INV_LINE_PA
                         : op == l1_op::clean ? pl310_reg::CLEAN_LINE_PA
                                              : pl310_reg::CLEAN_INV_LINE_PA;
    tick_t done;
    t = c.l2.poc_lines(reg, pa, n, t, &done, (uint8_t)(mem::MASTER_CPU0 + c.l1.core()));
    c.l1.note_posted(done);
    return t;
}

tick_t poc_lines(cpu_caches& c, l1_op op, uint64_t pa, unsigned n, tick_t t)
{
    t += c.l1.maint_lines(op, pa, n, t);
    return integrated(c) ? l2_poc(c, op, pa, n, t) : t;
}

static tick_t poc_line(cpu_caches& c, l1_op op, uint64_t pa, tick_t t)
{
    t += c.l1.maint(op, pa, t);
    return integrated(c) ? l2_poc(c, op, pa, 1, t) : t;
}

static tick_t l1_range(cpu_caches& c, l1_op op, uint64_t start, uint64_t end, tick_t t)
{
    const uint64_t lb = c.l1.line_bytes();
    start &= ~(lb - 1);
    if (start < end)
        t = poc_lines(c, op, start, (unsigned)((end - start + lb - 1) / lb), t);
    return t + c.l1.dsb(t);
}

tick_t v7_dma_inv_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t)
{
    const uint64_t lb = c.l1.line_bytes(), m = lb - 1;
    if (start & m) {
        start &= ~m;
        t = poc_line(c, l1_op::clean_inv, start, t);
        start += lb;
    }
    if (end & m) {
        end &= ~m;
        t = poc_line(c, l1_op::clean_inv, end, t);
    }
    if (start < end)
        t = poc_lines(c, l1_op::inv, start, (unsigned)((end - start) / lb), t);
    return t + c.l1.dsb(t);
}

tick_t dcache_inval_poc(cpu_caches& c, uint64_t start, uint64_t end, tick_t t)
{
    const uint64_t lb = c.l1.line_bytes(), m = lb - 1;
    if (end & m) {
        end &= ~m;
        t = poc_line(c, l1_op::clean_inv, end, t);
    }
    if (start & m) {
        start &= ~m;
        t = poc_line(c, l1_op::clean_inv, start, t);
        start += lb;
    }
    if (start < end)
        t = poc_lines(c, l1_op::inv, start, (unsigned)((end - start) / lb), t);
    return t + c.l1.dsb(t);
}

tick_t dcache_clean_poc(cpu_caches& c, uint64_t start, uint64_t end, tick_t t)
{
    return l1_range(c, l1_op::clean, start, end, t);
}

tick_t v7_dma_clean_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t)
{
    return l1_range(c, l1_op::clean, start, end, t);
}

tick_t v7_dma_flush_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t)
{
    return l1_range(c, l1_op::clean_inv, start, end, t);
}

tick_t l2c210_inv_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t)
{
    const uint64_t lb = c.l2.line_bytes(), m = lb - 1;
    if (start & m) {
        start &= ~m;
        t = l2_op(c, pl310_reg::CLEAN_INV_LINE_PA, start, t);
        start += lb;
    }
    if (end & m) {
        end &= ~m;
        t = l2_op(c, pl310_reg::CLEAN_INV_LINE_PA, end, t);
    }
    if (start < end)
        t = l2_lines(c, pl310_reg::INV_LINE_PA, start, (unsigned)((end - start) / lb), t);
    return l2_op(c, pl310_reg::CACHE_SYNC, 0, t);
}

static tick_t l2c210_each(cpu_caches& c, uint32_t reg, uint64_t start, uint64_t end, tick_t t)
{
    const uint64_t lb = c.l2.line_bytes();
    start &= ~(lb - 1);
    if (start < end)
        t = l2_lines(c, reg, start, (unsigned)((end - start + lb - 1) / lb), t);
    return l2_op(c, pl310_reg::CACHE_SYNC, 0, t);
}

tick_t l2c210_clean_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t)
{
    return l2c210_each(c, pl310_reg::CLEAN_LINE_PA, start, end, t);
}

tick_t l2c210_flush_range(cpu_caches& c, uint64_t start, uint64_t end, tick_t t)
{
    return l2c210_each(c, pl310_reg::CLEAN_INV_LINE_PA, start, end, t);
}

tick_t arm_dma_sync_for_cpu(cpu_caches& c, uint64_t pa, uint64_t size, dma_dir dir, tick_t t)
{
    if (dir == dma_dir::to_device || size == 0)
        return t;
    if (c.arch == kernel_arch::arm64)
        return dcache_inval_poc(c, pa, pa + size, t);
    if (!integrated(c))
        t = l2c210_inv_range(c, pa, pa + size, t);
    return v7_dma_inv_range(c, pa, pa + size, t);
}

tick_t arm_dma_sync_for_device(cpu_caches& c, uint64_t pa, uint64_t size, dma_dir dir, tick_t t)
{
    if (size == 0)
        return t;
    if (c.arch == kernel_arch::arm64)
        return dcache_clean_poc(c, pa, pa + size, t);
    if (dir == dma_dir::from_device) {
        t = v7_dma_inv_range(c, pa, pa + size, t);
        return integrated(c) ? t : l2c210_inv_range(c, pa, pa + size, t);
    }
    t = v7_dma_clean_range(c, pa, pa + size, t);
    return integrated(c) ? t : l2c210_clean_range(c, pa, pa + size, t);
}

} // namespace khost
