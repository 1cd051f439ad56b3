#include "common/timeline.h"

namespace models {

void timeline::prune_old(tick_t lim)
{
    while (m_head < m_iv.size() && m_iv[m_head].end < lim)
        m_head++;
    if (m_head > 64 && m_head * 2 > m_iv.size()) {
        m_iv.erase(m_iv.begin(), m_iv.begin() + m_head);
        m_head = 0;
    }
    m_prune_after = m_head < m_iv.size() ? m_iv[m_head].end + m_horizon : NEVER;
}

size_t timeline::first_ending_after(tick_t t) const
{
    // Fast paths: most requests land at or after the last booking, or just
    // before it (a busy resource seen by the initiator that booked it last).
    const size_t n = m_iv.size();
    if (n == m_head || m_iv[n - 1].end <= t)
        return n;
    for (size_t k = n - 1, steps = 0; k > m_head && steps < 4; k--, steps++)
        if (m_iv[k - 1].end <= t)
            return k;
    auto it = std::upper_bound(m_iv.begin() + m_head, m_iv.end(), t,
                               [](tick_t x, const iv& v) { return x < v.end; });
    return (size_t)(it - m_iv.begin());
}

tick_t timeline::free_at_booked(tick_t t) const
{
    size_t i = first_ending_after(t);
    if (i < m_iv.size() && m_iv[i].start <= t)
        return m_iv[i].end;  // intervals never touch, so the end is idle
    return t;
}

tick_t timeline::book_before_last(tick_t t, tick_t dur)
{
    size_t i = first_ending_after(t);
    tick_t s = t;
    const tick_t need = dur ? dur : 1;  // a zero-length request still needs an idle instant
    while (i < m_iv.size() && m_iv[i].start < s + need) {
        s = std::max(s, m_iv[i].end);
        i++;
    }
    if (dur == 0)
        return s;
    const tick_t e = s + dur;
    bool join_prev = i > m_head && m_iv[i - 1].end == s;
    bool join_next = i < m_iv.size() && m_iv[i].start == e;
    if (join_prev && join_next) {
        m_iv[i - 1].end = m_iv[i].end;
        m_iv.erase(m_iv.begin() + i);
    } else if (join_prev) {
        m_iv[i - 1].end = e;
    } else if (join_next) {
        m_iv[i].start = s;
    } else {
        m_iv.insert(m_iv.begin() + i, iv{s, e});
        noted(e);
    }
    return s;
}

tick_t timeline::fit_intervals(tick_t t, tick_t need) const
{
    size_t i = first_ending_after(t);
    tick_t s = t;
    while (i < m_iv.size() && m_iv[i].start < s + need) {
        s = std::max(s, m_iv[i].end);
        i++;
    }
    return s;
}

tick_t slot_run::fit(tick_t s, tick_t need, tick_t e) const
{
    if (n == 0 || s + need <= start)
        return s;
    if (s >= e)
        return s;
    uint64_t j;
    if (s < start) {
        s = start + busy;  // it meets slot 0: after it
        j = 0;
    } else {
        j = last_started(s);
        if (s < slot_start(j) + busy)
            s = slot_start(j) + busy;
    }
    const tick_t gin = m > 1 ? spacing - busy : 0;  // gap between slots of a round
    const tick_t gout = round - (m - 1) * spacing - busy;  // gap between rounds
    // s lies in the gap after slot j.
    for (;;) {
        if (j + 1 >= n)
            return s;
        if (s + need <= slot_start(j + 1))
            return s;
        if (need > gin && need > gout)
            return e;  // no gap is long enough
        if (need > gin)
            j = std::min(n - 1, ((j + 1) / m) * m + m - 1);  // only a gap between rounds: after the next round
        else
            j++;
        s = slot_start(j) + busy;
    }
}

tick_t timeline::fit_runs(tick_t t, tick_t dur) const
{
    const tick_t need = dur ? dur : 1;
    for (;;) {
        const tick_t s = fit_intervals(t, need);
        tick_t u = s;
        for (size_t k = m_run_head; k < m_runs.size(); k++) {
            const run& x = m_runs[k];
            if (m_runs_sorted && u + need <= x.r.start)
                break;  // it and every later one start after [u, u + need): fit() keeps u
            if (u < x.end)
                u = x.r.fit(u, need, x.end);
        }
        if (u == s)
            return s;
        t = u;  // moved past a run: look at everything again from there
    }
}

void timeline::book_run(const slot_run& r)
{
    if (r.n == 0 || r.busy == 0)
        return;
    const tick_t end = r.end();
    // Forget runs that ended long before this one starts (in booking order;
    // a run booked late by another owner lingers until those before it go).
    while (m_run_head < m_runs.size() && m_runs[m_run_head].end + m_horizon < r.start)
        m_run_head++;
    if (m_run_head > 64 && m_run_head * 2 > m_runs.size()) {
        m_runs.erase(m_runs.begin(), m_runs.begin() + (long)m_run_head);
        m_run_head = 0;
    }
    if (!m_runs.empty() && r.start < m_runs.back().r.start)
        m_runs_sorted = false;
    m_runs.push_back(run{r, end});
    m_has_runs = true;
}

} // namespace models
