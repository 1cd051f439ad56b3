#include "drivers/khost/khost.h"
#include "drivers/khost/app.h"
#include "drivers/khost/arm_dma.h"
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <unordered_set>
#include <link.h>
#include <unistd.h>
#include "cache/pl310_regs.h"
#include "common/log.h"
#include "drivers/shim/simhost.h"

namespace khost {

using namespace models;
using models::cpu::core;

static const param_desc k_kernel_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(kernel_config, __VA_ARGS__)
#include "drivers/khost/kernel_params.def"
#undef P
};
const param_table kernel_param_table = {"kernel", "the kernel the driver runs in: DMA profile, copy cost, memory layout, interrupt and task scheduling",
                                        k_kernel_rows, sizeof k_kernel_rows / sizeof k_kernel_rows[0]};

const stat_desc kernel_stat_rows[] = {
#define S(...) FEC_STAT_ROW(kernel_stats, __VA_ARGS__)
#include "drivers/khost/kernel_stats.def"
#undef S
};
const size_t kernel_stat_count = sizeof kernel_stat_rows / sizeof kernel_stat_rows[0];

kernel* kernel::s_instance = nullptr;

kernel::kernel(sc_core::sc_module_name nm, const kernel_config& cfg, cache::hierarchy& mem,
             std::vector<core*> cores, uint64_t mmio_base, uint64_t mmio_size)
    : sc_module(nm), mmio("mmio"), m_cfg(cfg), m_mem(mem), m_cores(std::move(cores)), m_mmio_base(mmio_base),
      m_mmio_size(mmio_size)
{
    m_irq_core = m_cores.empty() ? 0 : cfg.irq_core;
    if (m_irq_core >= m_cores.size())
        throw std::invalid_argument("kernel.irq_core is not one of the cores");
    const uint64_t base = mem.mem.base(), backed = mem.mem.backed();
    if (cfg.page_frag_bytes && (cfg.page_frag_bytes < 4096 || (cfg.page_frag_bytes & (cfg.page_frag_bytes - 1))))
        throw std::invalid_argument("kernel.page_frag_bytes must be 0 or a power of two of at least 4 KiB");
    if (cfg.pool_offset + cfg.pool_bytes > cfg.heap_offset || cfg.heap_offset >= backed)
        throw std::invalid_argument("kernel: pool must end before the heap, and the heap start inside dram.backed");
    m_pool.start = m_pool.next = base + cfg.pool_offset;
    m_pool.end = base + cfg.pool_offset + cfg.pool_bytes;
    m_heap.start = m_heap.next = base + cfg.heap_offset;
    m_heap.end = base + backed;
    mem.mem.map_uncached(m_pool.start, cfg.pool_bytes);
    m_w_base = (uintptr_t)mem.mem.cpu_base();
    m_w_size = backed;
    m_mmio_txn.ext.master = mem::MASTER_CPU0 + m_irq_core;
    m_checker.reset(new coherence_checker(mem.mem, [this](uint64_t pa, uint64_t* s, uint64_t* l) {
        return alloc_of(pa, s, l);
    }));
    mem.dram.set_observer(m_checker.get());
    // The heap is poisoned until allocated; the checker hands accesses there
    // to mem_fault and runs the leak scan when the run's violations are read.
    m_checker->poison(m_heap.start, m_heap.end - m_heap.start, true);
    m_checker->set_fault_handler(
        [this](uint64_t pa, uint64_t len, bool write, const void* site) { mem_fault(pa, len, write, site); });
    m_checker->set_finish([this] { leak_scan(); });
    m_checker->set_call_stack(caller_stack);
    s_instance = this;
}

kernel::~kernel()
{
    if (s_instance == this)
        s_instance = nullptr;
}

// ---------------------------------------------------------------- memory --

uint64_t kernel::take(region& r, uint64_t size, uint64_t align)
{
    auto it = r.free_by_size.find(size);
    if (it != r.free_by_size.end() && !it->second.empty()) {
        for (size_t k = it->second.size(); k-- > 0;) {
            const uint64_t pa = it->second[k];
            if (pa % align == 0) {
                it->second.erase(it->second.begin() + (long)k);
                return pa;
            }
        }
    }
    const uint64_t pa = (r.next + align - 1) / align * align;
    if (pa + size > r.end)
        return 0;
    r.next = pa + size;
    return pa;
}

void* kernel::alloc(size_t size, size_t align, bool uncached, int kind, const void* site)
{
    if (align < 64)
        align = 64;  // SMP_CACHE_BYTES: slab and page-frag objects do not share lines
    const uint64_t sz = uncached ? (size + 4095) / 4096 * 4096 : (size + 63) / 64 * 64;
    const uint64_t pa = take(uncached ? m_pool : m_heap, sz, uncached ? 4096 : align);
    if (!pa)
        return nullptr;
    if (uncached)
        m_live[pa] = {sz, size, site, nullptr, (uint8_t)kind, true, false, false};
    else
        open_slot(pa, sz, size, kind, site, false);
    count_alloc();
    return m_mem.mem.cpu_view(pa);
}

void kernel::count_alloc()
{
    m_stats.allocs++;
    const uint64_t in_use = (m_heap.next - m_heap.start) + (m_pool.next - m_pool.start);
    if (in_use > m_stats.alloc_bytes_live_max)
        m_stats.alloc_bytes_live_max = in_use;
}

void kernel::open_slot(uint64_t pa, uint64_t sz, size_t size, int kind, const void* site, bool frag)
{
    m_live[pa] = {sz, size, site, nullptr, (uint8_t)kind, false, false, frag};
    // The asked-for bytes, to whole lines, become accessible; the rest of
    // the slot is the redzone.
    const uint64_t ok = std::min<uint64_t>((size + 31) / 32 * 32, sz);
    m_checker->poison(pa, ok, false);
    if (ok < sz)
        m_checker->poison(pa + ok, sz - ok, true);
    m_checker->mark_end(pa + sz - 1, true);
}

void kernel::reset_chunk(uint64_t chunk)
{
    m_live.erase(m_live.lower_bound(chunk), m_live.lower_bound(chunk + m_cfg.page_frag_bytes));
}

// page_frag_alloc (mm/page_alloc.c, v5.4): fragments are carved from the top
// of the cache's chunk down; when the next one does not fit, the chunk is
// reused whole if the cache holds its last reference (every fragment freed),
// else the cache lets it go and refills with a fresh chunk, which here is the
// chunk freed last (or a new one from the heap).
void* kernel::alloc_frag(size_t size, bool napi, const void* site)
{
    const uint64_t chunk_bytes = m_cfg.page_frag_bytes;
    const uint64_t sz = (size + 63) / 64 * 64;
    if (!chunk_bytes || sz > chunk_bytes)
        return alloc(size, 64, false, SIMHOST_MEM_SKB_DATA, site);
    const core* cur = core::current();
    const size_t id = 2 * (cur ? cur->id() : m_irq_core) + napi;
    if (m_frag.size() <= id)
        m_frag.resize(id + 1);
    frag_cache& fc = m_frag[id];
    if (!fc.chunk || fc.offset < sz) {
        if (fc.chunk && m_chunk_live[fc.chunk] == 0) {
            reset_chunk(fc.chunk);
            m_stats.frag_chunk_reuses++;
        } else {
            if (fc.chunk)
                m_chunk_live[fc.chunk] |= 1u << 31;  // left by its cache: freed with its last fragment
            uint64_t c = 0;
            if (!m_free_chunks.empty()) {
                c = m_free_chunks.back();
                m_free_chunks.pop_back();
                reset_chunk(c);
                m_stats.frag_chunk_recycles++;
            } else {
                c = take(m_heap, chunk_bytes, chunk_bytes);
                if (!c)
                    return nullptr;
                m_stats.frag_chunks++;
            }
            m_chunk_live[c] = 0;
            fc.chunk = c;
        }
        fc.offset = chunk_bytes;
    }
    fc.offset -= sz;
    const uint64_t pa = fc.chunk + fc.offset;
    m_chunk_live[fc.chunk]++;
    open_slot(pa, sz, size, SIMHOST_MEM_SKB_DATA, site, true);
    count_alloc();
    return m_mem.mem.cpu_view(pa);
}

const kernel::slot* kernel::slot_of(uint64_t pa, uint64_t* start) const
{
    auto it = m_live.upper_bound(pa);
    if (it == m_live.begin())
        return nullptr;
    --it;
    if (pa >= it->first + it->second.size)
        return nullptr;
    *start = it->first;
    return &it->second;
}

void kernel::free(const void* p, int kind, const void* site)
{
    (void)kind;
    const uint64_t pa = pa_of(p);
    auto it = m_live.find(pa);
    if (it == m_live.end() || it->second.freed) {
        sim_log(log_level::guest_error, "kernel", "free of %p, which is not a live allocation", p);
        uint64_t s = 0;
        const slot* in = pa == ~0ull ? nullptr : slot_of(pa, &s);
        if (it != m_live.end())
            m_checker->report_ext(cv_kind::double_free, api_rule::none, pa, pa, it->second.size, site,
                                  "free of an allocation already freed", it->second.site, "allocated at",
                                  it->second.free_site, "first freed at");
        else if (in && !in->freed)
            m_checker->report_ext(cv_kind::invalid_free, api_rule::none, pa, s, in->size, site,
                                  "free of an address inside an allocation, not its start", in->site,
                                  "allocated at");
        else
            m_checker->report_ext(cv_kind::invalid_free, api_rule::none, pa == ~0ull ? 0 : pa, 0, 0, site,
                                  pa == ~0ull ? "free of memory that is not simulated kernel memory"
                                              : "free of an address no allocation holds");
        return;
    }
    slot& a = it->second;
    uint64_t map_pa = 0;
    const void* map_site = nullptr;
    if (site && m_checker->freed_under_mapping(pa, a.size, &map_pa, &map_site))
        m_checker->report_ext(cv_kind::api_misuse, api_rule::free_while_mapped, pa, map_pa, a.size, site,
                              "free_while_mapped: the buffer is freed while a DMA mapping covers it", map_site,
                              "mapped at", a.site, "allocated at");
    if (a.frag) {
        const uint64_t chunk = pa & ~(m_cfg.page_frag_bytes - 1);
        uint32_t& live = m_chunk_live[chunk];
        if (--live == 1u << 31)
            m_free_chunks.push_back(chunk);  // its cache let it go: back to the allocator
    } else
        (a.uncached ? m_pool : m_heap).free_by_size[a.size].push_back(pa);
    a.freed = true;
    a.free_site = site;
    if (!a.uncached) {
        m_checker->poison(pa, a.size, true);
        m_checker->mark_end(pa + a.size - 1, false);
    }
}

void kernel::dma_coherent_free(uint64_t handle, const void* cpu, size_t size, const void* site)
{
    if (m_checker->on_coherent_free(handle, pa_of(cpu), size, site))
        free(m_mem.mem.cpu_view(handle), SIMHOST_MEM_COHERENT, site);
}

// A CPU access to a poisoned heap line: a freed slot, a live allocation's
// redzone, or memory no allocation holds.
void kernel::mem_fault(uint64_t pa, uint64_t len, bool write, const void* site)
{
    (void)len;
    if (const core* c = core::current()) {
        range_op& r = range_of(*c);
        if (r.reported)
            return;  // this core's memcpy/memset is reported already
        r.reported = r.in;
    }
    const char* op = write ? "write" : "read";
    uint64_t s = 0;
    const slot* a = slot_of(pa, &s);
    if (a && a->freed)
        m_checker->report_ext(cv_kind::use_after_free, api_rule::none, pa, s, a->size, site,
                              std::string(op) + " at offset " + std::to_string(pa - s) + " of a freed " +
                                  std::to_string(a->size) + "-byte slot",
                              a->site, "allocated at", a->free_site, "freed at");
    else if (a)
        m_checker->report_ext(cv_kind::heap_out_of_bounds, api_rule::none, pa, s, a->asked, site,
                              std::string(op) + " " + std::to_string(pa - s - a->asked) + " bytes past the end of a " +
                                  std::to_string(a->asked) + "-byte allocation",
                              a->site, "allocated at");
    else
        m_checker->report_ext(cv_kind::heap_out_of_bounds, api_rule::none, pa, 0, 0, site,
                              std::string(op) + " of heap memory no allocation holds");
}

kernel::range_op& kernel::range_of(const core& c)
{
    if (c.id() >= m_range_ops.size())
        m_range_ops.resize(c.id() + 1);
    return m_range_ops[c.id()];
}

// memcpy/memset of kernel code: the whole range must lie in the allocation
// its first byte is in (the bytes asked for; the slot's rounding is redzone).
// Only a range that reaches the last line of a live slot is looked up.
bool kernel::check_range(const void* p, size_t n, bool write, const void* site)
{
    const uint64_t pa = pa_of(p);
    if (pa < m_heap.start || pa >= m_heap.end || !n || !m_checker->reaches_end(pa, n))
        return false;
    uint64_t s = 0;
    const slot* a = slot_of(pa, &s);
    if (!a || a->freed || pa + n <= s + a->asked)
        return false;  // freed or none: the poisoned lines report it; inside: fine
    m_checker->report_ext(cv_kind::heap_out_of_bounds, api_rule::none, s + a->asked, s, a->asked, site,
                          std::string(write ? "memset/memcpy writes " : "memcpy reads ") + std::to_string(n) +
                              " bytes at offset " + std::to_string(pa - s) + ", " +
                              std::to_string(pa + n - s - a->asked) + " bytes past the end of a " +
                              std::to_string(a->asked) + "-byte allocation",
                          a->site, "allocated at");
    return true;
}

bool kernel::alloc_of(uint64_t pa, uint64_t* start, uint64_t* len) const
{
    const slot* a = slot_of(pa, start);
    if (!a || a->freed)
        return false;
    *len = a->size;
    return true;
}

// ------------------------------------------------------------ leak scan --
//
// At the end of the run, as kmemleak does: an allocation of kernel code is
// reachable if a pointer to any byte of it lies in a root or in a reachable
// allocation. Roots: the writable segments of every loaded object (the
// driver's and the shim's globals among them) and the host's own
// allocations. Not scanned: the host stacks of the simulated contexts, which
// the end of the run interrupts wherever they are, so a path between
// allocating an object and linking it (or unlinking and freeing it) holds it
// in a local only; hence a site is reported only with more unreachable
// objects than can be in flight (leak_allowance). DMA addresses are not
// pointers: a buffer only a descriptor refers to counts as unreachable. The
// same scan notes which live mappings' DMA addresses some scanned word
// holds: a mapping whose address none holds can never be unmapped.
namespace {
struct scan_state {
    uintptr_t w_base, w_size;
    uint64_t pa_base;
    std::vector<uint64_t> starts, sizes;
    std::vector<char> mark;
    std::vector<size_t> work;
    // The DMA addresses of the live mappings (32-bit dma_addr_t), and those
    // the scan met as a 4-byte-aligned word (a descriptor's buffer address,
    // a struct page's dma_addr, a driver's saved handle).
    std::unordered_set<uint32_t> handles, held;
    void note_handle(uint32_t v)
    {
        if (v - (uint32_t)pa_base < w_size && handles.count(v))
            held.insert(v);
    }
    // A conservative scan reads whole segments, the sanitizer's redzones
    // between globals among them: exempt from AddressSanitizer.
    __attribute__((no_sanitize("address"))) void scan(const void* p, size_t n)
    {
        const uint64_t* w = (const uint64_t*)(((uintptr_t)p + 7) & ~(uintptr_t)7);
        const uint64_t* e = (const uint64_t*)(((uintptr_t)p + n) & ~(uintptr_t)7);
        for (; w < e; w++) {
            if (!handles.empty()) {
                note_handle((uint32_t)*w);
                note_handle((uint32_t)(*w >> 32));
            }
            const uint64_t off = *w - w_base;
            if (off >= w_size)
                continue;
            const uint64_t pa = pa_base + off;
            auto it = std::upper_bound(starts.begin(), starts.end(), pa);
            if (it == starts.begin())
                continue;
            const size_t i = (size_t)(it - starts.begin()) - 1;
            if (pa < starts[i] + sizes[i] && !mark[i]) {
                mark[i] = 1;
                work.push_back(i);
            }
        }
    }
};

int scan_object(struct dl_phdr_info* info, size_t, void* arg)
{
    auto* st = (scan_state*)arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W))
            st->scan((const void*)(info->dlpi_addr + ph.p_vaddr), ph.p_memsz);
    }
    return 0;
}

const char* mem_kind_name(int k)
{
    switch (k) {
    case SIMHOST_MEM_KMALLOC: return "kmalloc";
    case SIMHOST_MEM_SKB: return "skb";
    case SIMHOST_MEM_SKB_DATA: return "skb data";
    case SIMHOST_MEM_COHERENT: return "dma_alloc_coherent";
    }
    return "host";
}
} // namespace

void kernel::leak_scan()
{
    scan_state st{m_w_base, m_w_size, m_mem.mem.base(), {}, {}, {}, {}, {}, {}};
    std::vector<const slot*> objs;
    for (const auto& [pa, a] : m_live) {
        if (a.freed)
            continue;
        st.starts.push_back(pa);
        st.sizes.push_back(a.size);
        objs.push_back(&a);
    }
    st.mark.assign(objs.size(), 0);
    m_checker->for_each_mapping([&](uint64_t pa, uint64_t, const void*, bool) { st.handles.insert((uint32_t)pa); });
    for (size_t i = 0; i < objs.size(); i++)
        if (!objs[i]->site) {
            st.mark[i] = 1;
            st.work.push_back(i);
        }
    dl_iterate_phdr(scan_object, &st);
    if (m_host_roots) {
        std::vector<const void*> roots;
        m_host_roots(roots);
        st.scan(roots.data(), roots.size() * sizeof roots[0]);
    }
    while (!st.work.empty()) {
        const size_t i = st.work.back();
        st.work.pop_back();
        if (objs[i]->kind != SIMHOST_MEM_SKB_DATA)  // packet bytes (and shared info without pointers)
            st.scan(m_mem.mem.cpu_view(st.starts[i]), objs[i]->size);
    }
    const uint64_t allowance = leak_allowance * std::max<size_t>(1, m_cores.size());
    // Unreachable objects by (allocating site, kind); an skb's data goes with its skb.
    std::map<std::pair<const void*, int>, std::pair<uint64_t, uint64_t>> lost;  // -> (count, first pa)
    for (size_t i = 0; i < objs.size(); i++)
        if (!st.mark[i] && objs[i]->kind != SIMHOST_MEM_SKB_DATA) {
            auto& e = lost[{objs[i]->site, objs[i]->kind}];
            if (!e.first++)
                e.second = st.starts[i];
        }
    for (const auto& [key, e] : lost)
        if (e.first > allowance)
            m_checker->report_ext(cv_kind::memory_leak, api_rule::none, e.second, e.second, 0, key.first,
                                  std::to_string(e.first) + " " + mem_kind_name(key.second) +
                                      " allocations unreachable at the end of run",
                                  nullptr, nullptr, nullptr, nullptr, e.first);
    // Live streaming mappings whose buffer is freed or unreachable, or whose
    // DMA address the driver holds nowhere (no descriptor, none of its
    // memory: it can never unmap them), by map site.
    std::map<const void*, std::pair<uint64_t, uint64_t>> pending, lost_handle;
    m_checker->for_each_mapping([&](uint64_t pa, uint64_t, const void* site, bool buf_freed) {
        auto it = std::upper_bound(st.starts.begin(), st.starts.end(), pa);
        const size_t i = (size_t)(it - st.starts.begin()) - 1;
        std::pair<uint64_t, uint64_t>* e = nullptr;
        if (buf_freed || it == st.starts.begin() || pa >= st.starts[i] + st.sizes[i] || !st.mark[i])
            e = &pending[site];
        else if (!st.held.count((uint32_t)pa))
            e = &lost_handle[site];
        if (e && !e->first++)
            e->second = pa;
    });
    for (const auto& [site, e] : pending)
        if (e.first > allowance)
            m_checker->report_ext(cv_kind::api_misuse, api_rule::mapping_leak, e.second, e.second, 0, site,
                                  "mapping_leak: " + std::to_string(e.first) +
                                      " mappings live at the end of run over freed or unreachable buffers",
                                  nullptr, nullptr, nullptr, nullptr, e.first);
    for (const auto& [site, e] : lost_handle)
        if (e.first > allowance)
            m_checker->report_ext(cv_kind::api_misuse, api_rule::mapping_leak, e.second, e.second, 0, site,
                                  "mapping_leak: " + std::to_string(e.first) +
                                      " mappings live at the end of run whose DMA address no descriptor and no "
                                      "memory of the driver holds (never unmapped)",
                                  nullptr, nullptr, nullptr, nullptr, e.first);
}

// What an access the L1 answered in lat took beyond a hit (a hit is
// pipelined: the issue cycles stand for it).
static inline tick_t beyond_hit(core& c, tick_t lat)
{
    const tick_t hit = c.l1().config().hit_cycles * c.clock().period_ps;
    return lat > hit ? lat - hit : 0;
}

// The charge of a cached access the L1 answered in lat: the issue cycles and
// what it took beyond a hit.
static inline bool charge_cached(core& c, tick_t lat)
{
    const tick_t issue = c.clock().cycles(c.config().access_cycles);
    return c.charge_ps_waited(issue + beyond_hit(c, lat), c.current_cat());
}

static inline tick_t l1_access(core& c, uint64_t pa, size_t size, bool write)
{
    return write ? c.l1().write(pa, (unsigned)size, c.now()) : c.l1().read(pa, (unsigned)size, c.now());
}

// The same for an address known to be cacheable.
static inline tick_t l1_access_cached(core& c, uint64_t pa, size_t size, bool write)
{
    return c.l1().access_cached(pa, (unsigned)size, write, c.now());
}

// Device-shared memory: see the device's latest writes, in time.
__attribute__((noinline)) void kernel::access_uncached(core& c, uint64_t pa, size_t size, bool write)
{
    const tick_t issue = c.clock().cycles(c.config().access_cycles);
    c.catch_up();
    const tick_t lat = l1_access(c, pa, size, write);
    c.charge_ps(issue + lat, cpu::CAT_DESC);
}

// A store lands in W when its hook has returned, after the hook's charge.
// If that charge let other processes run (a synchronisation wait), another
// core may meanwhile have taken the line (a store of its own, or a clean by
// its maintenance) and written it back or dropped it: the store would land
// in a line that no L1 holds dirty, and the next fill would bring the old
// bytes back over it (a lost store). The core takes each such line again, as
// its store buffer would re-request ownership: a write access charged
// without a further wait, so nothing runs between it and the store.
__attribute__((noinline)) void kernel::retake_lines(core& c, uint64_t pa, size_t size)
{
    models::cache::l1_cache& l1 = c.l1();
    const uint64_t lb = l1.line_bytes();
    for (uint64_t a = pa & ~(lb - 1); a < pa + (size ? size : 1); a += lb)
        if (!l1.is_dirty(a)) {
            m_stats.stores_retaken++;
            c.charge_ps_deferred(beyond_hit(c, l1.access_cached(a, 1, true, c.now())), c.current_cat());
        }
}

__attribute__((noinline)) void kernel::access_tracked(core& c, uint64_t pa, size_t size, bool write, const void* site)
{
    const tick_t lat = l1_access_cached(c, pa, size, write);
    m_checker->on_cpu(pa, size, write, site);
    if (charge_cached(c, lat) && write)
        retake_lines(c, pa, size);
}

// The path of nearly every load and store: the two rarer cases out of line,
// so that only the core is live across the L1 call. Whether the checker
// tracks the access is asked before the L1 access, which neither yields nor
// changes a mapping (copy() relies on that too); on_cpu still sees the
// access after the L1 made it visible.
void kernel::access(core& c, uint64_t pa, size_t size, bool write, const void* site)
{
    if (m_mem.mem.is_uncached(pa))
        return access_uncached(c, pa, size, write);
    if (m_checker->tracked_ends(pa, size))
        return access_tracked(c, pa, size, write, site);
    if (charge_cached(c, l1_access_cached(c, pa, size, write)) && write) [[unlikely]]
        retake_lines(c, pa, size);
}

// Lines of [p, p+n) in simulated memory, each touched once through the L1.
// store(off, len), if given, writes bytes [off, off+len) of the range once
// the L1 holds their line and before the charge, which may let other
// processes run: the bytes are in the line before another core can take it
// or the range's own later lines evict it. False if the range is not in
// simulated memory (nothing touched, nothing stored).
template <typename Store>
static bool touch_range(kernel& k, core& c, const void* p, size_t n, bool write, const void* site, Store&& store)
{
    const uint64_t pa = k.pa_of(p);
    if (pa == ~0ull || !n)
        return false;
    const uint64_t lb = c.l1().line_bytes();
    for (uint64_t a = pa; a < pa + n;) {
        const uint64_t next = (a & ~(lb - 1)) + lb;
        const uint64_t len = std::min<uint64_t>(next, pa + n) - a;
        const tick_t lat = write ? c.l1().write(a, (unsigned)len, c.now()) : c.l1().read(a, (unsigned)len, c.now());
        if (k.checker().tracked(a))
            k.checker().on_cpu(a, len, write, site);
        store((size_t)(a - pa), (size_t)len);
        c.charge_ps(beyond_hit(c, lat), c.current_cat());
        a = next;
    }
    return true;
}

static void no_store(size_t, size_t) {}

// memcpy/memset called from driver code are packet-data copies (category
// copy); inside the stack or the allocator they stay in that category.
static cpu::cat copy_cat(core& c) { return c.current_cat() == cpu::CAT_DRIVER ? cpu::CAT_COPY : c.current_cat(); }

void kernel::copy(void* dst, const void* src, size_t n, const void* site)
{
    bool reported = check_range(src, n, false, site);
    reported = check_range(dst, n, true, site) || reported;
    core* c = core::current();
    if (c) {
        const cpu::cat prev = c->set_cat(copy_cat(*c));
        const bool unc_s = pa_of(src) != ~0ull && m_mem.mem.is_uncached(pa_of(src));
        if (unc_s)
            c->catch_up();
        // The source as it is now (memmove: overlapping bytes are read before
        // any is written), then stored line by line as the destination's
        // lines are taken.
        std::vector<uint8_t> tmp;
        const uint8_t* s = (const uint8_t*)src;
        uint8_t* d = (uint8_t*)dst;
        if (d < s + n && s < d + n) {
            tmp.assign(s, s + n);
            s = tmp.data();
        }
        range_of(*c) = {true, reported};
        touch_range(*this, *c, src, n, false, site, no_store);
        const bool stored = touch_range(*this, *c, dst, n, true, site,
                                        [&](size_t off, size_t len) { std::memcpy(d + off, s + off, len); });
        range_of(*c) = {};
        if (!stored)
            std::memcpy(d, s, n);
        c->charge((n + m_cfg.copy_bytes_per_cycle - 1) / m_cfg.copy_bytes_per_cycle, c->current_cat());
        c->set_cat(prev);
        return;
    }
    std::memmove(dst, src, n);
}

void kernel::fill(void* dst, int v, size_t n, const void* site)
{
    const bool reported = check_range(dst, n, true, site);
    core* c = core::current();
    if (c) {
        const cpu::cat prev = c->set_cat(copy_cat(*c));
        range_of(*c) = {true, reported};
        uint8_t* d = (uint8_t*)dst;
        const bool stored = touch_range(*this, *c, dst, n, true, site,
                                        [&](size_t off, size_t len) { std::memset(d + off, v, len); });
        range_of(*c) = {};
        if (!stored)
            std::memset(dst, v, n);
        c->charge((n + m_cfg.copy_bytes_per_cycle - 1) / m_cfg.copy_bytes_per_cycle, c->current_cat());
        c->set_cat(prev);
        return;
    }
    std::memset(dst, v, n);
}

// One charge for the whole range: each read is issued at the core's time
// plus what the reads before it cost, as if charged one by one.
void kernel::touch(const void* p, size_t n, const void* site)
{
    core* c = core::current();
    const uint64_t pa = pa_of(p);
    if (!c || pa == ~0ull || !n || m_mem.mem.is_uncached(pa))
        return;
    models::cache::l1_cache& l1 = c->l1();
    const uint64_t lb = l1.line_bytes(), first = pa & ~(lb - 1);
    const unsigned lines = (unsigned)((pa + n - first + lb - 1) / lb);
    if (m_touch_hint.size() <= c->id())
        m_touch_hint.resize(c->id() + 1);
    touch_hint& h = m_touch_hint[c->id()];
    if (h.pa != first || h.slots.size() != lines) {
        h.pa = first;
        h.slots.assign(lines, -1);
    }
    const tick_t extra = l1.read_lines(first, lines, c->now(), h.slots.data());
    if (m_checker->tracked_any(pa, n))
        for (uint64_t a = first; a < pa + n; a += lb)
            if (m_checker->tracked(a))
                m_checker->on_cpu(a, std::min<uint64_t>(pa + n, a + lb) - std::max(a, pa), false, site);
    c->charge_ps(extra, c->current_cat());
}

void kernel::prefetch(const void* p)
{
    core* c = core::current();
    const uint64_t pa = pa_of(p);
    if (!c || pa == ~0ull || m_mem.mem.is_uncached(pa))
        return;
    // PLD starts the fill and does not wait for it.
    c->l1().read(pa, 1, c->now());
    c->charge(c->config().access_cycles, c->current_cat());
}

// ------------------------------------------------------------------ MMIO --

uint32_t kernel::mmio_read(uint64_t pa)
{
    core* c = core::current();
    m_stats.mmio_reads++;
    uint32_t v = 0;
    if (pa - m_mmio_base >= m_mmio_size)
        simhost_stop("MMIO read at 0x%llx: no device there", (unsigned long long)pa);
    if (c) {
        // Device register reads are ordered after the core's posted writes.
        c->stall_until(c->l1().posted_until(), cpu::CAT_MMIO);
        c->sync();
    }
    m_mmio_txn.set(tlm::TLM_READ_COMMAND, pa - m_mmio_base, (uint8_t*)&v, 4);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    mmio->b_transport(m_mmio_txn.gp, d);
    if (m_mmio_txn.gp.get_response_status() != tlm::TLM_OK_RESPONSE)
        sim_log(log_level::guest_error, "kernel", "MMIO read at 0x%llx failed", (unsigned long long)pa);
    if (c)
        c->charge(c->config().mmio_read_cycles, cpu::CAT_MMIO);
    return v;
}

void kernel::mmio_write(uint64_t pa, uint32_t v)
{
    core* c = core::current();
    m_stats.mmio_writes++;
    if (pa - m_mmio_base >= m_mmio_size)
        simhost_stop("MMIO write at 0x%llx: no device there", (unsigned long long)pa);
    if (c) {
        // The store reaches the device after the core's earlier posted writes
        // (the PL310 sync of writel's wmb) have completed.
        c->stall_until(c->l1().posted_until(), cpu::CAT_MMIO);
        c->charge(c->config().mmio_write_cycles, cpu::CAT_MMIO);
        c->sync();
    }
    m_mmio_txn.set(tlm::TLM_WRITE_COMMAND, pa - m_mmio_base, (uint8_t*)&v, 4);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    mmio->b_transport(m_mmio_txn.gp, d);
    if (m_mmio_txn.gp.get_response_status() != tlm::TLM_OK_RESPONSE)
        sim_log(log_level::guest_error, "kernel", "MMIO write at 0x%llx failed", (unsigned long long)pa);
}

void kernel::barrier(int kind)
{
    core* c = core::current();
    if (!c)
        return;
    const cpu::cat prev = c->set_cat(cpu::CAT_MMIO);
    switch (kind) {
    case SIMHOST_DMB:
        c->charge(c->config().dmb_cycles, cpu::CAT_MMIO);
        break;
    case SIMHOST_DSB:
        c->charge_ps(c->l1().dsb(c->now()), cpu::CAT_MMIO);
        break;
    default: {
        // wmb()/mb(): DSB, then with a PL310 outer_sync(): a posted write of
        // CACHE_SYNC. Without one (an integrated L2; arm64 has none, a
        // loader rule says so) a DSB only.
        m_stats.barriers++;
        c->charge_ps(c->l1().dsb(c->now()), cpu::CAT_MMIO);
        if (m_mem.l2.config().kind != cache::l2_kind::pl310)
            break;
        tick_t done;
        const tick_t acc = m_mem.l2.reg_write(cache::pl310_reg::CACHE_SYNC, 0, c->now(), &done,
                                              (uint8_t)(mem::MASTER_CPU0 + c->l1().core()));
        c->l1().note_posted(done);
        c->stall_until(acc, cpu::CAT_MMIO);
        break;
    }
    }
    c->set_cat(prev);
}

// ------------------------------------------------------------------- DMA --

void kernel::dma(int op, uint64_t pa, size_t size, int dir, const void* caller)
{
    core* c = core::current();
    m_checker->on_dma(op, pa, size, dir, caller);
    const bool skip_sync = op & SIMHOST_DMA_ATTR_SKIP_CPU_SYNC;
    op &= ~SIMHOST_DMA_ATTR_SKIP_CPU_SYNC;
    if (op == SIMHOST_DMA_MAPPING_ERROR)
        return;
    switch (op) {
    case SIMHOST_DMA_MAP: m_stats.dma_map_calls++; break;
    case SIMHOST_DMA_UNMAP: m_stats.dma_unmap_calls++; break;
    case SIMHOST_DMA_SYNC_CPU: m_stats.dma_sync_cpu_calls++; break;
    default: m_stats.dma_sync_device_calls++; break;
    }
    if (pa == SIMHOST_DMA_BAD_ADDR || skip_sync)
        return;  // nothing mapped, or DMA_ATTR_SKIP_CPU_SYNC: no maintenance
    const auto d = (dma_dir)dir;
    // Which operation of the architecture code the call is: map and
    // sync_for_device hand the buffer to the device; unmap and sync_for_cpu
    // take it back.
    const bool to_cpu = op == SIMHOST_DMA_UNMAP || op == SIMHOST_DMA_SYNC_CPU;
    if (to_cpu && d == dma_dir::to_device)
        return;  // nothing to do on ARMv7 nor arm64
    m_stats.dma_sync_calls++;
    if (m_cfg.coherent_dma || !c)
        return;
    const cpu::cat prev = c->set_cat(cpu::CAT_DMA_SYNC);
    cpu_caches cc = caches_of(m_mem, c->id(), m_cfg.arch);
    const auto& s1 = c->l1().stats();
    const auto& s2 = m_mem.l2.stats();
    const uint64_t ops0 = s1.inv_ops + s1.clean_ops + s1.clean_inv_ops + s2.inv_line_ops + s2.clean_line_ops +
                          s2.clean_inv_line_ops;
    const tick_t t0 = c->now();
    const tick_t t1 = to_cpu ? arm_dma_sync_for_cpu(cc, pa, size, d, t0)
                             : arm_dma_sync_for_device(cc, pa, size, d, t0);
    m_stats.dma_sync_lines += s1.inv_ops + s1.clean_ops + s1.clean_inv_ops + s2.inv_line_ops +
                              s2.clean_line_ops + s2.clean_inv_line_ops - ops0;
    m_stats.dma_sync_ps += t1 - t0;
    c->charge_ps(t1 - t0, cpu::CAT_DMA_SYNC);
    c->set_cat(prev);
}

// ------------------------------------------------------------- interrupts --

int kernel::request_irq(unsigned irq, int (*fn)(int, void*), void* dev)
{
    core& c = irq_core();
    c.set_irq_handler([fn, irq, dev] { fn((int)irq, dev); });
    return 0;
}

void kernel::free_irq(unsigned) { irq_core().set_irq_handler(nullptr); }

// sk_data_ready of the receiving socket (sock_def_readable): a reader
// asleep in recvmsg is woken (try_to_wake_up, at the waker's cost, and the
// reschedule IPI to its core); a reader still working finds the datagram
// when it next calls recvmsg, and nobody is woken.
void kernel::socket_wake()
{
    core* c = core::current();
    if (!m_reader)
        return;
    const bool asleep = m_reader_app && m_reader_app->asleep();
    if (asleep) {
        m_reader_app->woken();
        if (c && m_cfg.wake_cycles)
            c->charge(m_cfg.wake_cycles, c->current_cat());
    }
    m_reader->wake(c ? c->now() : now_ps(), asleep && c != m_reader);
}

} // namespace khost
