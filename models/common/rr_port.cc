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

// Wait for x's slot in progress at s in its envelope e (one that starts at
// s included): s moves to its end and g records the slot; false (nothing
// changed) if there is none left before e ends.
inline bool rr_port::wait_slot(const env& e, unsigned x, tick_t& s, grant_info& g) const
{
    tick_t b = e.grid == s ? s + e.slot
               : e.grid < s ? e.grid + ((s - e.grid) / e.slot + 1) * e.slot
                            : s + e.slot;
    b = std::min(b, e.end);
    if (b <= s)
        return false;
    g.behind = (int)x;
    g.behind_slot_start = std::max(e.start, b - std::min(b, e.slot));
    g.behind_maint = e.maint;
    s = b;
    return true;
}

rr_port::grant_info rr_port::grant_contended(unsigned m, tick_t t)
{
    grant_info g;
    tick_t s = t + m_m[m].debt;
    const master& me = m_m[m];
    // The masters that may still hold the port at s: s only grows, so one
    // whose bookings all end by s drops out for good.
    uint32_t cand = 0;
    for (uint32_t live = m_live & ~(1u << m); live; live &= live - 1) {
        const unsigned x = (unsigned)__builtin_ctz(live);
        if (m_m[x].v.back().end > s)
            cand |= 1u << x;
    }
    // Common: at most one other master may hold the port at s, and m's own
    // latest booking is the only one of its that can (it starts by s). One
    // round of the loop below then decides: m's own request in progress,
    // then the other's slot in progress; a second round would move nothing.
    if (!(cand & (cand - 1)) && (me.v.size() == me.head || me.v.back().start <= s)) {
        if (me.v.size() != me.head && me.v.back().end > s)
            s = me.v.back().end;
        if (cand) {
            const unsigned x = (unsigned)__builtin_ctz(cand);
            if (m_m[x].v.back().end > s)
                if (const env* e = containing(m_m[x], s))
                    wait_slot(*e, x, s, g);
        }
        g.start = s;
        return g;
    }
    for (unsigned round = 0; round < 4 * m_m.size(); round++) {
        bool moved = false;
        if (me.v.size() != me.head && me.v.back().end > s)
            if (const env* e = containing(me, s)) {  // own requests in order
                s = e->end;
                moved = true;
            }
        for (uint32_t live = cand; live; live &= live - 1) {
            const unsigned x = (unsigned)__builtin_ctz(live);
            if (m_m[x].v.back().end <= s) {
                cand &= ~(1u << x);
                continue;
            }
            const env* e = containing(m_m[x], s);
            if (!e)
                continue;
            if (!wait_slot(*e, x, s, g))
                continue;
            cand &= ~(1u << x);  // its turn came: the next turn is ours
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
