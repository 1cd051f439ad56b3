#include "cache/pl310.h"
#include <algorithm>
#include <cstring>
#include "common/log.h"
#include "mem/noc.h"

namespace models::cache {

static const param_desc k_l2_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(l2_config, __VA_ARGS__)
#include "cache/l2_params.def"
#undef P
};
const param_table l2_param_table = {"l2", "Shared L2 cache with data: a PL310 (L2C-310) maintained by PA through its registers, or a core cluster's integrated last-level cache maintained by VA (kind)",
                                    k_l2_rows, sizeof k_l2_rows / sizeof k_l2_rows[0]};

const stat_desc l2_stat_rows[] = {
#define S(...) FEC_STAT_ROW(l2_stats, __VA_ARGS__)
#include "cache/l2_stats.def"
#undef S
};
const size_t l2_stat_count = sizeof l2_stat_rows / sizeof l2_stat_rows[0];

pl310::pl310(sc_core::sc_module_name nm, const l2_config& cfg, mem::phys_mem& mem)
    : sc_module(nm), cpu_side("cpu_side"), regs("regs"), mem_side("mem_side"), m_cfg(cfg), m_mem(mem),
      m_clk(cfg.clock_hz),
      m_arr(cfg.size_bytes, cfg.assoc, cfg.line_bytes, cfg.replacement, cfg.seed, true)
{
    m_eb.assign(cfg.eviction_buffer_lines, timeline(m_horizon));
    m_eb_last.assign(cfg.eviction_buffer_lines, span{0, 0});
    cpu_side.register_b_transport(this, &pl310::b_transport);
    regs.register_b_transport(this, &pl310::regs_b_transport);
}

void pl310::set_horizon(tick_t h)
{
    m_horizon = h;
    m_port.set_horizon(h);
    for (timeline& e : m_eb)
        e.set_horizon(h);
}

static unsigned port_master(uint8_t master)
{
    return master < mem::MASTER_COUNT ? master : (unsigned)mem::MASTER_OTHER;
}

[[gnu::always_inline]] inline rr_port::grant_info pl310::grant_port(tick_t t, uint8_t master)
{
    const rr_port::grant_info g = m_port.grant(port_master(master), t);
    m_stats.port_wait_ps += g.start - t;
    if (g.behind_maint)
        m_stats.blocked_ps += g.start - t;
    return g;
}

tick_t pl310::book_port(tick_t t, tick_t dur, uint8_t master)
{
    const tick_t s = grant_port(t, master).start;
    m_port.commit(port_master(master), s, dur, dur, false);
    return s;
}

[[gnu::always_inline]] inline tick_t pl310::eb_enter(tick_t t)
{
    // The entry that frees first takes the line (the lowest-numbered of those).
    size_t best = 0;
    tick_t at = ~(tick_t)0;
    const size_t n = m_eb.size();
    for (size_t k = 0; k < n; k++) {
        // free_at(t) from the latest booking unless t is before it (or the
        // aggregate hog has booked runs, which the latest booking does not show).
        const span& l = m_eb_last[k];
        const tick_t f = __builtin_expect(m_eb_runs, 0) ? m_eb[k].free_at(t)
                         : l.end <= t                  ? t
                         : l.start <= t                ? l.end
                                                       : m_eb[k].free_at(t);
        if (f < at) {
            at = f;
            best = k;
            if (at == t)
                break;
        }
    }
    m_eb_pick = best;
    m_stats.eb_wait_ps += at - t;
    return at;
}

[[gnu::always_inline]] inline void pl310::note_inflight(tick_t start, tick_t end, uint8_t master)
{
    m_inflight_max_end = std::max(m_inflight_max_end, end);
    m_longest_flight = std::max(m_longest_flight, end - start);
    const unsigned pm = port_master(master);
    m_flight_masters |= 1u << pm;
    flight_list& l = m_inflight[pm];
    l.max_end = std::max(l.max_end, end);
    if (l.v.size() == l.head || l.v.back().start <= start) {
        l.v.push_back({start, end});
    } else {  // rare: a master's own requests out of order
        auto it = std::upper_bound(l.v.begin() + (long)l.head, l.v.end(), start,
                                   [](tick_t s, const flight& f) { return s < f.start; });
        l.v.insert(it, {start, end});
    }
    prune_flights(l, start);
}

// Forget flights that ended long before the newest one started.
[[gnu::always_inline]] inline void pl310::prune_flights(flight_list& l, tick_t start)
{
    if (start > m_horizon) {
        const tick_t lim = start - m_horizon;
        while (l.head < l.v.size() && l.v[l.head].end < lim)
            l.head++;
        if (l.head > 1024 && l.head * 2 > l.v.size()) {
            l.v.erase(l.v.begin(), l.v.begin() + (long)l.head);
            l.head = 0;
        }
    }
}

tick_t pl310::drained_at(tick_t t) const
{
    if (m_inflight_max_end <= t)
        return t;
    // Per master: scan back from the last flight started at or before t until
    // flights are older than the longest one seen (none of those is in flight).
    tick_t m = t;
    for (uint32_t ms = m_flight_masters; ms; ms &= ms - 1) {
        const flight_list& l = m_inflight[__builtin_ctz(ms)];
        if (l.v.size() == l.head || l.max_end <= m)  // none of its flights ends later
            continue;
        auto it = std::upper_bound(l.v.begin() + (long)l.head, l.v.end(), t,
                                   [](tick_t x, const flight& f) { return x < f.start; });
        while (it != l.v.begin() + (long)l.head) {
            --it;
            if (it->end > m)
                m = it->end;
            if (it->start + m_longest_flight < t)
                break;
        }
    }
    // The aggregate hog's pages: the latest flight started at or before t.
    for (size_t k = m_fr_head; k < m_flight_runs.size(); k++) {
        const slot_run& r = m_flight_runs[k].r;
        if (r.start > t || m_flight_runs[k].end <= m)
            continue;
        m = std::max(m, r.slot_start(r.last_started(t)) + r.busy);
    }
    return m;
}

tick_t pl310::quiet_until(tick_t a) const
{
    if (m_inflight_max_end <= a)
        return ~(tick_t)0;
    if (drained_at(a) != a)
        return a;
    tick_t r = ~(tick_t)0;
    for (uint32_t ms = m_flight_masters; ms; ms &= ms - 1) {
        const flight_list& l = m_inflight[__builtin_ctz(ms)];
        auto it = std::upper_bound(l.v.begin() + (long)l.head, l.v.end(), a,
                                   [](tick_t x, const flight& f) { return x < f.start; });
        if (it != l.v.end())
            r = std::min(r, it->start);
    }
    for (size_t k = m_fr_head; k < m_flight_runs.size(); k++) {
        const slot_run& f = m_flight_runs[k].r;
        if (m_flight_runs[k].end <= a)  // its last flight started before a
            continue;
        if (a < f.start) {
            r = std::min(r, f.start);
        } else {
            const uint64_t j = f.last_started(a) + 1;
            if (j < f.n)
                r = std::min(r, f.slot_start(j));
        }
    }
    return r;
}

tick_t pl310::forward(tick_t t)
{
    if (m_noc)
        return m_noc->access(m_noc_port, m_down.gp, m_down.ext, t);
    sc_core::sc_time d = from_ps(t - now_ps());
    mem_side->b_transport(m_down.gp, d);
    return now_ps() + to_ps(d);
}

[[gnu::always_inline]] inline tick_t pl310::writeback(int slot, tick_t t, uint8_t master)
{
    const unsigned lb = m_arr.line_bytes();
    const tick_t in = eb_enter(t);
    tick_t done;
    if (m_noc) {
        done = m_noc->write(m_noc_port, m_arr.addr(slot), m_arr.data(slot), lb, master, in);
    } else {
        m_down.set(tlm::TLM_WRITE_COMMAND, m_arr.addr(slot), m_arr.data(slot), lb);
        m_down.ext.master = master;
        m_down.ext.uncached = false;
        m_down.ext.posted = true;
        done = forward(in);
    }
    timeline& e = m_eb[m_eb_pick];
    e.book(in, done - in);
    m_eb_last[m_eb_pick] = span{e.last_start(), e.last_end()};
    note_inflight(in, done, master);
    m_last_flight[port_master(master)] = done - in;
    m_arr.set_flags(slot, m_arr.flags(slot) & ~LINE_DIRTY);
    m_stats.writebacks++;
    return in;
}

[[gnu::always_inline]] inline tick_t pl310::allocate(uint64_t lpa, tick_t t, uint8_t master, int* slot)
{
    *slot = m_arr.victim(lpa);
    tick_t out = t;
    if (m_arr.valid(*slot) && m_arr.dirty(*slot))
        out = writeback(*slot, t, master);
    return out;
}

tick_t pl310::line_read(uint64_t lpa, uint8_t* out, tick_t s, uint8_t master, tick_t* stall)
{
    const unsigned lb = m_arr.line_bytes();
    const bool backed = m_mem.is_backed(lpa);  // else no data is kept (line_write)
    int slot = m_arr.find(lpa);
    tick_t done;
    *stall = s;
    if (slot >= 0) {
        m_stats.hits++;
        m_arr.touch(slot);
        done = s + m_clk.cycles(m_cfg.hit_cycles);
    } else {
        m_stats.misses++;
        *stall = allocate(lpa, s, master, &slot);
        const tick_t req = std::max(s + m_clk.cycles(m_cfg.hit_cycles), *stall);
        m_down.set(tlm::TLM_READ_COMMAND, lpa, backed ? m_arr.data(slot) : nullptr, lb);
        m_down.ext.master = master;
        m_down.ext.uncached = false;
        m_down.ext.posted = false;
        done = forward(req);
        note_inflight(req, done, master);
        m_last_flight[port_master(master)] = done - req;
        m_arr.install(slot, lpa, 0);
        m_stats.miss_ps += done - s;
    }
    if (out && backed)
        std::memcpy(out, m_arr.data(slot), lb);
    else if (out)
        std::memset(out, 0, lb);
    return done;
}

[[gnu::always_inline]] inline tick_t pl310::line_write(uint64_t lpa, const uint8_t* in, tick_t s, uint8_t master)
{
    int slot = m_arr.find(lpa);
    if (slot >= 0) {
        m_stats.write_hits++;
        m_arr.touch(slot);
    } else {
        m_stats.write_allocs++;
        s = allocate(lpa, s, master, &slot);
        m_arr.install(slot, lpa, 0);
    }
    // A line past the backed memory (the memory hog's pages) keeps no data
    // (line_read gives zeros for it, as DRAM does).
    if (m_mem.is_backed(lpa)) {
        if (in)
            std::memcpy(m_arr.data(slot), in, m_arr.line_bytes());
        else
            std::memset(m_arr.data(slot), 0, m_arr.line_bytes());
    }
    m_arr.set_flags(slot, LINE_DIRTY);
    return s + m_clk.cycles(m_cfg.port_cycles);
}

tick_t pl310::access(tlm::tlm_generic_payload& gp, tick_t t)
{
    const mem::mem_ext& x = mem::ext_of(gp);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (x.uncached) {
        m_stats.uncached++;
        const tick_t pass = m_clk.cycles(m_cfg.uncached_cycles);
        const tick_t s = book_port(t, pass, x.master);
        m_down.set(gp.get_command(), gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
        m_down.ext = x;
        const tick_t done = forward(s + pass);
        gp.set_response_status(m_down.gp.get_response_status());
        return x.posted ? s + pass : done;
    }
    const unsigned lb = m_arr.line_bytes();
    const uint64_t addr = gp.get_address();
    const unsigned len = gp.get_data_length();
    if (gp.is_read() && len == lb && (addr & (lb - 1)) == 0) {
        // One whole line (an L1 fill): the loop of access_lines() once.
        const tick_t port = m_clk.cycles(m_cfg.port_cycles);
        const tick_t s = grant_port(t, x.master).start;
        tick_t stall;
        const tick_t done = std::max(t, line_read(addr, gp.get_data_ptr(), s, x.master, &stall));
        m_port.commit(port_master(x.master), s, stall + port - s, port, false);
        return done;
    }
    return access_lines(gp, x, t);
}

// The evictions of a detailed burst past the backed window (the memory
// hog's page zeroing) once they repeat. Each line's victim is a dirty line
// of the hog's own, evicted when the line starts (the previous one's
// release): it waits for the eviction-buffer entry that frees first, takes
// the fabric port and then the DRAM channel. Nothing else is booked while
// the burst runs (one call), so once everything booked before it on the
// fabric port, the DRAM channel and the buffer entries has ended, and each
// eviction is complete f0 after it entered (no wait at the fabric or the
// channel), what the next eviction finds is a function of the burst's own
// last P = (buffer entries) evictions alone: when each entered the buffer
// and which entry it took (each entry's latest booking is one of them).
// If those P are the P before them moved by D (the same entries, each D
// later), reached from there back to back (a line without an eviction
// changes the input), the state is the one P evictions earlier moved by D,
// and so is everything that follows while the lines go on evicting back to
// back: eviction j + P enters D after eviction j, in the same entry, with
// the same wait. From there the evictions are counted instead of computed
// one by one, and booked exactly as one by one would book them
// (book_evictions) when something else happens: a line that does not
// evict, a victim with data or one the DRAM's observer watches, or the end
// of the burst. Not taken with DRAM tracing (whose records are per write)
// or without the direct path to the fabric.
class pl310::eviction_runs {
public:
    eviction_runs(pl310& l2, unsigned lb, tick_t port, uint8_t master)
        : m_l2(l2), m_lb(lb), m_port(port), m_master(master), m_pm(port_master(master)),
          m_p((unsigned)l2.m_eb.size())
    {
        m_on = l2.m_noc && l2.m_noc->direct_write_window(&m_obs_lo, &m_obs_hi) && !trace_on(TRACE_DRAM) &&
               2 * m_p <= RING;
        if (m_on) {
            tick_t xfer, chan;
            l2.m_noc->write_timing(lb, &xfer, &chan, &m_f0);
            m_before = l2.m_noc->write_path_busy_until(l2.m_noc_port);
            for (const timeline& e : l2.m_eb)
                m_before = std::max(m_before, e.busy_until());
        }
    }
    bool active() const { return m_active; }
    // The eviction of the line at pa moves no data and tells DRAM's observer
    // nothing: its effect is its bookings and counters alone.
    bool silent(uint64_t pa) const
    {
        return !m_l2.m_mem.is_backed(pa, m_lb) && (pa >= m_obs_hi || pa + m_lb <= m_obs_lo);
    }
    // One more eviction back to back.
    void extend() { m_count++; }
    // The eviction writeback() just made, entering the buffer at `in`; gap:
    // a line without an eviction came since the previous one.
    void note(tick_t in, bool gap)
    {
        if (!m_on)
            return;
        if (m_l2.m_last_flight[m_pm] != m_f0) {  // a wait downstream: not the pattern's state
            m_n = m_gap = 0;
            return;
        }
        if (gap)  // the transition into this one is not the pattern's
            m_gap = m_n;
        m_in[m_n & (RING - 1)] = in;
        m_pick[m_n & (RING - 1)] = (uint8_t)m_l2.m_eb_pick;
        m_n++;
        // The last p transitions without a gap; the p evictions before them
        // (the state they started from) may follow one.
        if (m_n >= 2 * m_p && m_n - m_gap > m_p)
            try_start();
    }
    // Books the evictions counted so far and sets *cur (when the next line
    // starts) and *own_last (the latest line's start) as the lines one by
    // one would have; the detection starts again.
    void flush(tick_t* cur, tick_t* own_last)
    {
        if (m_count) {
            std::vector<tick_t>& in = m_l2.m_ev_in;
            in.resize(m_count);
            for (uint64_t j = 0, r = 0, q = 0; j < m_count; j++) {
                in[j] = m_first[r] + q;
                if (++r == m_p) {
                    r = 0;
                    q += m_d;
                }
            }
            m_l2.book_evictions(in.data(), m_count, m_entry, m_p, m_f0, m_master);
            const tick_t last = in[m_count - 1];
            // each waited for its entry from the previous line's release
            m_l2.m_stats.eb_wait_ps += last - m_base - m_count * m_port;
            *own_last = (m_count >= 2 ? in[m_count - 2] : m_base) + m_port;
            *cur = last + m_port;
            m_l2.m_burst_run_evictions += m_count;
            // The counted evictions are noted as if made one by one (they
            // follow the noted ones back to back, each clean): the pattern
            // can be found again from their state after what ended the count.
            for (uint64_t j = m_count - std::min<uint64_t>(m_count, 2 * m_p); j < m_count; j++) {
                m_in[m_n & (RING - 1)] = in[j];
                m_pick[m_n & (RING - 1)] = (uint8_t)m_entry[j % m_p];
                m_n++;
            }
        }
        m_active = false;
        m_count = 0;
    }

private:
    static constexpr unsigned RING = 32;  // >= 2 x eviction_buffer_lines' upper bound (16)
    tick_t in_at(uint64_t j) const { return m_in[j & (RING - 1)]; }
    size_t pick_at(uint64_t j) const { return m_pick[j & (RING - 1)]; }
    void try_start()
    {
        const unsigned p = m_p;
        const uint64_t i = m_n - 1;  // the latest eviction
        if (in_at(i - p) < m_before)
            return;
        const tick_t d = in_at(i) - in_at(i - p);
        uint32_t seen = 0;
        for (unsigned r = 0; r < p; r++) {
            const uint64_t j = i - r;
            if (in_at(j) - in_at(j - p) != d || pick_at(j) != pick_at(j - p) || (seen >> pick_at(j) & 1))
                return;
            seen |= 1u << pick_at(j);
        }
        // Eviction i + 1 + r + k p enters k d after eviction i + 1 + r - p
        // moved by d, in its entry.
        for (unsigned r = 0; r < p; r++) {
            m_first[r] = in_at(i + 1 + r - p) + d;
            m_entry[r] = pick_at(i + 1 + r - p);
        }
        m_d = d;
        m_base = in_at(i);
        m_count = 0;
        m_active = true;
    }

    pl310& m_l2;
    const unsigned m_lb;
    const tick_t m_port;
    const uint8_t m_master;
    const unsigned m_pm;  // port_master(m_master)
    const unsigned m_p;
    uint64_t m_obs_lo = 0, m_obs_hi = 0;  // DRAM's observer watches [lo, hi)
    bool m_on = false, m_active = false;
    tick_t m_f0 = 0, m_base = 0, m_d = 0;
    tick_t m_before = 0;   // the latest end of what was booked on the write path before the burst
    uint64_t m_n = 0;      // evictions noted since the detection (re)started
    uint64_t m_gap = 0;    // index of the latest one noted after a gap (0: none since the start)
    uint64_t m_count = 0;  // evictions counted
    tick_t m_in[RING];
    uint8_t m_pick[RING];
    tick_t m_first[RING / 2];
    size_t m_entry[RING / 2];
};

__attribute__((noinline)) tick_t pl310::access_lines(tlm::tlm_generic_payload& gp, const mem::mem_ext& x, tick_t t)
{
    const unsigned lb = m_arr.line_bytes();
    const uint64_t addr = gp.get_address();
    const unsigned len = gp.get_data_length();
    uint8_t* data = gp.get_data_ptr();
    const tick_t port = m_clk.cycles(m_cfg.port_cycles);
    const unsigned pm = port_master(x.master);
    tick_t at = t, done = t;
    uint8_t line[128];
    // A burst of whole-line writes (the memory hog's page zeroing) whose
    // envelope extends with nothing of another master's after it: each later
    // line would be granted at once (no wait, no debt) and extend the
    // envelope, so they are booked together at the end (rr_port::extend_run).
    const bool whole = !gp.is_read() && (x.full_line || ((addr | len) & (lb - 1)) == 0);
    bool own = false;
    tick_t own_last = 0;  // start of the latest line booked so (own)
    for (uint64_t a = addr; a < addr + len;) {
        const uint64_t lpa = a & ~(uint64_t)(lb - 1);
        const unsigned off = (unsigned)(a - lpa);
        const unsigned n = std::min<uint64_t>(lb - off, addr + len - a);
        uint8_t* p = data ? data + (a - addr) : nullptr;
        if (own) {
            // The rest of an own burst past the backed window (the hog's
            // pages): what the lines below would do, the cache state through
            // write_lines. Each line starts when the previous one released
            // the port, a dirty victim's eviction delaying its release.
            const uint64_t end = ((addr + len - 1) | (lb - 1)) + 1, nl = (end - lpa) / lb;
            if (end <= m_mem.base() || lpa >= m_mem.base() + m_mem.backed()) {
                tick_t cur = at;  // when line `next` starts
                uint64_t next = 0;
                eviction_runs er(*this, lb, port, x.master);
                const uint64_t present = m_arr.write_lines(lpa, nl, LINE_DIRTY, [&](uint64_t k, int slot) {
                    if (!m_arr.dirty(slot))
                        return;
                    if (er.active()) {
                        if (k == next && er.silent(m_arr.addr(slot))) {
                            er.extend();
                            next = k + 1;
                            return;
                        }
                        er.flush(&cur, &own_last);
                    }
                    const bool gap = k != next;
                    cur += (k - next) * port;
                    own_last = cur;
                    const tick_t in = writeback(slot, cur, x.master);
                    cur = in + port;
                    next = k + 1;
                    er.note(in, gap);
                });
                er.flush(&cur, &own_last);
                if (next < nl) {
                    cur += (nl - next) * port;
                    own_last = cur - port;
                }
                m_stats.write_hits += present;
                m_stats.write_allocs += nl - present;
                at = done = cur;
                break;
            }
        }
        const tick_t s = own ? at : grant_port(at, x.master).start;
        // A victim waiting for an eviction-buffer entry stalls the request
        // in the port: the port is released `port` after the victim is out.
        tick_t release;
        if (gp.is_read()) {
            tick_t stall;
            if (n == lb) {
                done = std::max(done, line_read(lpa, p, s, x.master, &stall));
            } else {
                done = std::max(done, line_read(lpa, line, s, x.master, &stall));
                if (p)
                    std::memcpy(p, line + off, n);
            }
            release = stall + port;
            m_port.commit(pm, s, release - s, port, false);
            at = release;
        } else {
            if (n == lb || x.full_line) {
                release = line_write(lpa, p, s, x.master);
                if (!own) {
                    m_port.commit(pm, s, release - s, port, false);
                    own = whole && m_port.extends(pm, release, port, false);
                }
                own_last = s;
                at = release;
            } else {
                // Partial write: merge into the (possibly filled) line.
                tick_t stall;
                const tick_t f = line_read(lpa, line, s, x.master, &stall);
                if (p)
                    std::memcpy(line + off, p, n);
                else
                    std::memset(line + off, 0, n);
                line_write(lpa, line, f, x.master);
                release = stall + port;
                m_port.commit(pm, s, release - s, port, false);
                at = f;
            }
            done = at;
        }
        a += n;
    }
    if (own)
        m_port.extend_run(pm, at, own_last);
    return done;
}

tick_t pl310::zero_aggregate(uint64_t pa, unsigned len, tick_t t, uint8_t master)
{
    const unsigned lb = m_arr.line_bytes();
    uint64_t lpa0 = pa & ~(uint64_t)(lb - 1);
    uint64_t n = (pa + len - lpa0 + lb - 1) / lb;
    const tick_t port = m_clk.cycles(m_cfg.port_cycles);
    const unsigned pm = port_master(master);
    if (n == 0)
        return t;
    if (!m_noc) {  // the runs need the direct path to the fabric and DRAM: a burst
        mem::mem_txn tx;
        tx.set(tlm::TLM_WRITE_COMMAND, pa, nullptr, len);
        tx.ext.master = master;
        tx.ext.full_line = true;
        return access(tx.gp, t);
    }
    // While another master has operations booked at the ports at or after
    // the next line's time (a core that ran ahead of the hog), the lines take
    // turns with them one by one, as the detailed burst's do: each is
    // granted, written and booked on its own. From the first line after
    // which nothing of another master's is booked, the rest of the page is
    // one block (the requests that come later find its envelope and take
    // turns with it as with a burst's).
    while (n && m_port.others_next_busy(pm, t) != ~(tick_t)0) {
        const tick_t s = grant_port(t, master).start;
        const tick_t release = line_write(lpa0, nullptr, s, master);
        m_port.commit(pm, s, release - s, port, false);
        t = release;
        lpa0 += lb;
        n--;
        m_agg_line_lines++;
    }
    if (n == 0)
        return t;
    const tick_t s0 = grant_port(t, master).start;
    m_agg_pages++;
    // Cache state, line by line in address order as the detailed burst does.
    // A dirty victim of the hog's own (past the backed window) counts as one
    // of the page's evictions; one holding data (a network buffer's line)
    // goes out through the detailed write-back at the line's slot.
    uint64_t ev = 0;
    const bool backed = m_mem.is_backed(lpa0) || m_mem.is_backed(lpa0 + (n - 1) * lb);  // the hog's never are
    // In chunks of at most one line per set: a chunk's lines never evict
    // each other, so the zeros of those in the backed window (a page
    // overlapping it) can be written after the chunk's state changes.
    const uint64_t chunk = backed ? m_arr.sets() : n;
    for (uint64_t c = 0; c < n; c += chunk) {
        const uint64_t cn = std::min(chunk, n - c), ca = lpa0 + c * lb;
        const uint64_t present = m_arr.write_lines(ca, cn, LINE_DIRTY, [&](uint64_t k, int slot) {
            if (!m_arr.dirty(slot))
                return;
            if (m_mem.is_backed(m_arr.addr(slot)))
                writeback(slot, s0 + (c + k) * port, master);
            else
                ev++;
        });
        m_stats.write_hits += present;
        m_stats.write_allocs += cn - present;
        for (uint64_t k = 0; backed && k < cn; k++) {
            const uint64_t lpa = ca + k * lb;
            const int slot = m_arr.find(lpa);
            if (slot >= 0 && m_mem.is_backed(lpa))
                std::memset(m_arr.data(slot), 0, lb);
        }
    }
    // Timing (the buffer entries still taken by earlier evictions when the
    // block starts are not waited for: at most one round). An eviction
    // enters the eviction buffer (N entries), takes the
    // fabric port (xfer) and then the DRAM channel (chan) and is complete f0
    // after it entered, with nothing in its way. The hog's lines follow each
    // other at the pace of the narrowest of the slave port and those two
    // stages, q, as long as a buffer entry is free: an entry is reused f0
    // after it was taken, so a backlogged burst goes in rounds of N
    // evictions q apart, one round every R = max(f0, N * q) (the detailed
    // bursts settle into exactly that pattern; with the i.MX6Q profile four
    // evictions 15 ns apart every 102 ns, the fabric and the channel idle
    // between the rounds).
    tick_t xfer, chan, f0;
    m_noc->write_timing(lb, &xfer, &chan, &f0);
    const uint64_t nb = m_eb.size();
    const tick_t q = std::max({port, xfer, chan});
    slot_run ev_run;  // the evictions: when each enters the buffer
    ev_run.round = std::max(f0, nb * q);
    ev_run.spacing = q;
    ev_run.m = nb;
    ev_run.n = ev;
    ev_run.start = s0;
    // Each line holds the ports until its victim has entered the buffer and
    // port more: the evicting lines first, then the others at the port's pace.
    const tick_t dur = (ev ? ev_run.slot_start(ev - 1) - s0 + port : 0) + (n - ev) * port;
    if (ev) {
        m_noc->write_run(m_noc_port, ev_run, lb, master);
        // Each eviction takes the entry that frees first: entry i the i-th of
        // every round, busy f0 from when it is taken.
        for (uint64_t i = 0; i < nb && i < ev; i++) {
            slot_run e;
            e.start = ev_run.slot_start(i);
            e.round = ev_run.round;
            e.busy = f0;
            e.n = (ev - i + nb - 1) / nb;
            m_eb[i].book_run(e);
        }
        m_eb_runs = true;
        while (m_fr_head < m_flight_runs.size() && m_flight_runs[m_fr_head].end + m_horizon < s0)
            m_fr_head++;
        if (m_fr_head > 64 && m_fr_head * 2 > m_flight_runs.size()) {
            m_flight_runs.erase(m_flight_runs.begin(), m_flight_runs.begin() + (long)m_fr_head);
            m_fr_head = 0;
        }
        slot_run fl = ev_run;
        fl.busy = f0;
        m_flight_runs.push_back(flight_run{fl, fl.end()});
        m_inflight_max_end = std::max(m_inflight_max_end, m_flight_runs.back().end);
        m_longest_flight = std::max(m_longest_flight, f0);
        m_last_flight[pm] = f0;
        m_stats.writebacks += ev;
        // Each line's victim waited in the port from the line's grant (the
        // previous line's release) until it entered the buffer.
        m_stats.eb_wait_ps += ev_run.slot_start(ev - 1) - s0 - (ev - 1) * port;
    }
    m_port.commit(pm, s0, dur, port, false);
    return s0 + dur;
}

void pl310::book_evictions(const tick_t* in, uint64_t n, const size_t* entry, unsigned p, tick_t f0,
                           uint8_t master)
{
    m_noc->write_slots(m_noc_port, in, n, m_arr.line_bytes(), master);
    for (uint64_t j = 0, r = 0; j < n; j++, r = r + 1 == p ? 0 : r + 1)
        m_eb[entry[r]].book(in[j], f0);  // at in[j]: the entry is free from then
    const unsigned pm = port_master(master);
    flight_list& l = m_inflight[pm];
    if (l.v.size() != l.head && l.v.back().start > in[0]) {  // not after the master's latest (n >= 1)
        for (uint64_t j = 0; j < n; j++)
            note_inflight(in[j], in[j] + f0, master);
    } else {
        // What note_inflight() does for each in turn: the flights appended
        // in order, the maxima of the last, and the forgetting of old
        // flights as of the latest start (each drops a prefix of those that
        // ended before its limit, and the limits grow: the last one's drop
        // is all of them).
        for (uint64_t j = 0; j < n; j++)
            l.v.push_back({in[j], in[j] + f0});
        const tick_t end = in[n - 1] + f0;
        m_inflight_max_end = std::max(m_inflight_max_end, end);
        m_longest_flight = std::max(m_longest_flight, f0);
        m_flight_masters |= 1u << pm;
        l.max_end = std::max(l.max_end, end);
        prune_flights(l, in[n - 1]);
    }
    for (unsigned r = 0; r < p && r < n; r++) {
        const timeline& e = m_eb[entry[r]];
        m_eb_last[entry[r]] = span{e.last_start(), e.last_end()};
    }
    m_last_flight[port_master(master)] = f0;
    m_stats.writebacks += n;
}

tick_t pl310::drain_ready(const rr_port::grant_info& g)
{
    tick_t ready = drained_at(g.start);
    // The slot it waited for was another master's line transfer, moved here
    // by arbitration after its own fill or eviction was computed: that
    // transfer's fill or eviction is in flight now (as long as the master's
    // last one took).
    if (g.behind >= 0 && !g.behind_maint)
        ready = std::max(ready, g.behind_slot_start + m_last_flight[g.behind]);
    m_stats.drain_wait_ps += ready - g.start;
    return ready;
}

tick_t pl310::maint_line(uint32_t op, uint64_t pa, tick_t t, tick_t* done, uint8_t master)
{
    const uint64_t lpa = pa & ~(uint64_t)(m_arr.line_bytes() - 1);
    // Atomic: once it has the port it holds every slave port until done,
    // including the wait for transfers in flight.
    const rr_port::grant_info g = grant_port(t, master);
    const tick_t s = m_cfg.maint_waits_for_drain ? drain_ready(g) : g.start;
    const tick_t dur = m_clk.cycles(m_cfg.maint_line_cycles);
    tick_t end = s + dur;
    m_stats.maint_ps += dur;
    end = std::max(end, line_op(op, lpa, s, mem::MASTER_OTHER, nullptr));
    m_port.commit(port_master(master), g.start, end - g.start, end - g.start, true);
    SIM_TRACE(TRACE_L2, name(), "op 0x%x pa=0x%llx start=%llu wait=%llups", op, (unsigned long long)lpa,
              (unsigned long long)s, (unsigned long long)(s - t));
    *done = end;
    return s;
}

tick_t pl310::line_op(uint32_t op, uint64_t lpa, tick_t s, uint8_t wb_master, tick_t* wb_done)
{
    const int slot = m_arr.find(lpa);
    const bool dirty = slot >= 0 && m_arr.dirty(slot);
    tick_t out = s;
    switch (op) {
    case pl310_reg::INV_LINE_PA: m_stats.inv_line_ops++; break;
    case pl310_reg::CLEAN_LINE_PA: m_stats.clean_line_ops++; break;
    default: m_stats.clean_inv_line_ops++; break;
    }
    if (dirty && op == pl310_reg::INV_LINE_PA)
        m_stats.dirty_lost++;
    if (dirty && op != pl310_reg::INV_LINE_PA) {
        out = writeback(slot, s, wb_master);
        if (wb_done)
            *wb_done = std::max(*wb_done, m_eb_last[m_eb_pick].end);
    }
    if (slot >= 0 && op != pl310_reg::CLEAN_LINE_PA)
        m_arr.drop(slot);
    return out;
}

tick_t pl310::poc_lines(uint32_t op, uint64_t pa, unsigned n, tick_t t, tick_t* done, uint8_t master)
{
    const unsigned lb = m_arr.line_bytes();
    const tick_t dur = m_clk.cycles(m_cfg.maint_line_cycles);
    const unsigned pm = port_master(master);
    *done = t;
    for (unsigned k = 0; k < n; k++) {
        const uint64_t lpa = (pa & ~(uint64_t)(lb - 1)) + (uint64_t)k * lb;
        const tick_t s = grant_port(t, master).start;
        tick_t end = s + dur;
        end = std::max(end, line_op(op, lpa, s, master, done));
        m_port.commit(pm, s, dur, dur, false);
        m_stats.maint_ps += dur;
        t = end;
    }
    *done = std::max(*done, t);
    return t;
}

tick_t pl310::reg_write(uint32_t offset, uint32_t value, tick_t t, tick_t* done, uint8_t master)
{
    const tick_t arr = t + m_clk.cycles(m_cfg.reg_write_cycles);
    tick_t tmp;
    if (!done)
        done = &tmp;
    *done = arr;
    if (m_cfg.kind != l2_kind::pl310) {
        sim_log(log_level::guest_error, name(), "write to register 0x%03x of an integrated L2, which has none",
                offset);
        return arr;
    }
    switch (offset) {
    case pl310_reg::INV_LINE_PA:
    case pl310_reg::CLEAN_LINE_PA:
    case pl310_reg::CLEAN_INV_LINE_PA:
        return maint_line(offset, value, arr, done, master);
    case pl310_reg::CACHE_SYNC:
    case pl310_reg::DUMMY_REG: {
        // Atomic like the line operations; always waits for the buffers to drain.
        const rr_port::grant_info g = grant_port(arr, master);
        const tick_t s = drain_ready(g);
        const tick_t dur = m_clk.cycles(m_cfg.sync_cycles);
        m_port.commit(port_master(master), g.start, s + dur - g.start, s + dur - g.start, true);
        m_stats.maint_ps += dur;
        m_stats.syncs++;
        *done = s + dur;
        return s;
    }
    case pl310_reg::CTRL:
        m_ctrl = value;
        return arr;
    case pl310_reg::AUX_CTRL:
        m_aux = value;
        return arr;
    case pl310_reg::DEBUG_CTRL:
    case pl310_reg::PREFETCH_CTRL:
    case pl310_reg::POWER_CTRL:
        return arr;
    case pl310_reg::INV_WAY:
    case pl310_reg::CLEAN_WAY:
    case pl310_reg::CLEAN_INV_WAY:
    case pl310_reg::CLEAN_LINE_IDX:
    case pl310_reg::CLEAN_INV_LINE_IDX:
        sim_log(log_level::unimp, name(), "way/index operation at 0x%03x is not modelled", offset);
        return arr;
    default:
        sim_log(log_level::guest_error, name(), "write 0x%08x to unknown register 0x%03x", value, offset);
        return arr;
    }
}

tick_t pl310::reg_write_lines(uint32_t offset, uint64_t pa, unsigned n, tick_t t, tick_t* done, uint8_t master)
{
    const unsigned lb = m_arr.line_bytes();
    const tick_t rw = m_clk.cycles(m_cfg.reg_write_cycles);
    const tick_t dur = m_clk.cycles(m_cfg.maint_line_cycles);
    const unsigned pm = port_master(master);
    if (n == 0)
        return t;
    // One operation as reg_write() does it (a line operation of a PL310
    // straight to maint_line()), the register written at `at`.
    const bool line_reg = m_cfg.kind == l2_kind::pl310 &&
                          (offset == pl310_reg::INV_LINE_PA || offset == pl310_reg::CLEAN_LINE_PA ||
                           offset == pl310_reg::CLEAN_INV_LINE_PA);
    auto one = [&](uint64_t a, tick_t at) {
        return line_reg ? maint_line(offset, (uint32_t)a, at + rw, done, master)
                        : reg_write(offset, (uint32_t)a, at, done, master);
    };
    // The first operation waits like any other. acc: when the latest one was
    // accepted (it started); e: when it ends.
    tick_t acc = one(pa, t);
    tick_t e = *done;
    unsigned k = 1;
    // The latest one-by-one operation started later than it could have: it
    // took its turn behind another master, which then most likely holds the
    // ports again at once, so the next one goes one by one without looking
    // for a run (a speed choice only: one by one is always exact).
    bool contended = false;
    while (k < n) {
        // The next ones arrive while the latest runs (rw <= dur) and start
        // back to back as long as no other master holds the ports during
        // their slots, nothing is in flight when each starts, and (a clean)
        // none writes back: count those, j of them.
        unsigned j = 0;
        if (!contended && rw <= dur && acc + rw <= e && m_port.debt(pm) == 0) {
            const tick_t busy = m_port.others_next_busy(pm, e);
            uint64_t fit = busy == ~(tick_t)0 ? n : (busy - e) / dur;  // slot ends by busy
            if (fit) {
                const tick_t fl = quiet_until(e);
                if (fl != ~(tick_t)0)
                    fit = std::min<uint64_t>(fit, fl > e ? (fl - e + dur - 1) / dur : 0);  // starts before fl
            }
            j = (unsigned)std::min<uint64_t>(fit, n - k);
            if (j && offset != pl310_reg::INV_LINE_PA)
                m_arr.for_each_resident(pa + (uint64_t)k * lb, j, [&](unsigned i, int slot) {
                    if (i < j && m_arr.dirty(slot))
                        j = i;
                });
        }
        if (j) {
            const uint64_t a = pa + (uint64_t)k * lb;
            m_port.commit(pm, e, dur * j, dur, true);
            m_stats.maint_ps += dur * j;
            if (offset == pl310_reg::INV_LINE_PA) {
                m_stats.inv_line_ops += j;
                m_arr.for_each_resident(a, j, [&](unsigned, int slot) {
                    if (m_arr.dirty(slot))
                        m_stats.dirty_lost++;
                    m_arr.drop(slot);
                });
            } else if (offset == pl310_reg::CLEAN_LINE_PA) {
                m_stats.clean_line_ops += j;
            } else {
                m_stats.clean_inv_line_ops += j;
                m_arr.for_each_resident(a, j, [&](unsigned, int slot) { m_arr.drop(slot); });
            }
            // Each write arrived rw after the previous one was accepted and
            // waited for the previous one's end.
            m_stats.port_wait_ps += (e - acc - rw) + (dur - rw) * (j - 1);
            acc = e + dur * (j - 1);
            e += dur * j;
            *done = e;
            k += j;
            if (k == n)
                break;
        }
        const tick_t ready = std::max(e, acc + rw);
        acc = one(pa + (uint64_t)k * lb, acc);
        contended = acc > ready;
        e = *done;
        k++;
    }
    return acc;
}

uint32_t pl310::reg_read(uint32_t offset)
{
    switch (offset) {
    case pl310_reg::CACHE_ID: return pl310_reg::CACHE_ID_IMX6Q;
    case pl310_reg::CTRL: return m_ctrl;
    case pl310_reg::AUX_CTRL: return m_aux;
    case pl310_reg::CACHE_SYNC: return 0;  // operations are atomic: never pending when read
    default: return 0;
    }
}

void pl310::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay)
{
    const tick_t t = now_ps() + to_ps(delay);
    delay = from_ps(access(gp, t) - now_ps());
}

void pl310::regs_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay)
{
    const uint32_t off = (uint32_t)(gp.get_address() & 0xFFF);
    uint32_t v = 0;
    if (gp.get_data_length() != 4) {
        gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    const tick_t t = now_ps() + to_ps(delay);
    if (gp.is_write()) {
        std::memcpy(&v, gp.get_data_ptr(), 4);
        delay = from_ps(reg_write(off, v, t, nullptr) - now_ps());
    } else {
        v = reg_read(off);
        std::memcpy(gp.get_data_ptr(), &v, 4);
        delay = from_ps(t + m_clk.cycles(m_cfg.reg_write_cycles) - now_ps());
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

} // namespace models::cache
