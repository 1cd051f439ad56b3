// models/common/rr_port.h: a port shared by several masters with round-robin
// arbitration between them at request granularity (the PL310 slave ports).
//
// Under temporal decoupling the masters book the port out of time order: one
// that runs ahead (the memory hog) books whole bursts before a core asks for
// the port at an earlier simulated time. A plain first-fit timeline would make
// the later-booked request wait for the end of the whole burst, or a burst
// booked later wait behind a whole run of maintenance operations. Here each
// master keeps its own occupancy as envelopes: maximal runs of back-to-back
// requests, each with the length of its requests (slot) and the start of its
// current slot grid. Contract of grant/commit:
//   * a master's own requests are served in order;
//   * a request arriving while another master is inside an envelope waits
//     for the end of that master's slot in progress (one request; a slot
//     that begins exactly at the arrival counts as in progress, which makes
//     two backlogged masters alternate), not for the end of its envelope;
//   * the displaced master's remaining envelope and all of its later
//     envelopes move back by the time taken, and the master owes that time:
//     its next grant starts at least that much later (debt), so the total
//     occupancy is conserved.
// Side effects a displaced master already computed (its data, its fills and
// evictions) keep their original times: that is the approximation.
#pragma once
#include <cstdint>
#include <vector>
#include "common/time.h"

namespace models {

class rr_port {
public:
    // masters <= 32
    rr_port(unsigned masters, tick_t horizon_ps = 100 * PS_PER_US) : m_m(masters), m_horizon(horizon_ps) {}
    void set_horizon(tick_t h) { m_horizon = h; }

    struct grant_info {
        tick_t start;     // when the port is the requester's
        int behind = -1;  // master whose slot it waited for last (-1: none)
        tick_t behind_slot_start = 0;  // start of that slot
        bool behind_maint = false;     // that slot was maintenance
    };
    // When a request of master m arriving at t gets the port (debt included).
    grant_info grant(unsigned m, tick_t t)
    {
        // Common case: nothing of another master's is booked at or after its
        // arrival, and of its own at most a request in progress, which it
        // waits for.
        tick_t s = t + m_m[m].debt;
        const master& me = m_m[m];
        const bool own_clear = me.v.size() == me.head || me.v.back().end <= s;
        if (!own_clear && me.v.back().start <= s)
            s = me.v.back().end;
        if (own_clear || me.v.back().end == s) {
            uint32_t live = m_live & ~(1u << m);
            for (; live; live &= live - 1)
                if (m_m[(unsigned)__builtin_ctz(live)].v.back().end > s)
                    break;
            if (!live) {
                grant_info g;
                g.start = s;
                return g;
            }
        }
        return grant_contended(m, t);
    }
    // Book [s, s + hold) for m (s from grant()); requests of `slot` ps each
    // (hold may be several back-to-back requests, or one request that holds
    // the port while it stalls). Clears m's debt.
    void commit(unsigned m, tick_t s, tick_t hold, tick_t slot, bool maint)
    {
        // Common case: back to back with its own latest envelope, requests
        // of the same kind, and no other master booked after s.
        master& me = m_m[m];
        if (hold && slot && me.v.size() != me.head) {
            env& last = me.v.back();
            if (s == last.end && last.slot == slot && last.maint == maint && !others_after(m, s)) {
                me.debt = 0;
                last.end = s + hold;
                prune(me, s);
                return;
            }
        }
        commit_general(m, s, hold, slot, maint);
    }

    // commit(m, s, hold, slot, maint) would extend m's latest envelope, which
    // ends at s, with nothing of another master's booked after s: m's next
    // requests from s are granted at once, and booking a run of them as one
    // commit is the same as booking each.
    bool extends(unsigned m, tick_t s, tick_t slot, bool maint) const
    {
        const master& me = m_m[m];
        if (me.v.size() == me.head)
            return false;
        const env& last = me.v.back();
        return s == last.end && last.slot == slot && last.maint == maint && me.debt == 0 && !others_after(m, s);
    }
    // After extends(m, s, ...) held: the same as committing back-to-back
    // requests of m from s up to end, the latest of which started at last_s
    // (its envelope ends at end; forgotten envelopes as of last_s).
    void extend_run(unsigned m, tick_t end, tick_t last_s)
    {
        master& me = m_m[m];
        me.v.back().end = end;
        prune(me, last_s);
    }
    // The first time >= a at which a master other than m holds the port
    // (~0: none).
    tick_t others_next_busy(unsigned m, tick_t a) const;
    tick_t debt(unsigned m) const { return m < m_m.size() ? m_m[m].debt : 0; }
    size_t live_envelopes(unsigned m) const { return m_m[m].v.size() - m_m[m].head; }

private:
    struct env {
        tick_t start, end;  // [start, end)
        tick_t grid;        // start of the current run of equal slots
        tick_t slot;        // length of one request in that run
        bool maint;
    };
    struct master {
        std::vector<env> v;  // sorted by start, disjoint
        size_t head = 0;     // v[0..head) are dead
        tick_t debt = 0;
    };
    // Envelope of x containing time s, or nullptr.
    const env* containing(const master& x, tick_t s) const;
    grant_info grant_contended(unsigned m, tick_t t);
    bool wait_slot(const env& e, unsigned x, tick_t& s, grant_info& g) const;
    void commit_general(unsigned m, tick_t s, tick_t hold, tick_t slot, bool maint);
    // Some master other than m has a booking ending after s.
    bool others_after(unsigned m, tick_t s) const
    {
        for (uint32_t live = m_live & ~(1u << m); live; live &= live - 1)
            if (m_m[(unsigned)__builtin_ctz(live)].v.back().end > s)
                return true;
        return false;
    }
    void displace(master& x, tick_t s, tick_t until);
    // Forget x's envelopes that ended before t - horizon.
    void prune(master& x, tick_t t)
    {
        if (t > m_horizon && x.head < x.v.size() && x.v[x.head].end < t - m_horizon)
            prune_old(x, t - m_horizon);
    }
    void prune_old(master& x, tick_t lim);

    std::vector<master> m_m;
    uint32_t m_live = 0;  // masters that have booked (bit per master)
    tick_t m_horizon;
};

} // namespace models
