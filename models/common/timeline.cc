#include "common/timeline.h"
#include <algorithm>

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

} // namespace models
