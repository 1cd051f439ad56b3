#include "net/tcp.h"
#include <algorithm>
#include <cmath>

namespace models::net {

static double seconds(tick_t t) { return (double)t / (double)PS_PER_S; }

// ---------------------------------------------------------------- CUBIC

void cubic::reset()
{
    m_last_max = m_origin = m_k_s = 0;
    m_epoch = 0;
    m_in_epoch = false;
    m_ack_cnt = m_tcp_cwnd = 0;
    m_delay_min = 0;
    m_found = false;
    m_round_open = false;
    m_sample_cnt = 0;
    m_curr_rtt = 0;
}

uint32_t cubic::recalc_ssthresh(uint32_t cwnd)
{
    m_in_epoch = false;
    if (cwnd < m_last_max && m_cfg.fast_convergence)
        m_last_max = (double)(cwnd * (1024u + m_cfg.cubic_beta) / 2048u);
    else
        m_last_max = cwnd;
    return std::max(cwnd * m_cfg.cubic_beta / 1024u, 2u);
}

void cubic::cong_avoid(uint32_t& cwnd, uint32_t& cwnd_cnt, uint32_t ssthresh, uint32_t acked, tick_t now)
{
    if (cwnd < ssthresh) {  // slow start (tcp_slow_start)
        const uint32_t grown = (uint32_t)std::min<uint64_t>((uint64_t)cwnd + acked, ssthresh);
        acked -= grown - cwnd;
        cwnd = std::min(grown, m_cfg.cwnd_clamp);
        if (acked == 0)
            return;
    }
    // bictcp_update: the segments to ACK per one-segment increase (cnt)
    m_ack_cnt += acked;
    if (!m_in_epoch) {
        m_in_epoch = true;
        m_epoch = now;
        m_ack_cnt = acked;
        m_tcp_cwnd = cwnd;
        if (m_last_max <= cwnd) {
            m_k_s = 0;
            m_origin = cwnd;
        } else {
            m_k_s = std::cbrt((m_last_max - cwnd) / m_cfg.cubic_c);
            m_origin = m_last_max;
        }
    }
    // t counts from the epoch plus the minimum delay: the window one RTT ahead
    const double t = seconds(now - m_epoch) + seconds(m_delay_min);
    const double target = m_origin + m_cfg.cubic_c * (t - m_k_s) * (t - m_k_s) * (t - m_k_s);
    double cnt = target > cwnd ? (double)cwnd / (target - cwnd) : 100.0 * cwnd;
    if (m_last_max == 0 && cnt > 20)
        cnt = 20;  // 5 % per RTT while the path's capacity is unknown
    if (m_cfg.tcp_friendliness) {
        // Reno's window in the same time: one segment per beta_scale/8 windows acked
        const uint32_t beta_scale = 8 * (1024 + m_cfg.cubic_beta) / 3 / (1024 - m_cfg.cubic_beta);
        const uint32_t per = std::max(1u, (cwnd * beta_scale) >> 3);
        while (m_ack_cnt > per) {
            m_ack_cnt -= per;
            m_tcp_cwnd++;
        }
        if (m_tcp_cwnd > cwnd) {
            const double max_cnt = (double)(cwnd / (m_tcp_cwnd - cwnd));
            cnt = std::min(cnt, max_cnt);
        }
    }
    // integer like the kernel's ca->cnt, at least 2 (1.5x per RTT at most)
    const uint32_t w = std::max<uint32_t>(2u, (uint32_t)std::min(cnt, 4.0e9));
    // tcp_cong_avoid_ai
    if (cwnd_cnt >= w) {
        cwnd_cnt = 0;
        cwnd++;
    }
    cwnd_cnt += acked;
    if (cwnd_cnt >= w) {
        const uint32_t delta = cwnd_cnt / w;
        cwnd_cnt -= delta * w;
        cwnd += delta;
    }
    cwnd = std::min(cwnd, m_cfg.cwnd_clamp);
}

void cubic::hystart_reset(tick_t now, uint64_t snd_nxt)
{
    m_round_open = true;
    m_round_start = m_last_ack = now;
    m_end_seq = snd_nxt;
    m_curr_rtt = ~(tick_t)0;
    m_sample_cnt = 0;
}

void cubic::on_rtt(tick_t rtt, tick_t now, uint32_t cwnd, uint32_t& ssthresh, uint64_t snd_una, uint64_t snd_nxt)
{
    // no samples in the first second after a reduction (cubictcp_acked)
    if (m_in_epoch && now - m_epoch < PS_PER_S)
        return;
    if (rtt == 0)
        rtt = PS_PER_US;
    if (m_delay_min == 0 || m_delay_min > rtt)
        m_delay_min = rtt;
    if (m_found || !m_cfg.hystart || cwnd >= ssthresh)
        return;
    if (!m_round_open || snd_una > m_end_seq)
        hystart_reset(now, snd_nxt);
    if (cwnd < m_cfg.hystart_low_window)
        return;
    // ACK train: ACKs spaced less than ack_delta apart spanning more than
    // half the minimum delay (no pacing, so the half; the TSO/GRO cushion
    // hystart_ack_delay is left out: see docs/design.md §6)
    if (now - m_last_ack <= m_cfg.hystart_ack_delta_ps) {
        m_last_ack = now;
        if (now - m_round_start > m_delay_min / 2) {
            m_found = true;
            ssthresh = cwnd;
            return;
        }
    }
    // delay increase: the round's minimum of 8 samples above delay_min plus
    // delay_min/8 clamped to 4..16 ms
    m_curr_rtt = std::min(m_curr_rtt, rtt);
    if (m_sample_cnt < 8) {
        m_sample_cnt++;
        return;
    }
    const tick_t thresh = std::clamp<tick_t>(m_delay_min / 8, 4000 * PS_PER_US, 16000 * PS_PER_US);
    if (m_curr_rtt > m_delay_min + thresh) {
        m_found = true;
        ssthresh = cwnd;
    }
}

// ---------------------------------------------------------------- sender

tcp_sender::tcp_sender(const tcp_config& cfg)
    : m_cfg(cfg), m_cc(cfg), m_cwnd(cfg.init_cwnd), m_ssthresh(cfg.init_ssthresh),
      m_rwnd(~(uint64_t)0 >> 1), m_rto(cfg.rto_init_ps)
{
    // until the first ACK the peer's window is taken not to limit
}

uint64_t tcp_sender::window_bytes() const
{
    const uint64_t wnd = std::min<uint64_t>((uint64_t)(m_cwnd + m_inflate) * m_cfg.mss, m_rwnd);
    const uint64_t flight = m_nxt - m_una;
    return wnd > flight ? wnd - flight : 0;
}

bool tcp_sender::next_unit(tick_t now, uint32_t max_len, tcp_unit* out)
{
    max_len = std::max(max_len, 1u);
    if (m_retx_next < m_retx_end) {
        // a hole goes out whatever the window (fast retransmit, a partial ACK)
        const uint32_t len = (uint32_t)std::min<uint64_t>({m_retx_end - m_retx_next, (uint64_t)m_cfg.mss, max_len});
        *out = tcp_unit{m_retx_next, len, true};
        m_sent.push_back(sent{m_retx_next, len, now, true});
        m_retx_next += len;
        m_stats.retrans_segs += segs(len);
        m_stats.segs_out += segs(len);
        m_stats.bytes_out += len;
        if (m_rto_deadline == 0)
            arm_rto(now);
        return true;
    }
    const uint64_t win = window_bytes();
    if (win == 0) {
        cwnd_validate(segs(m_nxt - m_una) >= m_cwnd);
        return false;
    }
    uint64_t len = std::min<uint64_t>(win, max_len);
    const bool again0 = m_nxt < m_high;
    if (!again0) {
        // new data: only what the application has written (not window-limited then)
        if (m_nxt >= m_limit)
            return false;
        len = std::min<uint64_t>(len, m_limit - m_nxt);
    }
    if (len >= m_cfg.mss)
        len -= len % m_cfg.mss;  // whole segments; a short tail only when the window leaves less
    const bool again = m_nxt < m_high;  // resent after a timeout (go-back-N)
    if (again)
        len = std::min<uint64_t>(len, m_high - m_nxt);
    *out = tcp_unit{m_nxt, (uint32_t)len, again};
    m_sent.push_back(sent{m_nxt, (uint32_t)len, now, again});
    m_nxt += len;
    if (again)
        m_stats.retrans_segs += segs(len);
    m_stats.segs_out += segs(len);
    m_stats.bytes_out += len;
    cwnd_validate(segs(m_nxt - m_una) >= m_cwnd);
    if (m_rto_deadline == 0)
        arm_rto(now);
    return true;
}

void tcp_sender::cwnd_validate(bool limited)
{
    // tcp_cwnd_validate: whether the window was used up holds for the
    // current window (until snd_una passes what was sent when it was
    // recorded); otherwise the most segments in flight in it
    const uint64_t out = segs(m_nxt - m_una);
    if (m_una >= m_usage_seq || limited || (!m_cwnd_limited && out > m_max_packets_out)) {
        m_cwnd_limited = limited;
        m_max_packets_out = out;
        m_usage_seq = m_nxt;
    }
}

void tcp_sender::unsend(const tcp_unit& u, tick_t now)
{
    (void)now;
    if (!m_sent.empty() && m_sent.back().seq == u.seq && m_sent.back().len == u.len) {
        m_sent.pop_back();
        if (u.retrans)
            m_retx_next = u.seq;
        else if (m_nxt == u.seq + u.len)
            m_nxt = u.seq;
        m_stats.segs_out -= segs(u.len);
        m_stats.bytes_out -= u.len;
        if (u.retrans || u.seq < m_high)
            m_stats.retrans_segs -= segs(u.len);
    }
    if (m_sent.empty())
        m_rto_deadline = 0;
    // tcp_enter_cwr: ssthresh from the congestion control, the window to it
    if (!m_recovery) {
        m_ssthresh = m_cc.recalc_ssthresh(m_cwnd);
        m_cwnd = std::max(1u, std::min(m_cwnd, m_ssthresh));
        m_cwnd_cnt = 0;
        m_stats.cwr_events++;
    }
}

void tcp_sender::rtt_sample(tick_t r)
{
    // RFC 6298 with Linux's floor: rto = srtt + max(4 rttvar, rto_min)
    // (tcp_rtt_estimator keeps mdev_max at least tcp_rto_min)
    if (m_srtt == 0) {
        m_srtt = r;
        m_rttvar = r / 2;
    } else {
        const tick_t err = r > m_srtt ? r - m_srtt : m_srtt - r;
        m_rttvar = (3 * m_rttvar + err) / 4;
        m_srtt = (7 * m_srtt + r) / 8;
    }
    m_rto = std::min(m_srtt + std::max(4 * m_rttvar, m_cfg.rto_min_ps), m_cfg.rto_max_ps);
}

void tcp_sender::arm_rto(tick_t now)
{
    const tick_t r = std::min(m_rto << std::min(m_backoff, 16u), m_cfg.rto_max_ps);
    m_rto_deadline = now + r;
}

void tcp_sender::on_ack(uint64_t ack, uint64_t rwnd, tick_t now)
{
    m_stats.acks++;
    m_rwnd = rwnd;
    if (ack > m_nxt && ack <= std::max(m_nxt, m_high))
        m_nxt = ack;  // after a timeout: what the first transmission delivered
    if (ack > m_nxt)
        ack = m_nxt;  // beyond anything sent: taken as snd_nxt
    if (ack <= m_una) {
        // a duplicate ACK only if data is outstanding
        if (ack == m_una && m_nxt > m_una) {
            m_stats.dupacks++;
            m_dupacks++;
            if (m_recovery) {
                m_inflate++;  // a segment left the network (RFC 6582 3.2 step 4)
            } else if (m_dupacks == m_cfg.dupthresh && m_una >= m_recover) {
                // fast retransmit (RFC 6582 3.2 steps 1-3): the window to
                // ssthresh, inflated by the segments the duplicates stand for
                m_recovery = true;
                m_recover = m_nxt;
                m_ssthresh = m_cc.recalc_ssthresh(m_cwnd);
                m_cwnd = m_ssthresh;
                m_inflate = m_cfg.dupthresh;
                m_cwnd_cnt = 0;
                m_retx_next = m_una;
                m_retx_end = std::min(m_una + m_cfg.mss, m_nxt);
                m_stats.fast_retrans++;
            }
        }
        return;
    }
    // new data acknowledged
    const uint32_t acked_segs = segs(ack - m_una);
    // RTT samples (tcp_clean_rtx_queue): the estimator's from the oldest
    // unit acked, the congestion control's from the newest; never from a
    // retransmitted one (Karn)
    tick_t first_at = 0, last_at = 0;
    bool have_rtt = false;
    while (!m_sent.empty() && m_sent.front().seq + m_sent.front().len <= ack) {
        if (!m_sent.front().retrans) {
            if (!have_rtt)
                first_at = m_sent.front().at;
            last_at = m_sent.front().at;
            have_rtt = true;
        }
        m_sent.pop_front();
    }
    if (!m_sent.empty() && m_sent.front().seq < ack) {  // a unit acked in part (tcp_tso_acked)
        m_sent.front().len -= (uint32_t)(ack - m_sent.front().seq);
        m_sent.front().seq = ack;
    }
    m_una = ack;
    m_dupacks = 0;
    if (m_retx_next < ack)
        m_retx_next = std::min(ack, m_retx_end);
    if (have_rtt) {
        rtt_sample(now - first_at);
        m_backoff = 0;
        m_cc.on_rtt(now - last_at, now, m_cwnd, m_ssthresh, m_una, m_nxt);
        if (m_cc.hystart_found() && m_ssthresh == m_cwnd && m_stats.hystart_exits == 0)
            m_stats.hystart_exits++;
    }
    if (m_recovery) {
        if (ack >= m_recover) {
            m_recovery = false;  // full acknowledgement: recovery ends at ssthresh
            m_cwnd = m_ssthresh;
            m_inflate = 0;
        } else {
            // partial acknowledgement: the next hole goes at once, the
            // window deflated by what was acked, plus one (RFC 6582 3.2 step 5)
            m_retx_next = ack;
            m_retx_end = std::min(ack + m_cfg.mss, m_nxt);
            m_inflate = (m_inflate > acked_segs ? m_inflate - acked_segs : 0) + 1;
        }
    } else {
        // tcp_is_cwnd_limited; in slow start the window may grow to twice
        // the most that was in flight
        const bool limited = m_cwnd_limited || (m_cwnd < m_ssthresh && m_cwnd < 2 * m_max_packets_out);
        if (limited)
            m_cc.cong_avoid(m_cwnd, m_cwnd_cnt, m_ssthresh, acked_segs, now);
    }
    if (m_nxt > m_una)
        arm_rto(now);
    else
        m_rto_deadline = 0;
}

void tcp_sender::on_rto(tick_t now)
{
    if (m_rto_deadline == 0 || now < m_rto_deadline)
        return;
    m_stats.rto_events++;
    // tcp_enter_loss: ssthresh from the congestion control, then its state
    // reset; the window to one segment; everything in flight again from
    // snd_una (go-back-N)
    m_ssthresh = m_cc.recalc_ssthresh(m_cwnd);
    m_cc.reset();
    m_cwnd = 1;
    m_cwnd_cnt = 0;
    m_inflate = 0;
    m_recovery = false;
    m_recover = m_nxt;  // no fast retransmit for duplicates of the old flight
    m_dupacks = 0;
    m_sent.clear();
    m_high = std::max(m_high, m_nxt);
    m_nxt = m_una;
    m_retx_next = m_retx_end = 0;
    m_backoff++;
    arm_rto(now);
}

// ---------------------------------------------------------------- receiver

bool tcp_receiver::on_segment(uint64_t seq, uint32_t len, tick_t now)
{
    if (!m_quick_init) {
        // tcp_incr_quickack at the first data: rcv_wnd / (2 rcv_mss), at most 16
        m_quick = (uint32_t)std::min<uint64_t>(m_cfg.rwnd_bytes / (2 * (uint64_t)m_cfg.mss), m_cfg.quickacks);
        m_quick_init = true;
    }
    m_stats.segs_in += (len + m_cfg.mss - 1) / m_cfg.mss;
    const uint64_t end = seq + len;
    if (end <= m_nxt) {
        m_stats.dup_segs++;
        return true;  // a duplicate: ACK at once (tcp_send_dupack)
    }
    bool ooo = false;
    if (seq > m_nxt) {
        ooo = true;
        m_stats.ooo_segs++;
        // insert [seq, end) into the sorted, merged ranges
        auto it = m_ooo.begin();
        while (it != m_ooo.end() && it->second < seq)
            ++it;
        uint64_t s = seq, e = end;
        while (it != m_ooo.end() && it->first <= e) {
            s = std::min(s, it->first);
            e = std::max(e, it->second);
            it = m_ooo.erase(it);
        }
        m_ooo.insert(it, {s, e});
    } else {
        m_stats.bytes_in += end - m_nxt;
        m_nxt = end;
        while (!m_ooo.empty() && m_ooo.front().first <= m_nxt) {
            if (m_ooo.front().second > m_nxt) {
                m_stats.bytes_in += m_ooo.front().second - m_nxt;
                m_nxt = m_ooo.front().second;
            }
            m_ooo.pop_front();
        }
    }
    // __tcp_ack_snd_check: more than one full segment since the last ACK,
    // quickack mode, or out-of-order data (a hole still open, or just filled)
    if (m_nxt - m_acked > m_cfg.mss || m_quick > 0 || ooo || !m_ooo.empty())
        return true;
    if (m_delack == 0)
        m_delack = now + m_cfg.delack_ps;
    return false;
}

void tcp_receiver::ack_sent(tick_t now, bool by_timer)
{
    (void)now;
    m_stats.acks_out++;
    if (by_timer)
        m_stats.delayed_acks++;
    if (m_quick > 0)
        m_quick--;
    m_acked = m_nxt;
    m_delack = 0;
}

} // namespace models::net
