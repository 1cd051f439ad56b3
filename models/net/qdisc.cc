#include "net/qdisc.h"
#include <algorithm>

namespace models::net {

qdisc::qdisc(const qdisc_config& cfg) : m_cfg(cfg)
{
    // the bounds fq_codel_change and pfifo_fast_init enforce
    m_cfg.fq_flows = std::clamp<uint32_t>(m_cfg.fq_flows, 1, 65536);
    m_cfg.fq_quantum = std::max<uint32_t>(m_cfg.fq_quantum, 256);
    m_cfg.fq_drop_batch = std::max<uint32_t>(m_cfg.fq_drop_batch, 1);
    m_cfg.pfifo_limit = std::max<uint32_t>(m_cfg.pfifo_limit, 1);
    if (m_cfg.kind == QDISC_PFIFO_FAST) {
        for (ring& r : m_band) {
            r.slot.resize(m_cfg.pfifo_limit);
            r.used.assign(m_cfg.pfifo_limit, 0);
            // __ptr_ring_set_size: no batching when the batch exceeds half the ring
            r.batch = m_cfg.pfifo_ring_batch;
            if (r.batch > m_cfg.pfifo_limit / 2 || r.batch == 0)
                r.batch = 1;
        }
    } else {
        m_cfg.kind = QDISC_FQ_CODEL;
        m_flows.resize(m_cfg.fq_flows);
        m_backlogs.assign(m_cfg.fq_flows, 0);
    }
}

int qdisc::enqueue(const qdisc_pkt& p, tick_t now, std::vector<qdisc_pkt>* dropped)
{
    qdisc_pkt q = p;
    q.enqueued = now;
    m_stats.enqueued++;
    const int ret = m_cfg.kind == QDISC_PFIFO_FAST ? pfifo_enqueue(q, dropped) : fq_enqueue(q, dropped);
    m_stats.backlog_max_pkts = std::max<uint64_t>(m_stats.backlog_max_pkts, m_qlen);
    m_stats.backlog_max_bytes = std::max(m_stats.backlog_max_bytes, m_backlog);
    return ret;
}

bool qdisc::dequeue(tick_t now, qdisc_pkt* out, std::vector<qdisc_pkt>* dropped)
{
    // dequeue_skb: a packet parked in q->gso_skb goes before the discipline's
    if (!m_requeued.empty()) {
        *out = m_requeued.front();
        m_requeued.pop_front();
        m_qlen--;
        m_backlog -= out->len;
        handed_out(*out, now);
        return true;
    }
    const bool ok = m_cfg.kind == QDISC_PFIFO_FAST ? pfifo_dequeue(out) : fq_dequeue(now, out, dropped);
    if (ok)
        handed_out(*out, now);
    return ok;
}

void qdisc::requeue(const qdisc_pkt& p)
{
    m_requeued.push_front(p);
    m_qlen++;
    m_backlog += p.len;
    m_stats.requeues++;
    if (m_stats.dequeued > 0)  // (unless reset_stats came between)
        m_stats.dequeued--;
    if (m_last_valid && m_last_id == p.id && m_stats.sojourn_ps_sum >= m_last_sojourn) {
        m_stats.sojourn_ps_sum -= m_last_sojourn;
        m_last_valid = false;
    }
}

void qdisc::handed_out(const qdisc_pkt& p, tick_t now)
{
    const tick_t soj = now > p.enqueued ? now - p.enqueued : 0;
    m_stats.dequeued++;
    m_stats.sojourn_ps_sum += soj;
    m_stats.sojourn_ps_max = std::max(m_stats.sojourn_ps_max, soj);
    m_last_id = p.id;
    m_last_sojourn = soj;
    m_last_valid = true;
}

// ---------------------------------------------------------------- pfifo_fast

int qdisc::pfifo_enqueue(const qdisc_pkt& p, std::vector<qdisc_pkt>* dropped)
{
    ring& r = m_band[std::min<uint8_t>(p.band, 2)];
    // __ptr_ring_produce: the slot at the producer must have been freed
    if (r.used[r.producer]) {
        m_stats.drops_overlimit++;
        dropped->push_back(p);
        return NET_XMIT_DROP;
    }
    r.slot[r.producer] = p;
    r.used[r.producer] = 1;
    if (++r.producer >= r.slot.size())
        r.producer = 0;
    m_qlen++;
    m_backlog += p.len;
    return NET_XMIT_SUCCESS;
}

bool qdisc::pfifo_dequeue(qdisc_pkt* out)
{
    for (ring& r : m_band) {
        // __ptr_ring_empty / __ptr_ring_consume
        if (!r.used[r.consumer_head])
            continue;
        const uint32_t head = r.consumer_head;
        *out = r.slot[head];
        // __ptr_ring_discard_one: slots are released to the producer a batch
        // at a time, or when the consumer reaches the end of the ring
        uint32_t ch = head + 1;
        if (ch - r.consumer_tail >= r.batch || ch >= r.slot.size()) {
            for (uint32_t i = r.consumer_tail; i <= head; i++)
                r.used[i] = 0;
            r.consumer_tail = ch;
        }
        if (ch >= r.slot.size())
            ch = r.consumer_tail = 0;
        r.consumer_head = ch;
        m_qlen--;
        m_backlog -= out->len;
        return true;
    }
    return false;
}

// ---------------------------------------------------------------- fq_codel

int qdisc::fq_enqueue(const qdisc_pkt& p, std::vector<qdisc_pkt>* dropped)
{
    const uint32_t idx = p.flow % m_cfg.fq_flows;
    flow& f = m_flows[idx];
    uint32_t n = m_free;
    if (n != NIL) {
        m_free = m_nodes[n].next;
        m_nodes[n] = node{p, NIL};
    } else {
        n = (uint32_t)m_nodes.size();
        m_nodes.push_back(node{p, NIL});
    }
    if (f.head == NIL)
        f.head = n;
    else
        m_nodes[f.tail].next = n;
    f.tail = n;
    m_backlogs[idx] += p.len;
    m_backlog += p.len;
    // a bucket on neither list becomes new, with a fresh quantum; one still
    // listed (even empty) keeps its place and deficit
    if (f.list == LIST_NONE) {
        m_new.push_back(idx);
        f.list = LIST_NEW;
        m_stats.new_flows++;
        f.deficit = m_cfg.fq_quantum;
    }
    m_memory += p.truesize;
    const bool memory_limited = m_memory > m_cfg.fq_memory_limit;
    if (++m_qlen <= m_cfg.fq_limit && !memory_limited)
        return NET_XMIT_SUCCESS;
    const uint32_t before = m_qlen;
    const uint32_t victim = fq_drop(dropped);
    const uint32_t n_dropped = before - m_qlen;
    m_stats.drops_overlimit += n_dropped;
    if (memory_limited)
        m_stats.drops_overmemory += n_dropped;
    return victim == idx ? NET_XMIT_CN : NET_XMIT_SUCCESS;
}

// fq_codel_drop: head drops from the bucket of most bytes (the first such
// index), until half its backlog or fq_drop_batch packets are gone.
uint32_t qdisc::fq_drop(std::vector<qdisc_pkt>* dropped)
{
    uint64_t maxbacklog = 0;
    uint32_t idx = 0;
    for (uint32_t i = 0; i < m_cfg.fq_flows; i++) {
        if (m_backlogs[i] > maxbacklog) {
            maxbacklog = m_backlogs[i];
            idx = i;
        }
    }
    const uint64_t threshold = maxbacklog >> 1;
    flow& f = m_flows[idx];
    uint64_t len = 0, mem = 0;
    uint32_t i = 0;
    do {
        if (f.head == NIL)
            break;
        const uint32_t n = f.head;
        f.head = m_nodes[n].next;
        if (f.head == NIL)
            f.tail = NIL;
        len += m_nodes[n].p.len;
        mem += m_nodes[n].p.truesize;
        dropped->push_back(m_nodes[n].p);
        m_nodes[n].next = m_free;
        m_free = n;
    } while (++i < m_cfg.fq_drop_batch && len < threshold);
    f.cv.count += i;  // CoDel's drop rate rises with these drops too
    m_backlogs[idx] -= len;
    m_memory -= mem;
    m_backlog -= len;
    m_qlen -= i;
    return idx;
}

// dequeue_func: the bucket's head packet, out of every count.
bool qdisc::flow_pop(flow& f, uint32_t idx, qdisc_pkt* out)
{
    if (f.head == NIL)
        return false;
    const uint32_t n = f.head;
    *out = m_nodes[n].p;
    f.head = m_nodes[n].next;
    if (f.head == NIL)
        f.tail = NIL;
    m_nodes[n].next = m_free;
    m_free = n;
    m_backlogs[idx] -= out->len;
    m_memory -= out->truesize;
    m_qlen--;
    m_backlog -= out->len;
    return true;
}

bool qdisc::fq_dequeue(tick_t now, qdisc_pkt* out, std::vector<qdisc_pkt>* dropped)
{
    for (;;) {
        std::deque<uint32_t>* head = &m_new;
        if (m_new.empty()) {
            head = &m_old;
            if (m_old.empty())
                return false;
        }
        const uint32_t idx = head->front();
        flow& f = m_flows[idx];
        if (f.deficit <= 0) {
            // credit spent: a new quantum and the tail of old_flows
            f.deficit += m_cfg.fq_quantum;
            head->pop_front();
            m_old.push_back(idx);
            f.list = LIST_OLD;
            continue;
        }
        if (!codel_dequeue(f, idx, now, out, dropped)) {
            // an empty bucket from new_flows passes through old_flows once
            // (if any), so that new flows cannot starve old ones
            const bool from_new = head == &m_new;
            head->pop_front();
            if (from_new && !m_old.empty()) {
                m_old.push_back(idx);
                f.list = LIST_OLD;
            } else {
                f.list = LIST_NONE;
            }
            continue;
        }
        f.deficit -= out->len;
        return true;
    }
}

// codel_Newton_step: one Newton iteration of 1/sqrt(count) in Q0.32,
// kept in 16 bits; the arithmetic (and its wrap) is the kernel's.
static void newton_step(uint16_t& rec_inv_sqrt, uint32_t count)
{
    const uint32_t invsqrt = (uint32_t)rec_inv_sqrt << 16;
    const uint32_t invsqrt2 = (uint32_t)(((uint64_t)invsqrt * invsqrt) >> 32);
    uint64_t val = (3ull << 32) - (uint64_t)count * invsqrt2;
    val >>= 2;
    val = (val * invsqrt) >> (32 - 2 + 1);
    rec_inv_sqrt = (uint16_t)(val >> 16);
}

// codel_control_law: t + interval * rec_inv_sqrt (reciprocal_scale of the
// Q0.32 value, i.e. the 16-bit value over 2^16).
static tick_t control_law(tick_t t, tick_t interval, uint16_t rec_inv_sqrt)
{
    return t + ((interval * rec_inv_sqrt) >> 16);
}

// codel_should_drop: p (null: the bucket is empty) has been above target for
// at least an interval, with more than an MTU still queued behind it.
bool qdisc::codel_should_drop(const qdisc_pkt* p, codel_vars& cv, tick_t now) const
{
    if (!p) {
        cv.first_above_time = 0;
        return false;
    }
    cv.ldelay = now - p->enqueued;
    // the backlog is the whole qdisc's (sch->qstats.backlog), requeued
    // packets included, after p was taken out
    if (cv.ldelay < m_cfg.codel_target_ps || m_backlog <= m_cfg.codel_mtu) {
        cv.first_above_time = 0;
        return false;
    }
    if (cv.first_above_time == 0) {
        cv.first_above_time = now + m_cfg.codel_interval_ps;
        return false;
    }
    return now > cv.first_above_time;
}

// codel_dequeue for one bucket (no ECN: every CoDel signal is a drop).
bool qdisc::codel_dequeue(flow& f, uint32_t idx, tick_t now, qdisc_pkt* out, std::vector<qdisc_pkt>* dropped)
{
    codel_vars& cv = f.cv;
    const tick_t interval = m_cfg.codel_interval_ps;
    if (!flow_pop(f, idx, out)) {
        cv.first_above_time = 0;
        cv.dropping = false;
        return false;
    }
    bool have = true;
    const bool drop = codel_should_drop(out, cv, now);
    if (cv.dropping) {
        if (!drop) {
            cv.dropping = false;  // below target: leave the dropping state
        } else {
            // every drop that is due (a large backlog may make several due now)
            while (cv.dropping && now >= cv.drop_next) {
                cv.count++;
                newton_step(cv.rec_inv_sqrt, cv.count);
                dropped->push_back(*out);
                m_stats.drops_codel++;
                have = flow_pop(f, idx, out);
                if (!codel_should_drop(have ? out : nullptr, cv, now))
                    cv.dropping = false;
                else
                    cv.drop_next = control_law(cv.drop_next, interval, cv.rec_inv_sqrt);
            }
        }
    } else if (drop) {
        dropped->push_back(*out);
        m_stats.drops_codel++;
        have = flow_pop(f, idx, out);
        codel_should_drop(have ? out : nullptr, cv, now);  // for its effect on first_above_time
        cv.dropping = true;
        // re-entering soon after leaving: resume near the previous drop rate
        const uint32_t delta = cv.count - cv.lastcount;
        if (delta > 1 && (int64_t)(now - cv.drop_next) < (int64_t)(16 * interval)) {
            cv.count = delta;
            newton_step(cv.rec_inv_sqrt, cv.count);
        } else {
            cv.count = 1;
            cv.rec_inv_sqrt = 0xffff;  // ~1.0 in Q0.16
        }
        cv.lastcount = cv.count;
        cv.drop_next = control_law(now, interval, cv.rec_inv_sqrt);
    }
    return have;
}

} // namespace models::net
