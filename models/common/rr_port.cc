#include "common/rr_port.h"
#include <algorithm>

namespace models {

const rr_port::env* rr_port::containing(const master& x, tick_t s) const
{
    const size_t n = x.v.size();
    if (n == x.head || x.v[n - 1].end <= s)
        return nullptr;
    // Envelopes starting after s are few (a master runs at most a few quanta
    // ahead); look back a little, then bisect.
    for (size_t k = n, steps = 0; k > x.head && steps < 8; k--, steps++) {
        const env& e = x.v[k - 1];
        if (e.start <= s)
            return s < e.end ? &e : nullptr;
    }
    auto it = std::upper_bound(x.v.begin() + (long)x.head, x.v.end(), s,
                               [](tick_t a, const env& e) { return a < e.start; });
    if (it == x.v.begin() + (long)x.head)
        return nullptr;
    --it;
    return s < it->end ? &*it : nullptr;
}

rr_port::grant_info rr_port::grant_contended(unsigned m, tick_t t)
{
    grant_info g;
    tick_t s = t + m_m[m].debt;
    uint32_t waited = 0;  // masters whose turn came: the next turn is ours
    for (unsigned round = 0; round < 4 * m_m.size(); round++) {
        bool moved = false;
        if (const env* e = containing(m_m[m], s)) {  // own requests in order
            s = e->end;
            moved = true;
        }
        for (uint32_t live = m_live & ~waited & ~(1u << m); live; live &= live - 1) {
            const unsigned x = (unsigned)__builtin_ctz(live);
            if (m_m[x].v.back().end <= s)
                continue;
            const env* e = containing(m_m[x], s);
            if (!e)
                continue;
            // Wait for the slot in progress (one that starts at s included).
            tick_t b = e->grid <= s ? e->grid + ((s - e->grid) / e->slot + 1) * e->slot : s + e->slot;
            b = std::min(b, e->end);
            if (b <= s)
                continue;
            waited |= 1u << x;
            g.behind = (int)x;
            g.behind_slot_start = std::max(e->start, b - std::min(b, e->slot));
            g.behind_maint = e->maint;
            s = b;
            moved = true;
        }
        if (!moved)
            break;
    }
    g.start = s;
    return g;
}

void rr_port::displace(master& x, tick_t s, tick_t until)
{
    const size_t n = x.v.size();
    if (n == x.head || x.v[n - 1].end <= s)
        return;
    // First envelope ending after s.
    size_t i = n;
    while (i > x.head && x.v[i - 1].end > s)
        i--;
    if (x.v[i].start >= until)
        return;
    const tick_t hold = until - s;
    tick_t shift;
    if (x.v[i].start <= s) {  // interrupted between two of its slots
        shift = hold;
        x.v[i].end += hold;
        x.v[i].grid = until;
    } else {  // its envelope began while the port was taken
        shift = until - x.v[i].start;
        x.v[i].start += shift;
        x.v[i].end += shift;
        x.v[i].grid += shift;
    }
    for (size_t k = i + 1; k < n; k++) {
        x.v[k].start += shift;
        x.v[k].end += shift;
        x.v[k].grid += shift;
    }
    x.debt += shift;
}

void rr_port::prune_old(master& x, tick_t lim)
{
    while (x.head < x.v.size() && x.v[x.head].end < lim)
        x.head++;
    if (x.head > 64 && x.head * 2 > x.v.size()) {
        x.v.erase(x.v.begin(), x.v.begin() + (long)x.head);
        x.head = 0;
    }
}

void rr_port::commit_general(unsigned m, tick_t s, tick_t hold, tick_t slot, bool maint)
{
    master& me = m_m[m];
    me.debt = 0;
    if (hold == 0)
        return;
    for (uint32_t live = m_live & ~(1u << m); live; live &= live - 1) {
        master& x = m_m[(unsigned)__builtin_ctz(live)];
        if (x.v.back().end > s)
            displace(x, s, s + hold);
    }
    if (slot == 0)
        slot = hold;
    env* last = me.v.size() > me.head ? &me.v.back() : nullptr;
    if (last && s == last->end) {
        // Back to back with its previous request: same envelope.
        if (last->slot != slot || last->maint != maint) {
            last->grid = s;
            last->slot = slot;
            last->maint = maint;
        }
        last->end = s + hold;
    } else if (!last || s >= last->end) {
        me.v.push_back(env{s, s + hold, s, slot, maint});
        m_live |= 1u << m;
    } else {  // rare: the master's own requests out of time order
        auto it = std::upper_bound(me.v.begin() + (long)me.head, me.v.end(), s,
                                   [](tick_t a, const env& e) { return a < e.start; });
        me.v.insert(it, env{s, s + hold, s, slot, maint});
    }
    prune(me, s);
}

tick_t rr_port::others_next_busy(unsigned m, tick_t a) const
{
    tick_t r = ~(tick_t)0;
    for (uint32_t live = m_live & ~(1u << m); live; live &= live - 1) {
        const master& x = m_m[(unsigned)__builtin_ctz(live)];
        if (x.v.size() == x.head || x.v.back().end <= a)
            continue;
        // The first envelope ending after a; the envelopes are disjoint and sorted.
        auto it = std::partition_point(x.v.begin() + (long)x.head, x.v.end(),
                                       [a](const env& e) { return e.end <= a; });
        r = std::min(r, std::max(it->start, a));
    }
    return r;
}

} // namespace models
