#include "drivers/khost/coherence.h"
#include "drivers/khost/symbolize.h"
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include "drivers/shim/simhost.h"
#include "mem/mem_ext.h"

namespace khost {

static constexpr unsigned LINE_SHIFT = 5;  // 32-B lines (Cortex-A9 L1, PL310)
static constexpr uint64_t LINE = 1u << LINE_SHIFT;

const char* cv_kind_name(cv_kind k)
{
    switch (k) {
    case cv_kind::stale_read: return "stale_read";
    case cv_kind::lost_dma_data: return "lost_dma_data";
    case cv_kind::cpu_owned_by_dev: return "cpu_access_device_owned";
    case cv_kind::partial_sync_miss: return "partial_sync_miss";
    case cv_kind::dev_write_cpu_owned: return "device_write_cpu_owned";
    case cv_kind::shared_line: return "shared_cache_line";
    case cv_kind::api_misuse: return "api_misuse";
    case cv_kind::heap_out_of_bounds: return "heap_out_of_bounds";
    case cv_kind::use_after_free: return "use_after_free";
    case cv_kind::double_free: return "double_free";
    case cv_kind::invalid_free: return "invalid_free";
    case cv_kind::memory_leak: return "memory_leak";
    }
    return "?";
}

bool cv_kind_is_memory_check(const std::string& k)
{
    for (cv_kind c : {cv_kind::heap_out_of_bounds, cv_kind::use_after_free, cv_kind::double_free,
                      cv_kind::invalid_free, cv_kind::memory_leak})
        if (k == cv_kind_name(c))
            return true;
    return false;
}

const char* api_rule_name(api_rule r)
{
    switch (r) {
    case api_rule::none: return "";
    case api_rule::unmap_not_mapped: return "unmap_not_mapped";
    case api_rule::unmap_invalid: return "unmap_invalid";
    case api_rule::unmap_size: return "unmap_size";
    case api_rule::unmap_direction: return "unmap_direction";
    case api_rule::unmap_function: return "unmap_function";
    case api_rule::free_cpu_address: return "free_cpu_address";
    case api_rule::map_error_unchecked: return "map_error_unchecked";
    case api_rule::map_not_dmaable: return "map_not_dmaable";
    case api_rule::map_overlap: return "map_overlap";
    case api_rule::sync_not_mapped: return "sync_not_mapped";
    case api_rule::sync_outside: return "sync_outside";
    case api_rule::sync_direction: return "sync_direction";
    case api_rule::sync_ro_for_cpu: return "sync_ro_for_cpu";
    case api_rule::sync_wo_for_device: return "sync_wo_for_device";
    case api_rule::free_while_mapped: return "free_while_mapped";
    case api_rule::mapping_leak: return "mapping_leak";
    }
    return "?";
}

static const char* dir_name(int d)
{
    static const char* const n[] = {"DMA_BIDIRECTIONAL", "DMA_TO_DEVICE", "DMA_FROM_DEVICE", "DMA_NONE"};
    return d >= 0 && d < 4 ? n[d] : "?";
}

coherence_checker::coherence_checker(models::mem::phys_mem& mem, alloc_query q)
    : m_mem(mem), m_alloc(std::move(q)), m_base(mem.base()), m_bits((mem.backed() / LINE + 63) / 64, 0),
      m_nbits(m_bits.size() * 64), m_map_bits(m_bits.size(), 0), m_poison_bits(m_bits.size(), 0),
      m_end_bits(m_bits.size(), 0),
      m_base_line(mem.base() >> LINE_SHIFT), m_win_lines(mem.backed() >> LINE_SHIFT),
      m_chunks((m_win_lines + (1u << CHUNK_SHIFT) - 1) >> CHUNK_SHIFT)
{
    // dram_write looks only at mapped lines, all inside the bit maps.
    observe_lo = m_base;
    observe_hi = m_base + m_nbits * LINE;
}

coherence_checker::line_state* coherence_checker::far_line(uint64_t l)
{
    auto it = m_far.find(l);
    return it != m_far.end() ? &it->second : nullptr;
}

void coherence_checker::drop_line(uint64_t l, line_state& st)
{
    if (l - m_base_line < m_win_lines)
        st.live = false;
    else {
        m_far.erase(l);
        m_far_site.erase(l);
    }
}

// Calls f(l, st) for lines first..last in order, st their slot: with
// alloc, every slot (chunks allocated); without, nullptr for a line in no
// chunk (a slot passed may still be free: see live). One table lookup per
// 4-KiB page.
template <bool alloc, class F>
void coherence_checker::walk(uint64_t first, uint64_t last, F&& f)
{
    constexpr uint64_t mask = (1u << CHUNK_SHIFT) - 1;
    for (uint64_t l = first; l <= last;) {
        const uint64_t i = l - m_base_line;
        if (i >= m_win_lines) {
            f(l, alloc ? &m_far[l] : far_line(l));
            l++;
            continue;
        }
        const uint64_t n = std::min({last - l, mask - (i & mask), m_win_lines - 1 - i}) + 1;
        std::unique_ptr<line_chunk>& c = m_chunks[i >> CHUNK_SHIFT];
        if (alloc && !c)
            c.reset(new line_chunk());
        line_state* st = c ? &c->s[i & mask] : nullptr;
        for (uint64_t k = 0; k < n; k++, l++)
            f(l, st ? st + k : nullptr);
    }
}

void coherence_checker::reset_stats()
{
    // Violations found during warm-up stay listed: a bug is a bug.
    m_stats.synced_bytes = m_stats.touched_bytes = 0;
}

void coherence_checker::set_bit(uint64_t line, bool on)
{
    const uint64_t l = line - m_base_line;
    if (l >= m_nbits)
        return;
    if (on)
        m_map_bits[l / 64] |= 1ull << (l % 64);
    else
        m_map_bits[l / 64] &= ~(1ull << (l % 64));
    m_bits[l / 64] = m_map_bits[l / 64] | m_poison_bits[l / 64];
}

// Bits [i0, i1] (inclusive) of a bitmap, a word at a time.
static void set_bits(std::vector<uint64_t>& v, uint64_t i0, uint64_t i1, bool on)
{
    if (i1 / 64 > i0 / 64 + 1) {  // whole words in between at once (the heap at start)
        std::fill(v.begin() + (long)(i0 / 64 + 1), v.begin() + (long)(i1 / 64), on ? ~0ull : 0);
        set_bits(v, i0, i0 | 63, on);
        set_bits(v, i1 & ~63ull, i1, on);
        return;
    }
    for (uint64_t w = i0 / 64; w <= i1 / 64; w++) {
        const uint64_t lo = w == i0 / 64 ? i0 % 64 : 0, hi = w == i1 / 64 ? i1 % 64 : 63;
        const uint64_t m = (hi == 63 ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1);
        v[w] = on ? v[w] | m : v[w] & ~m;
    }
}

void coherence_checker::set_map_bits(uint64_t first, uint64_t last, bool on)
{
    // As set_bit: lines outside the bitmaps have no bit.
    const uint64_t lo = std::max(first, m_base_line), hi = std::min(last, m_base_line + m_nbits - 1);
    if (lo > hi)
        return;
    const uint64_t i0 = lo - m_base_line, i1 = hi - m_base_line;
    set_bits(m_map_bits, i0, i1, on);
    for (uint64_t w = i0 / 64; w <= i1 / 64; w++)
        m_bits[w] = m_map_bits[w] | m_poison_bits[w];
}

static bool any_bits(const std::vector<uint64_t>& v, uint64_t i0, uint64_t i1)
{
    for (uint64_t w = i0 / 64; w <= i1 / 64; w++) {
        const uint64_t lo = w == i0 / 64 ? i0 % 64 : 0, hi = w == i1 / 64 ? i1 % 64 : 63;
        const uint64_t m = (hi == 63 ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1);
        if (v[w] & m)
            return true;
    }
    return false;
}

// Line indices of [pa, pa+len) in the bitmaps, clipped to the backed window
// (false: none of it is there).
bool coherence_checker::line_range(uint64_t pa, uint64_t len, uint64_t* i0, uint64_t* i1) const
{
    const uint64_t n = m_bits.size() * 64;
    if (!len || pa < m_base || ((pa - m_base) >> LINE_SHIFT) >= n)
        return false;
    *i0 = (pa - m_base) >> LINE_SHIFT;
    *i1 = std::min<uint64_t>((pa + len - 1 - m_base) >> LINE_SHIFT, n - 1);
    return true;
}

void coherence_checker::poison(uint64_t pa, uint64_t len, bool on)
{
    uint64_t i0, i1;
    if (!line_range(pa, len, &i0, &i1))
        return;
    set_bits(m_poison_bits, i0, i1, on);
    for (uint64_t w = i0 / 64; w <= i1 / 64; w++)  // m_bits = m_map_bits | m_poison_bits
        m_bits[w] = m_map_bits[w] | m_poison_bits[w];
}

void coherence_checker::mark_end(uint64_t pa, bool on)
{
    uint64_t i0, i1;
    if (line_range(pa, 1, &i0, &i1))
        set_bits(m_end_bits, i0, i1, on);
}

bool coherence_checker::reaches_end(uint64_t pa, uint64_t len) const
{
    uint64_t i0, i1;
    return line_range(pa, len, &i0, &i1) && any_bits(m_end_bits, i0, i1);
}

bool coherence_checker::freed_under_mapping(uint64_t pa, uint64_t len, uint64_t* map_pa, const void** map_site)
{
    uint64_t i0, i1;
    if (!line_range(pa, len, &i0, &i1) || !any_bits(m_map_bits, i0, i1))
        return false;
    for (uint64_t l = pa >> LINE_SHIFT; l <= (pa + len - 1) >> LINE_SHIFT; l++) {
        const uint64_t i = l - (m_base >> LINE_SHIFT);
        if (i / 64 >= m_bits.size() || !((m_map_bits[i / 64] >> (i % 64)) & 1))
            continue;
        const line_state* st = line(l);
        if (!st)
            continue;
        mapping& m = m_maps[st->map];
        m.buf_freed = true;
        *map_pa = m.pa;
        *map_site = m.map_site;
        return true;
    }
    return false;
}

void coherence_checker::for_each_mapping(
    const std::function<void(uint64_t, uint64_t, const void*, bool)>& f) const
{
    for (const auto& m : m_maps)
        if (m.live)
            f(m.pa, m.size, m.map_site, m.buf_freed);
}

coherence_checker::mapping* coherence_checker::find_mapping(uint64_t pa)
{
    // While no two live mappings ever shared a line, the live mappings are
    // line-disjoint and their lines' states name them: the one containing
    // pa, if any, is the state's (the map walk below gives the same answer).
    if (!m_lines_shared) {
        const line_state* st = line(pa >> LINE_SHIFT);
        if (!st)
            return nullptr;
        mapping& m = m_maps[st->map];
        return m.live && pa >= m.pa && pa < m.pa + m.size ? &m : nullptr;
    }
    auto it = m_by_pa.upper_bound(pa);
    if (it == m_by_pa.begin())
        return nullptr;
    --it;
    mapping& m = m_maps[it->second];
    return m.live && pa < m.pa + m.size ? &m : nullptr;
}

void coherence_checker::report(cv_kind k, uint64_t pa, const mapping* m, const void* site, const std::string& detail)
{
    report_ext(k, api_rule::none, pa, m ? m->pa : 0, m ? m->size : 0, site, detail);
}

void coherence_checker::report_ext(cv_kind k, api_rule r, uint64_t pa, uint64_t buf_pa, uint64_t buf_len,
                                   const void* site, const std::string& detail, const void* site2,
                                   const char* what2, const void* site3, const char* what3, uint64_t count)
{
    m_stats.events += count;
    const auto key = std::make_pair((int)k | (int)r << 8, site);
    auto it = m_seen.find(key);
    if (it != m_seen.end()) {
        m_list[it->second].count += count;
        return;
    }
    m_seen[key] = m_list.size();
    violation v{k, pa, buf_pa, buf_len, site, "", detail, count};
    v.rule = r;
    v.site2 = site2;
    v.site2_what = what2;
    v.site3 = site3;
    v.site3_what = what3;
    if (m_call_stack)
        v.callers = m_call_stack();
    if (m_context)
        v.context = m_context();
    m_list.push_back(std::move(v));
    m_stats.violations++;
}

// A read outside the last sync_for_cpu's range: where it fell in the
// buffer, what that sync covered, and the sync's own line.
void coherence_checker::partial_miss(uint64_t pa, const mapping& m, const void* site)
{
    char buf[200];
    if (!m.cpu_sync_current || !m.cpu_sync_len) {
        std::snprintf(buf, sizeof buf,
                      "read at byte %llu of the buffer; no sync_for_cpu since it was mapped or last synced for the device",
                      (unsigned long long)(pa - m.pa));
        report(cv_kind::partial_sync_miss, pa, &m, site, buf);
        return;
    }
    std::snprintf(buf, sizeof buf, "read at byte %llu of the buffer; its last sync_for_cpu covered bytes %llu-%llu",
                  (unsigned long long)(pa - m.pa), (unsigned long long)m.cpu_sync_off,
                  (unsigned long long)(m.cpu_sync_off + m.cpu_sync_len - 1));
    report_ext(cv_kind::partial_sync_miss, api_rule::none, pa, m.pa, m.size, site, buf, m.cpu_sync_site,
               "that sync_for_cpu at");
}

// The rule's name leads the detail, so summaries and regress tell rules apart.
void coherence_checker::misuse(api_rule r, uint64_t pa, const mapping* m, const void* site, const std::string& detail,
                               const void* site2, const char* what2)
{
    report_ext(cv_kind::api_misuse, r, pa, m ? m->pa : 0, m ? m->size : 0, site,
               std::string(api_rule_name(r)) + ": " + detail, site2, what2);
}

void coherence_checker::on_not_dmaable(const void* p, uint64_t size, const void* site)
{
    char buf[160];
    std::snprintf(buf, sizeof buf, "maps %p+%llu, which is not simulated kernel memory (stack, driver data, host heap)",
                  p, (unsigned long long)size);
    misuse(api_rule::map_not_dmaable, 0, nullptr, site, buf);
}

void coherence_checker::on_coherent_alloc(uint64_t handle, uint64_t cpu_pa, uint64_t size, const void* site)
{
    m_coherent[handle] = coherent{cpu_pa, size, site};
}

bool coherence_checker::on_coherent_free(uint64_t handle, uint64_t cpu_pa, uint64_t size, const void* site)
{
    auto it = m_coherent.find(handle);
    if (it == m_coherent.end()) {
        auto s = m_by_pa.find(handle);
        if (s != m_by_pa.end() && m_maps[s->second].live)
            misuse(api_rule::unmap_function, handle, &m_maps[s->second], site,
                   "dma_free_coherent of a dma_map_single mapping", m_maps[s->second].map_site, "mapped at");
        else
            misuse(api_rule::unmap_not_mapped, handle, nullptr, site,
                   "dma_free_coherent of memory dma_alloc_coherent did not allocate");
        return false;
    }
    const coherent& c = it->second;
    if (c.size != size)
        report_ext(cv_kind::api_misuse, api_rule::unmap_size, handle, handle, c.size, site,
                   std::string("unmap_size: dma_free_coherent size ") + std::to_string(size) +
                       " differs from the allocation's " + std::to_string(c.size),
                   c.site, "allocated at");
    if (c.cpu_pa != cpu_pa)
        report_ext(cv_kind::api_misuse, api_rule::free_cpu_address, handle, handle, c.size, site,
                   "free_cpu_address: dma_free_coherent with a CPU address other than the allocation's", c.site,
                   "allocated at");
    m_coherent.erase(it);
    return true;
}

void coherence_checker::on_dma(int op, uint64_t pa, uint64_t size, int dir, const void* site)
{
    const uint64_t first = pa >> LINE_SHIFT, last = (pa + (size ? size : 1) - 1) >> LINE_SHIFT;
    const bool skip_sync = op & SIMHOST_DMA_ATTR_SKIP_CPU_SYNC;
    op &= ~SIMHOST_DMA_ATTR_SKIP_CPU_SYNC;
    if (op == SIMHOST_DMA_MAPPING_ERROR) {
        // As the kernel: the newest unchecked mapping at exactly this address.
        auto it = m_by_pa.find(pa);
        if (it != m_by_pa.end())
            m_maps[it->second].err_checked = true;
        return;
    }
    if (op == SIMHOST_DMA_MAP) {
        if (pa == SIMHOST_DMA_BAD_ADDR)
            return;  // reported by on_not_dmaable; nothing is mapped
        if (m_mem.is_uncached(pa))
            misuse(api_rule::map_not_dmaable, pa, nullptr, site,
                   "dma_map_single of dma_alloc_coherent memory (the kernel sees a vmalloc-area address)");
        for (uint64_t l = first; l <= last; l++)
            if (line(l)) {
                m_lines_shared = true;
                const mapping* o = find_mapping(l << LINE_SHIFT);
                // As kernel/dma/debug.c (active_cacheline_insert): when
                // neither mapping lets the device write, the CPU cannot
                // consume stale data through the shared line.
                if (dir == 1 && o && o->dir == 1)
                    continue;
                misuse(api_rule::map_overlap, pa, o, site, "buffer mapped twice", o ? o->map_site : nullptr,
                       "first mapped at");
                break;
            }
        uint64_t as = 0, al = 0;
        if (m_alloc(pa, &as, &al)) {
            uint64_t os = 0, ol = 0;
            const uint64_t lo = first << LINE_SHIFT, hi = ((last + 1) << LINE_SHIFT) - 1;
            if ((lo < as && m_alloc(lo, &os, &ol) && os != as) || (hi >= as + al && m_alloc(hi, &os, &ol) && os != as))
                report(cv_kind::shared_line, pa, nullptr, site, "a line of the buffer also holds another allocation");
        }
        const uint32_t idx = (uint32_t)m_maps.size();
        m_maps.push_back({pa, size, dir, site});
        m_by_pa[pa] = idx;
        walk<true>(first, last, [&](uint64_t l, line_state* st) {
            *st = line_state{idx};
            write_site(l) = nullptr;
            // DMA_ATTR_SKIP_CPU_SYNC: nothing handed over yet; a
            // sync_for_device gives the device its part (a page pool's
            // [offset, offset + max_len)).
            st->cpu_owned = skip_sync;
            st->live = true;
        });
        set_map_bits(first, last, true);
        if (skip_sync)
            m_maps[idx].cpu_lines = last - first + 1;
        return;
    }
    if (op == SIMHOST_DMA_UNMAP) {
        auto it = m_by_pa.find(pa);
        if (it == m_by_pa.end() || !m_maps[it->second].live) {
            if (pa == SIMHOST_DMA_BAD_ADDR) {
                misuse(api_rule::unmap_invalid, pa, nullptr, site, "unmap of the DMA_MAPPING_ERROR address");
                return;
            }
            if (m_coherent.count(pa)) {
                misuse(api_rule::unmap_function, pa, nullptr, site, "dma_unmap_single of dma_alloc_coherent memory",
                       m_coherent[pa].site, "allocated at");
                return;
            }
            auto d = m_dead_by_pa.find(pa);
            if (d != m_dead_by_pa.end())
                misuse(api_rule::unmap_not_mapped, pa, &m_maps[d->second], site, "unmap of a mapping already unmapped",
                       m_maps[d->second].unmap_site, "unmapped at");
            else
                misuse(api_rule::unmap_not_mapped, pa, nullptr, site, "unmap of an address that is not mapped");
            return;
        }
        mapping& m = m_maps[it->second];
        if (m.size != size)
            misuse(api_rule::unmap_size, pa, &m, site,
                   "unmap size " + std::to_string(size) + " differs from the mapping's " + std::to_string(m.size),
                   m.map_site, "mapped at");
        if (m.dir != dir)
            misuse(api_rule::unmap_direction, pa, &m, site,
                   std::string("unmapped with ") + dir_name(dir) + ", mapped with " + dir_name(m.dir), m.map_site,
                   "mapped at");
        if (!m.err_checked)
            misuse(api_rule::map_error_unchecked, pa, &m, m.map_site,
                   "the mapping was used and unmapped without dma_mapping_error() on its address", site,
                   "unmapped at");
        if (dir != 1 && !skip_sync)  // not DMA_TO_DEVICE: the unmap invalidates for the CPU
            m_stats.synced_bytes += m.size;
        const uint64_t mf = m.pa >> LINE_SHIFT, ml = (m.pa + m.size - 1) >> LINE_SHIFT;
        walk<false>(mf, ml, [&](uint64_t l, line_state* st) {
            // A line a newer (overlapping) mapping took stays with it.
            if (st && st->live && &m_maps[st->map] == &m) {
                drop_line(l, *st);
                set_bit(l, false);
            }
        });
        m.live = false;
        m.unmap_site = site;
        m_dead_by_pa[pa] = it->second;
        m_by_pa.erase(it);
        return;
    }
    const bool to_cpu = op == SIMHOST_DMA_SYNC_CPU;
    mapping* m = find_mapping(pa);
    if (!m) {
        misuse(api_rule::sync_not_mapped, pa, nullptr, site, "sync of an address that is not mapped");
        return;
    }
    if (pa + size > m->pa + m->size)
        misuse(api_rule::sync_outside, pa, m, site,
               "sync of " + std::to_string(pa - m->pa) + "+" + std::to_string(size) +
                   " beyond the end of the mapping (" + std::to_string(m->size) + " bytes)",
               m->map_site, "mapped at");
    if (m->dir != 0 && m->dir != dir) {  // a bidirectional mapping may be synced either way
        misuse(api_rule::sync_direction, pa, m, site,
               std::string("synced with ") + dir_name(dir) + ", mapped with " + dir_name(m->dir), m->map_site,
               "mapped at");
        if (to_cpu && m->dir != 2 && dir != 1)
            misuse(api_rule::sync_ro_for_cpu, pa, m, site,
                   "sync_for_cpu of device read-only memory (mapped DMA_TO_DEVICE)", m->map_site, "mapped at");
        if (!to_cpu && m->dir != 1 && dir != 2)
            misuse(api_rule::sync_wo_for_device, pa, m, site,
                   "sync_for_device of device write-only memory (mapped DMA_FROM_DEVICE)", m->map_site, "mapped at");
    }
    const uint64_t lim = (m->pa + m->size - 1) >> LINE_SHIFT;
    // A line of m that an overlapping mapping took and dropped again has no
    // state: it gets a fresh one (mapping 0's index), as the hash map's
    // operator[] gave it.
    if (to_cpu)
        walk<true>(first, std::min(last, lim), [&](uint64_t l, line_state* st) {
            if (!st->live) {
                *st = line_state{0, false, false, false, true};
                write_site(l) = nullptr;
            }
            if (!st->cpu_owned) {
                st->cpu_owned = true;
                m->cpu_lines++;
            }
            if (dir != 1)
                st->dev_written = false;  // invalidated: the CPU now reads DRAM
        });
    else
        walk<true>(first, std::min(last, lim), [&](uint64_t l, line_state* st) {
            if (!st->live) {
                *st = line_state{0, false, false, false, true};
                write_site(l) = nullptr;
            }
            if (st->cpu_owned) {
                st->cpu_owned = false;
                m->cpu_lines--;
            }
        });
    if (op == SIMHOST_DMA_SYNC_CPU) {
        m->cpu_sync_site = site;
        m->cpu_sync_off = pa - m->pa;
        m->cpu_sync_len = size;
        m->cpu_sync_current = true;
        m_stats.synced_bytes += size;
    } else {
        m->cpu_sync_current = false;
    }
}

void coherence_checker::on_cpu(uint64_t pa, uint64_t len, bool write, const void* site)
{
    for (uint64_t a = pa; a < pa + len;) {
        const uint64_t l = a >> LINE_SHIFT;
        const uint64_t end = std::min<uint64_t>((l + 1) << LINE_SHIFT, pa + len);
        if (line_state* p = line(l)) {
            line_state& st = *p;
            mapping& m = m_maps[st.map];
            // Stale: the device wrote after this copy was cached and nobody
            // invalidated; the bytes the CPU now holds differ from DRAM.
            if (!write && st.dev_written && !st.cpu_owned_write &&
                m_mem.is_backed(a, end - a) &&
                std::memcmp(m_mem.cpu_view(a), m_mem.dram_view(a), end - a) != 0) {
                report(cv_kind::stale_read, a, &m, site);
            } else if (!st.cpu_owned && (write || m.dir != 1)) {
                // Reading a line mapped DMA_TO_DEVICE is not one: the device
                // only reads it, and the map's clean made DRAM what the CPU sees.
                if (!write && m.cpu_lines)
                    partial_miss(a, m, site);
                else
                    report(cv_kind::cpu_owned_by_dev, a, &m, site, write ? "write" : "read");
            } else if (!write) {
                m_stats.touched_bytes += end - a;
            }
            if (write) {
                write_site(l) = site;
                st.cpu_owned_write = true;
            }
        } else if (m_fault) {
            const uint64_t i = l - (m_base >> LINE_SHIFT);
            if (i / 64 < m_bits.size() && ((m_poison_bits[i / 64] >> (i % 64)) & 1))
                m_fault(a, end - a, write, site);
        }
        a = end;
    }
}

void coherence_checker::dram_write(uint64_t pa, unsigned len, uint8_t master)
{
    if (!mapped_line(pa) && !mapped_line(pa + len - 1))
        return;
    for (uint64_t l = pa >> LINE_SHIFT; l <= (pa + len - 1) >> LINE_SHIFT; l++) {
        line_state* p = line(l);
        if (!p)
            continue;
        line_state& st = *p;
        mapping& m = m_maps[st.map];
        if (master == models::mem::MASTER_ENET) {
            if (st.cpu_owned)
                report(cv_kind::dev_write_cpu_owned, l << LINE_SHIFT, &m, m.cpu_sync_site,
                       "no sync_for_device since this sync_for_cpu");
            st.dev_written = true;
            st.cpu_owned_write = false;
        } else if (!st.cpu_owned && st.dev_written) {
            report(cv_kind::lost_dma_data, l << LINE_SHIFT, &m, write_site(l),
                   "a dirty CPU line was written back over device data");
        }
    }
}

// Symbolises a code address with the object's debug information: the
// innermost inlined frame that is not in a shim header (memcpy, skb_put...)
// names the driver's function and source line.
std::string coherence_checker::where_of(const void* site) { return code_site(site, true); }

void coherence_checker::symbolize(violation& v)
{
    if (!v.where.empty())
        return;
    v.where = where_of(v.site);
    // In the shim's code on the driver's behalf (eth_type_trans, the stack,
    // a page pool): the driver line that called into it. Called by fecsim's
    // own code instead (the reader's recvmsg): who ran it.
    if (is_shim_code(v.site, true)) {
        bool named = false;
        for (const void* c : v.callers) {
            if (in_main_program(c))
                break;
            if (!is_shim_code(c, true)) {
                v.where += ", called from " + where_of(c);
                named = true;
                break;
            }
        }
        if (!named && !v.context.empty())
            v.where += ", in " + v.context;
    }
    if (v.site2)
        v.detail += std::string("; ") + (v.site2_what ? v.site2_what : "see") + " " + where_of(v.site2);
    if (v.site3)
        v.detail += std::string("; ") + (v.site3_what ? v.site3_what : "see") + " " + where_of(v.site3);
}

// End of run: mappings never checked with dma_mapping_error() and still
// live (the check at unmap never came), then khost's leak scan.
void coherence_checker::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    for (const auto& m : m_maps)
        if (m.live && !m.err_checked)
            misuse(api_rule::map_error_unchecked, m.pa, &m, m.map_site,
                   "live at the end of run, never checked with dma_mapping_error()");
    if (m_finish)
        m_finish();
}

const std::vector<violation>& coherence_checker::violations()
{
    finish();
    for (auto& v : m_list)
        symbolize(v);
    return m_list;
}

} // namespace khost
