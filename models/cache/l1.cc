#include "cache/l1.h"
#include <algorithm>
#include <cstring>
#include "common/log.h"
#include "cache/pl310.h"

namespace models::cache {

static const param_desc k_l1_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(l1_config, __VA_ARGS__)
#include "cache/l1_params.def"
#undef P
};
const param_table l1_param_table = {"l1", "L1 data cache of each core (Cortex-A9 by default; the profiles set other cores' geometry) with SCU coherence",
                                    k_l1_rows, sizeof k_l1_rows / sizeof k_l1_rows[0]};

const stat_desc l1_stat_rows[] = {
#define S(...) FEC_STAT_ROW(l1_stats, __VA_ARGS__)
#include "cache/l1_stats.def"
#undef S
};
const size_t l1_stat_count = sizeof l1_stat_rows / sizeof l1_stat_rows[0];

l1_cache::l1_cache(sc_core::sc_module_name nm, const l1_config& cfg, unsigned core, mem::phys_mem& mem,
                   scu& domain)
    : sc_module(nm), cpu_side("cpu_side"), mem_side("mem_side"), m_cfg(cfg), m_core(core), m_mem(mem),
      m_scu(domain), m_clk(cfg.clock_hz),
      m_arr(cfg.size_bytes, cfg.assoc, cfg.line_bytes, cfg.replacement,
            cfg.seed * 0x100000001B3ull + core, false)  // per core: no lockstep evictions
{
    cpu_side.register_b_transport(this, &l1_cache::b_transport);
    m_txn.ext.master = (uint8_t)(mem::MASTER_CPU0 + core);
    m_hit = m_clk.cycles(cfg.hit_cycles);
    m_c2c = m_clk.cycles(cfg.c2c_cycles);
    m_maint_line = m_clk.cycles(cfg.maint_line_cycles);
    m_line_mask = ~(uint64_t)(cfg.line_bytes - 1);
    domain.attach(this);
}

tick_t l1_cache::l2_call(tlm::tlm_command cmd, uint64_t pa, uint8_t* data, unsigned len, bool uncached,
                         bool posted, tick_t t)
{
    m_txn.set(cmd, pa, data, len);
    m_txn.ext.uncached = uncached;
    m_txn.ext.posted = posted;
    m_txn.ext.full_line = !uncached && len == m_arr.line_bytes();
    if (m_l2)
        return m_l2->access(m_txn.gp, t);
    sc_core::sc_time d = from_ps(t - now_ps());
    mem_side->b_transport(m_txn.gp, d);
    return now_ps() + to_ps(d);
}

void l1_cache::writeback(int slot, tick_t t)
{
    const uint64_t lpa = m_arr.addr(slot);
    uint8_t* w = m_mem.is_backed(lpa, m_arr.line_bytes()) ? m_mem.cpu_view(lpa) : nullptr;
    note_posted(l2_call(tlm::TLM_WRITE_COMMAND, lpa, w, m_arr.line_bytes(), false, true, t));
    m_arr.set_flags(slot, m_arr.flags(slot) & ~LINE_DIRTY);
    m_stats.writebacks++;
}

int l1_cache::make_room(uint64_t lpa, tick_t t)
{
    const int slot = m_arr.victim(lpa);
    if (m_arr.valid(slot)) {
        if (m_arr.dirty(slot)) {
            // A dirty copy shared with another L1 stays valid there (W is
            // common): hand the responsibility over instead of writing back.
            bool handed = false;
            if (m_arr.flags(slot) & LINE_SHARED) {
                const uint64_t vpa = m_arr.addr(slot);
                for (l1_cache* p : m_scu.l1s()) {
                    int ps = p == this ? -1 : p->snoop_find(vpa);
                    if (ps >= 0) {
                        p->m_arr.set_flags(ps, p->m_arr.flags(ps) | LINE_DIRTY);
                        handed = true;
                        break;
                    }
                }
            }
            if (!handed)
                writeback(slot, t);
        }
        m_arr.drop(slot);
    }
    return slot;
}

tick_t l1_cache::fill(int slot, uint64_t lpa, tick_t t)
{
    const unsigned lb = m_arr.line_bytes();
    uint8_t* w = m_mem.is_backed(lpa, lb) ? m_mem.cpu_view(lpa) : nullptr;
    const tick_t done = l2_call(tlm::TLM_READ_COMMAND, lpa, w, lb, false, false, t);
    m_arr.install(slot, lpa, 0);
    m_stats.fills++;
    return done;
}

// The hit path stays small (it is most of the calls); the rest out of line.
inline tick_t l1_cache::access_line(uint64_t lpa, bool is_write, tick_t t)
{
    return access_line_at(lpa, m_arr.find(lpa), is_write, t);
}

inline tick_t l1_cache::access_line_at(uint64_t lpa, int slot, bool is_write, tick_t t)
{
    if (slot >= 0) {
        m_hint = slot;
        const uint8_t f = m_arr.flags(slot);
        if (!is_write || !(f & LINE_SHARED)) {
            m_arr.touch(slot);
            if (is_write) {
                m_stats.write_hits++;
                m_arr.set_flags(slot, f | LINE_DIRTY);
            } else {
                m_stats.read_hits++;
            }
            return m_hit;
        }
    }
    return access_line_slow(lpa, slot, is_write, t);
}

__attribute__((noinline)) tick_t l1_cache::access_line_slow(uint64_t lpa, int slot, bool is_write, tick_t t)
{
    if (slot >= 0) {  // a store to a shared line: the other copies go
        m_arr.touch(slot);
        m_stats.write_hits++;
        uint8_t f = m_arr.flags(slot) & ~LINE_SHARED;
        for (l1_cache* p : m_scu.l1s()) {
            int ps = p == this ? -1 : p->snoop_find(lpa);
            if (ps >= 0 && p->snoop_take(ps))
                f |= LINE_DIRTY;
        }
        m_arr.set_flags(slot, f | LINE_DIRTY);
        return m_c2c;
    }

    // Miss: another L1 may hold the line (its data is already in W).
    if (m_scu.l1s().size() > 1) {
        for (l1_cache* p : m_scu.l1s()) {
            int ps = p == this ? -1 : p->snoop_find(lpa);
            if (ps < 0)
                continue;
            uint8_t f = 0;
            if (is_write) {
                if (p->snoop_take(ps))
                    f |= LINE_DIRTY;
                for (l1_cache* q : m_scu.l1s()) {
                    int qs = (q == this || q == p) ? -1 : q->snoop_find(lpa);
                    if (qs >= 0 && q->snoop_take(qs))
                        f |= LINE_DIRTY;
                }
                f |= LINE_DIRTY;
                m_stats.write_misses++;
            } else {
                p->snoop_share(ps);
                f = LINE_SHARED;
                m_stats.read_misses++;
                m_stats.miss_ps += m_c2c;
            }
            int s2 = make_room(lpa, t);
            m_arr.install(s2, lpa, f);
            m_stats.c2c++;
            return m_c2c;
        }
    }

    slot = make_room(lpa, t);
    const tick_t done = fill(slot, lpa, t);
    tick_t lat = done - t;
    if (is_write) {
        m_stats.write_misses++;
        m_arr.set_flags(slot, LINE_DIRTY);
        lat = std::max(m_hit, lat / m_cfg.outstanding_writes);
    } else {
        m_stats.read_misses++;
        m_stats.miss_ps += lat;
        for (unsigned k = 1; k <= m_cfg.prefetch_lines; k++) {
            const uint64_t npa = lpa + (uint64_t)k * m_arr.line_bytes();
            if (!m_mem.contains(npa) || m_mem.is_uncached(npa) || m_arr.find(npa) >= 0)
                continue;
            bool elsewhere = false;
            for (l1_cache* p : m_scu.l1s())
                elsewhere |= p != this && p->snoop_find(npa) >= 0;
            if (elsewhere)
                continue;
            fill(make_room(npa, done), npa, done);
            m_stats.prefetches++;
        }
    }
    return lat;
}

tick_t l1_cache::uncached(uint64_t pa, unsigned len, bool is_write, tick_t t)
{
    // W aliases D on uncached ranges: only time moves here.
    if (is_write) {
        m_stats.uncached_writes++;
        const tick_t acc = l2_call(tlm::TLM_WRITE_COMMAND, pa, nullptr, len, true, true, t);
        note_posted(acc);
        return m_hit;  // posted into the write buffer
    }
    m_stats.uncached_reads++;
    return l2_call(tlm::TLM_READ_COMMAND, pa, nullptr, len, true, false, t) - t;
}

// A load or store of len bytes at pa: uncached, or line by line through the cache.
inline tick_t l1_cache::access_bytes(uint64_t pa, unsigned len, bool write, tick_t t)
{
    if (m_mem.is_uncached(pa))
        return uncached(pa, len, write, t);
    return access_cached(pa, len, write, t);
}

tick_t l1_cache::access_cached(uint64_t pa, unsigned len, bool write, tick_t t)
{
    const uint64_t lpa = pa & m_line_mask;
    const uint64_t last = (pa + (len ? len : 1) - 1) & m_line_mask;
    if (lpa == last) {
        // One line (nearly every load and store): the slot of the latest
        // hit is tried before the tag lookup, which finds the same slot.
        return access_line_at(lpa, m_arr.find_hinted(m_hint, lpa), write, t);
    }
    return access_lines(lpa, last, write, t);
}

// Out of line: the one-line path above keeps clear of the loop's saved registers.
__attribute__((noinline)) tick_t l1_cache::access_lines(uint64_t lpa, uint64_t last, bool write, tick_t t)
{
    tick_t lat = 0;
    for (uint64_t l = lpa; l <= last; l += m_arr.line_bytes())
        lat += access_line(l, write, t + lat);
    return lat;
}

tick_t l1_cache::read_lines(uint64_t lpa, unsigned n, tick_t t, int* slots)
{
    if (!slots) {  // no hints: in chunks, every line looked up
        int none[32];
        tick_t extra = 0;
        for (unsigned i = 0; i < n; i += 32) {
            const unsigned k = std::min(32u, n - i);
            std::fill_n(none, k, -1);
            extra += read_lines(lpa + (uint64_t)i * m_arr.line_bytes(), k, t + extra, none);
        }
        return extra;
    }
    tick_t extra = 0;
    m_stats.read_hits += m_arr.touch_lines(lpa, n, slots, [&](unsigned, uint64_t a) {
        const tick_t lat = access_line_slow(a, -1, false, t + extra);
        extra += lat > m_hit ? lat - m_hit : 0;
    });
    return extra;
}

tick_t l1_cache::read(uint64_t pa, unsigned len, tick_t t) { return access_bytes(pa, len, false, t); }

tick_t l1_cache::write(uint64_t pa, unsigned len, tick_t t) { return access_bytes(pa, len, true, t); }

void l1_cache::apply_maint(l1_op op, uint64_t pa, tick_t t)
{
    const int slot = m_arr.find(pa);
    if (slot >= 0)
        apply_maint_slot(op, slot, t);
}

void l1_cache::apply_maint_slot(l1_op op, int slot, tick_t t)
{
    if (op == l1_op::inv && m_cfg.inv_is_clean_inv)
        op = l1_op::clean_inv;
    if (m_arr.dirty(slot)) {
        if (op == l1_op::inv)
            m_stats.dirty_lost++;
        else
            writeback(slot, t);
    }
    if (op != l1_op::clean)
        m_arr.drop(slot);
}

tick_t l1_cache::maint(l1_op op, uint64_t pa, tick_t t)
{
    const uint64_t lpa = pa & m_line_mask;
    switch (op) {
    case l1_op::inv: m_stats.inv_ops++; break;
    case l1_op::clean: m_stats.clean_ops++; break;
    case l1_op::clean_inv: m_stats.clean_inv_ops++; break;
    }
    // Broadcast (ACTLR.FW): every L1 applies it; a dirty copy elsewhere is
    // written back by its owner, on this core's time.
    for (l1_cache* p : m_scu.l1s())
        if (!p->empty())
            p->apply_maint(op, lpa, t + m_maint_line);
    m_stats.maint_ps += m_maint_line;
    return m_maint_line;
}

tick_t l1_cache::maint_lines(l1_op op, uint64_t pa, unsigned n, tick_t t)
{
    const uint64_t lpa = pa & m_line_mask;
    switch (op) {
    case l1_op::inv: m_stats.inv_ops += n; break;
    case l1_op::clean: m_stats.clean_ops += n; break;
    case l1_op::clean_inv: m_stats.clean_inv_ops += n; break;
    }
    for (l1_cache* p : m_scu.l1s()) {
        if (p->empty())
            continue;
        p->m_arr.for_each_resident(lpa, n, [&](unsigned k, int slot) {
            p->apply_maint_slot(op, slot, t + (k + 1) * m_maint_line);
        });
    }
    m_stats.maint_ps += n * m_maint_line;
    return n * m_maint_line;
}

tick_t l1_cache::dsb(tick_t t)
{
    m_stats.dsbs++;
    tick_t lat = m_clk.cycles(m_cfg.dsb_cycles);
    if (m_posted_until > t + lat)
        lat = m_posted_until - t;
    m_stats.maint_ps += lat;
    return lat;
}

void l1_cache::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay)
{
    const tick_t t = now_ps() + to_ps(delay);
    const uint64_t pa = gp.get_address();
    const unsigned len = gp.get_data_length();
    if (!m_mem.contains(pa) || !m_mem.is_backed(pa, len)) {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    tick_t lat;
    if (gp.is_read()) {
        lat = read(pa, len, t);
        std::memcpy(gp.get_data_ptr(), m_mem.cpu_view(pa), len);
    } else {
        lat = write(pa, len, t);
        std::memcpy(m_mem.cpu_view(pa), gp.get_data_ptr(), len);
    }
    delay += from_ps(lat);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace models::cache
