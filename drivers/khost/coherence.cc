#include "drivers/khost/coherence.h"
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
    }
    return "?";
}

coherence_checker::coherence_checker(models::mem::phys_mem& mem, alloc_query q)
    : m_mem(mem), m_alloc(std::move(q)), m_base(mem.base()), m_bits((mem.backed() / LINE + 63) / 64, 0)
{
}

void coherence_checker::reset_stats()
{
    // Violations found during warm-up stay listed: a bug is a bug.
    m_stats.synced_bytes = m_stats.touched_bytes = 0;
}

void coherence_checker::set_bit(uint64_t line, bool on)
{
    const uint64_t l = line - (m_base >> LINE_SHIFT);
    if (l / 64 >= m_bits.size())
        return;
    if (on)
        m_bits[l / 64] |= 1ull << (l % 64);
    else
        m_bits[l / 64] &= ~(1ull << (l % 64));
}

coherence_checker::mapping* coherence_checker::find_mapping(uint64_t pa)
{
    auto it = m_by_pa.upper_bound(pa);
    if (it == m_by_pa.begin())
        return nullptr;
    --it;
    mapping& m = m_maps[it->second];
    return m.live && pa < m.pa + m.size ? &m : nullptr;
}

void coherence_checker::report(cv_kind k, uint64_t pa, const mapping* m, const void* site, const std::string& detail)
{
    m_stats.events++;
    const auto key = std::make_pair((int)k, site);
    auto it = m_seen.find(key);
    if (it != m_seen.end()) {
        m_list[it->second].count++;
        return;
    }
    m_seen[key] = m_list.size();
    m_list.push_back({k, pa, m ? m->pa : 0, m ? m->size : 0, site, "", detail, 1});
    m_stats.violations++;
}

void coherence_checker::on_dma(int op, uint64_t pa, uint64_t size, int dir, const void* site)
{
    const uint64_t first = pa >> LINE_SHIFT, last = (pa + (size ? size : 1) - 1) >> LINE_SHIFT;
    if (op == SIMHOST_DMA_MAP) {
        for (uint64_t l = first; l <= last; l++)
            if (m_lines.count(l)) {
                report(cv_kind::api_misuse, pa, find_mapping(l << LINE_SHIFT), site, "buffer mapped twice");
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
        for (uint64_t l = first; l <= last; l++) {
            m_lines[l] = line_state{idx};
            set_bit(l, true);
        }
        return;
    }
    if (op == SIMHOST_DMA_UNMAP) {
        auto it = m_by_pa.find(pa);
        if (it == m_by_pa.end() || !m_maps[it->second].live) {
            report(cv_kind::api_misuse, pa, nullptr, site, "unmap of an address that is not mapped");
            return;
        }
        mapping& m = m_maps[it->second];
        if (m.size != size)
            report(cv_kind::api_misuse, pa, &m, site, "unmap size differs from the mapping");
        if (m.dir != dir)
            report(cv_kind::api_misuse, pa, &m, site, "unmap direction differs from the mapping");
        if (dir != 1)  // not DMA_TO_DEVICE: the unmap invalidates for the CPU
            m_stats.synced_bytes += m.size;
        const uint64_t mf = m.pa >> LINE_SHIFT, ml = (m.pa + m.size - 1) >> LINE_SHIFT;
        for (uint64_t l = mf; l <= ml; l++) {
            m_lines.erase(l);
            set_bit(l, false);
        }
        m.live = false;
        m_by_pa.erase(it);
        return;
    }
    mapping* m = find_mapping(pa);
    if (!m) {
        report(cv_kind::api_misuse, pa, nullptr, site, "sync of an address that is not mapped");
        return;
    }
    if (pa + size > m->pa + m->size)
        report(cv_kind::api_misuse, pa, m, site, "sync beyond the end of the mapping");
    if (m->dir != dir)
        report(cv_kind::api_misuse, pa, m, site, "sync direction differs from the mapping");
    const uint64_t lim = (m->pa + m->size - 1) >> LINE_SHIFT;
    for (uint64_t l = first; l <= last && l <= lim; l++) {
        line_state& st = m_lines[l];
        if (op == SIMHOST_DMA_SYNC_CPU) {
            if (!st.cpu_owned) {
                st.cpu_owned = true;
                m->cpu_lines++;
            }
            if (dir != 1)
                st.dev_written = false;  // invalidated: the CPU now reads DRAM
        } else if (st.cpu_owned) {
            st.cpu_owned = false;
            m->cpu_lines--;
        }
    }
    if (op == SIMHOST_DMA_SYNC_CPU) {
        m->cpu_sync_site = site;
        m_stats.synced_bytes += size;
    }
}

void coherence_checker::on_cpu(uint64_t pa, uint64_t len, bool write, const void* site)
{
    for (uint64_t a = pa; a < pa + len;) {
        const uint64_t l = a >> LINE_SHIFT;
        const uint64_t end = std::min<uint64_t>((l + 1) << LINE_SHIFT, pa + len);
        auto it = m_lines.find(l);
        if (it != m_lines.end()) {
            line_state& st = it->second;
            mapping& m = m_maps[st.map];
            // Stale: the device wrote after this copy was cached and nobody
            // invalidated; the bytes the CPU now holds differ from DRAM.
            if (!write && st.dev_written && !st.cpu_owned_write &&
                m_mem.is_backed(a, end - a) &&
                std::memcmp(m_mem.cpu_view(a), m_mem.dram_view(a), end - a) != 0) {
                report(cv_kind::stale_read, a, &m, site);
            } else if (!st.cpu_owned) {
                report(!write && m.cpu_lines ? cv_kind::partial_sync_miss : cv_kind::cpu_owned_by_dev, a, &m, site,
                       write ? "write" : "read");
            } else if (!write) {
                m_stats.touched_bytes += end - a;
            }
            if (write) {
                st.last_write_site = site;
                st.cpu_owned_write = true;
            }
        }
        a = end;
    }
}

void coherence_checker::dram_write(uint64_t pa, unsigned len, uint8_t master)
{
    if (!tracked(pa) && !tracked(pa + len - 1))
        return;
    for (uint64_t l = pa >> LINE_SHIFT; l <= (pa + len - 1) >> LINE_SHIFT; l++) {
        auto it = m_lines.find(l);
        if (it == m_lines.end())
            continue;
        line_state& st = it->second;
        mapping& m = m_maps[st.map];
        if (master == models::mem::MASTER_ENET) {
            if (st.cpu_owned)
                report(cv_kind::dev_write_cpu_owned, l << LINE_SHIFT, &m, m.cpu_sync_site,
                       "no sync_for_device since this sync_for_cpu");
            st.dev_written = true;
            st.cpu_owned_write = false;
        } else if (!st.cpu_owned && st.dev_written) {
            report(cv_kind::lost_dma_data, l << LINE_SHIFT, &m, st.last_write_site,
                   "a dirty CPU line was written back over device data");
        }
    }
}

// Symbolises a code address with the object's debug information: the
// innermost inlined frame that is not in a shim header (memcpy, skb_put...)
// names the driver's function and source line.
void coherence_checker::symbolize(violation& v)
{
    if (!v.where.empty())
        return;
    Dl_info info{};
    if (!v.site || !dladdr(v.site, &info) || !info.dli_fname) {
        v.where = "(unknown site)";
        return;
    }
    const uintptr_t off = (uintptr_t)v.site - (uintptr_t)info.dli_fbase - 1;
    char cmd[1024];
    std::snprintf(cmd, sizeof cmd, "addr2line -f -i -e '%s' 0x%lx 2>/dev/null", info.dli_fname, (unsigned long)off);
    std::vector<std::string> lines;
    if (FILE* p = popen(cmd, "r")) {
        char buf[1024];
        while (std::fgets(buf, sizeof buf, p)) {
            std::string l = buf;
            while (!l.empty() && (l.back() == '\n' || l.back() == '\r'))
                l.pop_back();
            lines.push_back(l);
        }
        pclose(p);
    }
    std::string fn = info.dli_sname ? info.dli_sname : "?", loc;
    for (size_t i = 0; i + 1 < lines.size(); i += 2) {
        std::string file = lines[i + 1];
        const size_t disc = file.find(" (discriminator");
        if (disc != std::string::npos)
            file = file.substr(0, disc);
        if (file.find("/shim/include/") != std::string::npos)
            continue;
        fn = lines[i];
        const size_t slash = file.rfind('/');
        loc = slash == std::string::npos ? file : file.substr(slash + 1);
        break;
    }
    v.where = fn + (loc.empty() || loc[0] == '?' ? "" : " (" + loc + ")");
}

const std::vector<violation>& coherence_checker::violations()
{
    for (auto& v : m_list)
        symbolize(v);
    return m_list;
}

} // namespace khost
