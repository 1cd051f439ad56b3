// models/common/timeline.h: occupancy of a shared resource (a DRAM channel, the
// PL310 slave ports) under temporal decoupling.
//
// Initiators run ahead of SystemC time by up to a quantum, so requests reach a
// shared resource out of time order. A single "busy until" would make an early
// request queue behind a later one; instead the resource keeps the set of busy
// intervals and a request takes the first gap at or after its own time that is
// long enough. Exact for in-order arrivals; for out-of-order arrivals it gives
// the schedule that arrival order would have produced on real hardware with a
// first-come-first-served arbiter. Intervals older than the horizon (twice the
// global quantum, set by elaboration) are forgotten.
//
// Besides intervals a timeline can hold runs (book_run, slot_run below): n
// equal bookings in rounds, the aggregate memory hog's stream of line
// transfers booked as one record. A run is placed where its owner computed it
// (it may overlap intervals booked before it); later requests (book, free_at)
// take the first gap that is free of both. A timeline without runs behaves
// exactly as without this feature.
#pragma once
#include <cstdint>
#include <vector>
#include "common/time.h"

namespace models {

// n slots of busy ps each, in rounds of m: slot j starts at
// start + (j / m) * round + (j % m) * spacing. For fit(): busy <= spacing
// when m > 1, and (m - 1) * spacing + busy <= round. m = 1: a plain period.
struct slot_run {
    tick_t start = 0, round = 0, spacing = 0, busy = 0;
    uint64_t n = 0, m = 1;
    tick_t slot_start(uint64_t j) const { return start + (j / m) * round + (j % m) * spacing; }
    tick_t end() const { return slot_start(n - 1) + busy; }
    // The last slot starting at or before t (t >= start, n >= 1).
    uint64_t last_started(tick_t t) const
    {
        const uint64_t r = (t - start) / round;
        uint64_t i = m > 1 ? (t - start - r * round) / spacing : 0;
        if (i >= m)
            i = m - 1;
        const uint64_t j = r * m + i;
        return j < n ? j : n - 1;
    }
    // First s' >= s such that [s', s' + need) meets none of the slots;
    // e = end() (the caller keeps it).
    tick_t fit(tick_t s, tick_t need, tick_t e) const;
};

class timeline {
public:
    explicit timeline(tick_t horizon_ps = 100 * PS_PER_US) : m_horizon(horizon_ps) {}
    void set_horizon(tick_t h)
    {
        m_horizon = h;
        m_prune_after = m_head < m_iv.size() ? m_iv[m_head].end + h : NEVER;
    }

    // Reserve dur ps at the first time >= t the resource is free for that long.
    // Returns the start time. dur == 0 returns the first idle time >= t.
    tick_t book(tick_t t, tick_t dur)
    {
        if (__builtin_expect(m_has_runs, 0))
            t = fit_runs(t, dur);  // the first gap free of runs and intervals: booked below as found
        prune(t);
        const size_t n = m_iv.size();
        if (n != m_head && m_iv[n - 1].end > t)
            return book_before_last(t, dur);
        // At or after the latest booking.
        if (dur == 0)
            return t;
        if (n != m_head && m_iv[n - 1].end == t) {
            m_iv[n - 1].end = t + dur;
        } else {
            m_iv.push_back(iv{t, t + dur});
            noted(t + dur);
        }
        return t;
    }
    // First time >= t not covered by a booking.
    tick_t free_at(tick_t t) const
    {
        if (__builtin_expect(m_has_runs, 0))
            return fit_runs(t, 0);
        if (m_iv.size() == m_head)
            return t;
        const iv& last = m_iv.back();
        if (last.end <= t)
            return t;
        return last.start <= t ? last.end : free_at_booked(t);  // intervals never touch
    }
    // Start and end of the latest booking (0 if none).
    tick_t last_start() const { return m_iv.size() > m_head ? m_iv.back().start : 0; }
    tick_t last_end() const { return m_iv.size() > m_head ? m_iv.back().end : 0; }
    size_t live_intervals() const { return m_iv.size() - m_head; }
    // The latest end of anything booked and not forgotten, intervals and
    // runs (0 if nothing): every time from it on is free.
    tick_t busy_until() const
    {
        tick_t e = last_end();
        for (size_t k = m_run_head; k < m_runs.size(); k++)
            e = std::max(e, m_runs[k].end);
        return e;
    }
    void clear()
    {
        m_iv.clear();
        m_head = 0;
        m_prune_after = NEVER;
        m_runs.clear();
        m_run_head = 0;
        m_has_runs = false;
        m_runs_sorted = true;
    }
    // Book the slots of r as one record, where the caller computed them.
    // Runs older than the horizon are forgotten as intervals are.
    void book_run(const slot_run& r);
    // A run has been booked since the last clear() (free_at and book look
    // at the runs not yet forgotten).
    bool has_runs() const { return m_has_runs; }

private:
    struct iv { tick_t start, end; };
    size_t first_ending_after(tick_t t) const;
    tick_t free_at_booked(tick_t t) const;  // free_at when t is before the latest booking
    static constexpr tick_t NEVER = ~(tick_t)0;
    // Forget intervals that ended before t - horizon. m_prune_after is at
    // most the first live interval's end + horizon (NEVER: none): a prune
    // below it has nothing to forget; prune_old() sets it exactly.
    void prune(tick_t t)
    {
        if (t > m_prune_after)
            prune_old(t - m_horizon);
    }
    // A new interval ending at e.
    void noted(tick_t e)
    {
        if (e + m_horizon < m_prune_after)
            m_prune_after = e + m_horizon;
    }
    void prune_old(tick_t lim);
    tick_t book_before_last(tick_t t, tick_t dur);  // book when the latest booking ends after t

    struct run {
        slot_run r;
        tick_t end;  // of its last slot
    };
    // First s >= t such that [s, s + max(dur, 1)) meets no interval and no run.
    [[gnu::noinline, gnu::cold]] tick_t fit_runs(tick_t t, tick_t dur) const;
    // First s >= t such that [s, s + need) meets no interval.
    tick_t fit_intervals(tick_t t, tick_t need) const;

    std::vector<iv> m_iv;  // sorted, disjoint, non-touching: [start, end)
    std::vector<run> m_runs;  // in booking order; m_runs[0..m_run_head) are forgotten
    size_t m_run_head = 0;
    bool m_has_runs = false;
    // Every run booked since clear() starts no earlier than the one booked
    // before it (one booker's runs in its time order): those starting after
    // a time are a suffix, which fit_runs() need not look at.
    bool m_runs_sorted = true;
    size_t m_head = 0;     // m_iv[0..m_head) are dead
    tick_t m_horizon;
    tick_t m_prune_after = NEVER;
};

} // namespace models
