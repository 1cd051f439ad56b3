#include "traffic/traffic.h"
#include <pcap/pcap.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include "common/log.h"
#include "traffic/peer.h"

namespace models::traffic {

using enet::eth_frame;

static const param_desc k_traffic_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(traffic_config, __VA_ARGS__)
#include "traffic/traffic_params.def"
#undef P
};
const param_table traffic_param_table = {"traffic", "Link partner traffic source (rates, bursts, Poisson, pcap replay)",
                                         k_traffic_rows, sizeof k_traffic_rows / sizeof k_traffic_rows[0]};

const stat_desc traffic_stat_rows[] = {
#define S(...) FEC_STAT_ROW(traffic_stats, __VA_ARGS__)
#include "traffic/traffic_stats.def"
#undef S
};
const size_t traffic_stat_count = sizeof traffic_stat_rows / sizeof traffic_stat_rows[0];

const stat_desc sink_stat_rows[] = {
#define S(...) FEC_STAT_ROW(sink_stats, __VA_ARGS__)
#include "traffic/sink_stats.def"
#undef S
};
const size_t sink_stat_count = sizeof sink_stat_rows / sizeof sink_stat_rows[0];

static void mac_bytes(uint64_t v, uint8_t* out)
{
    for (int i = 0; i < 6; i++)
        out[i] = (uint8_t)(v >> (8 * (5 - i)));
}

// ---------------------------------------------------------------- source

traffic_source::traffic_source(sc_core::sc_module_name nm, const traffic_config& cfg)
    : sc_module(nm), out("out"), pause_in("pause_in"), m_cfg(cfg), m_byte_ps(enet::byte_time_ps(cfg.link_speed)),
      m_rng(cfg.seed)
{
    // Salt: the instance name, so two sources with one scenario seed differ.
    uint64_t salt = 0xCBF29CE484222325ull;
    for (const char* c = name(); *c; c++)
        salt = (salt ^ (uint8_t)*c) * 0x100000001B3ull;
    m_rng.reseed(cfg.seed, salt);
    pause_in.bind(*static_cast<enet::pause_if*>(this));
    mac_bytes(cfg.dst_mac, m_flow.dst_mac);
    mac_bytes(cfg.src_mac, m_flow.src_mac);
    m_flow.src_ip = cfg.src_ip;
    m_flow.dst_ip = cfg.dst_ip;
    m_flow.src_port = (uint16_t)cfg.src_port;
    m_flow.dst_port = (uint16_t)cfg.dst_port;
    m_buf.resize(TRAFFIC_MAX_FRAME + enet::FCS_BYTES);
    if (cfg.size_mode == SIZE_LIST) {
        if (cfg.size_list.empty())
            throw std::invalid_argument("traffic: size_mode=list needs a non-empty size list");
        for (uint32_t s : cfg.size_list)
            if (s < TRAFFIC_MIN_FRAME || s > TRAFFIC_MAX_FRAME)
                throw std::invalid_argument("traffic: size list entries must be 64..9600 B");
    }
    if (cfg.size_mode == SIZE_UNIFORM && cfg.size_min > cfg.size_max)
        throw std::invalid_argument("traffic.size_min > traffic.size_max");
    if (cfg.mode == MODE_PCAP) {
        char err[PCAP_ERRBUF_SIZE];
        m_pcap = pcap_open_offline_with_tstamp_precision(cfg.pcap_file.c_str(), PCAP_TSTAMP_PRECISION_NANO, err);
        if (!m_pcap)
            throw std::runtime_error("traffic: cannot open pcap file '" + cfg.pcap_file + "': " + err);
        if (pcap_datalink(m_pcap) != DLT_EN10MB) {
            pcap_close(m_pcap);
            m_pcap = nullptr;
            throw std::runtime_error("traffic: pcap file '" + cfg.pcap_file + "' is not Ethernet (DLT_EN10MB)");
        }
    }
    SC_THREAD(run);
}

traffic_source::~traffic_source()
{
    if (m_pcap)
        pcap_close(m_pcap);
}

void traffic_source::visit_stats(const std::string& prefix, const stat_visitor& v) const
{
    const_cast<traffic_source*>(this)->catch_up(false);
    stats_visit(&m_stats, traffic_stat_rows, traffic_stat_count, prefix, v);
}

void traffic_source::pause(uint32_t quanta, tick_t at)
{
    catch_up(true);
    m_stats.pauses++;
    if (quanta) {
        m_pause_from = at;
        m_pause_until = at + (tick_t)quanta * enet::PAUSE_QUANTUM_BITS / 8 * m_byte_ps;
    } else {
        m_pause_until = std::max(m_pause_from, at);
    }
    SIM_TRACE(TRACE_TRAFFIC, name(), "pause %u quanta from %llu ps", quanta, (unsigned long long)at);
    m_pause_ev.notify(sc_core::SC_ZERO_TIME);
}

void traffic_source::write_body()
{
    if (!m_body_due)
        return;
    m_body_due = false;
    traffic_build_frame(m_buf.data(), m_body_len, &m_flow, m_body_seq);
}

uint32_t traffic_source::next_size()
{
    switch (m_cfg.size_mode) {
    case SIZE_LIST: {
        uint32_t s = m_cfg.size_list[m_list_pos];
        m_list_pos = (m_list_pos + 1) % m_cfg.size_list.size();
        return s;
    }
    case SIZE_UNIFORM: return m_cfg.size_min + m_rng.below(m_cfg.size_max - m_cfg.size_min + 1);
    default: return m_cfg.frame_bytes;
    }
}

bool traffic_source::next_frame(tick_t line_free, tick_t& ideal, uint32_t& len)
{
    if (m_cfg.count && m_sent >= m_cfg.count)
        return false;
    if (m_cfg.mode == MODE_PCAP) {
        for (;;) {
            struct pcap_pkthdr* h;
            const u_char* d;
            if (pcap_next_ex(m_pcap, &h, &d) != 1)
                return false;
            const uint32_t wire = std::max<uint32_t>(h->len, enet::MIN_FRAME_BYTES - enet::FCS_BYTES);
            if (wire + enet::FCS_BYTES > TRAFFIC_MAX_FRAME) {
                m_stats.pcap_skipped++;
                continue;
            }
            std::memset(m_buf.data(), 0, wire);
            std::memcpy(m_buf.data(), d, std::min<uint32_t>(h->caplen, wire));
            if (m_cfg.pcap_dst_mac)
                mac_bytes(m_cfg.pcap_dst_mac, m_buf.data());
            traffic_append_fcs(m_buf.data(), wire);
            len = wire + enet::FCS_BYTES;
            m_body_due = false;
            const tick_t ts = (tick_t)h->ts.tv_sec * PS_PER_S + (tick_t)h->ts.tv_usec * PS_PER_NS;
            if (m_first)
                m_pcap_t0 = ts;
            ideal = m_cfg.pcap_timing == PCAP_FILE_TIMING ? m_cfg.start_ps + (ts - m_pcap_t0)
                                                          : std::max<tick_t>(m_cfg.start_ps, line_free);
            return true;
        }
    }
    // The header now, the rest when a receiver asks (write_body()):
    // traffic_build_frame() writes these same 14 bytes first.
    len = next_size();
    std::memcpy(m_buf.data(), m_flow.dst_mac, 6);
    std::memcpy(m_buf.data() + 6, m_flow.src_mac, 6);
    m_buf[12] = 0x08;
    m_buf[13] = 0x00;
    m_body_due = true;
    m_body_len = len;
    m_body_seq = m_seq;
    m_seq++;
    if (m_first) {
        ideal = m_cfg.start_ps;
        return true;
    }
    // From the later of the previous ideal and actual start: no catch-up burst.
    const tick_t base = std::max(m_ideal, m_prev_start);
    switch (m_cfg.mode) {
    case MODE_BURST: {
        const uint64_t k = m_sent % m_cfg.burst_frames;
        ideal = k ? base : m_cfg.start_ps + (m_sent / m_cfg.burst_frames) * m_cfg.burst_period_ps;
        break;
    }
    case MODE_POISSON: {
        const double mean_ps = m_cfg.rate_fps > 0 ? 1e12 / m_cfg.rate_fps
                               : m_cfg.rate_bps > 0 ? len * 8 * 1e12 / m_cfg.rate_bps : 0;
        ideal = base + (tick_t)(-std::log(1.0 - m_rng.uniform()) * mean_ps + 0.5);
        break;
    }
    default: ideal = base + constant_gap_ps(len); break;
    }
    return true;
}

void traffic_source::end_of_elaboration()
{
    out->set_late_sender(this);
}

tick_t traffic_source::constant_gap_ps(uint32_t len) const
{
    const double gap = m_cfg.rate_fps > 0 ? 1e12 / m_cfg.rate_fps
                       : m_cfg.rate_bps > 0 ? len * 8 * 1e12 / m_cfg.rate_bps : 0;
    return (tick_t)(gap + 0.5);
}

tick_t traffic_source::wire_ps(uint32_t len) const { return (enet::PREAMBLE_BYTES + len + enet::IFG_BYTES) * m_byte_ps; }

bool traffic_source::take_next()
{
    m_pending = next_frame(m_line_free, m_pend_ideal, m_pend_len);
    if (!m_pending)
        m_done = true;
    return m_pending;
}

tick_t traffic_source::pending_start(tick_t due) const
{
    return due >= m_pause_from && due < m_pause_until ? m_pause_until : due;
}

void traffic_source::sent(tick_t t, tick_t due)
{
    const uint32_t len = m_pend_len;
    m_body_due = false;
    m_stats.frames++;
    m_stats.bytes += len;
    m_stats.paused_ps += t - due;
    m_stats.late_ps += t - std::min(t, m_pend_ideal);
    m_line_free = t + wire_ps(len);
    m_ideal = m_pend_ideal;
    m_prev_start = t;
    m_first = false;
    m_sent++;
    m_pending = false;
    SIM_TRACE(TRACE_TRAFFIC, name(), "frame %llu, %u B", (unsigned long long)m_sent, len);
}

void traffic_source::inject(const uint8_t* frame, uint32_t len, tick_t earliest)
{
    if (!m_inject_on)
        throw std::logic_error("traffic_source::inject without enable_injection");
    injected in{earliest, std::vector<uint8_t>(frame, frame + len)};
    in.bytes.resize(std::max<size_t>(len, enet::MIN_FRAME_BYTES - enet::FCS_BYTES) + enet::FCS_BYTES, 0);
    traffic_append_fcs(in.bytes.data(), in.bytes.size() - enet::FCS_BYTES);
    auto at = m_inj.end();
    while (at != m_inj.begin() && std::prev(at)->earliest > earliest)
        --at;
    m_inj_bytes += in.bytes.size();
    m_inj.insert(at, std::move(in));
    m_inject_ev.notify(sc_core::SC_ZERO_TIME);
}

// The generated frames and the injected ones on one line: whichever is due
// first goes (an injected one on a tie); a frame due later, or a pause
// change, makes the choice again.
void traffic_source::run_mixed()
{
    const tick_t never = ~(tick_t)0;
    for (;;) {
        const bool gen = m_pending || (!m_done && take_next());
        const tick_t gen_due = gen ? std::max(m_pend_ideal, m_line_free) : never;
        const tick_t inj_due = m_inj.empty() ? never : std::max(m_inj.front().earliest, m_line_free);
        if (gen_due == never && inj_due == never) {
            wait(m_inject_ev);
            continue;
        }
        const bool take_inj = inj_due <= gen_due;
        const tick_t due = take_inj ? inj_due : gen_due;
        const tick_t start = pending_start(due);
        if (start > now_ps()) {
            wait(from_ps(start - now_ps()), m_inject_ev | m_pause_ev);
            continue;
        }
        const tick_t t = now_ps();
        if (take_inj) {
            m_inj_line.swap(m_inj.front().bytes);
            m_inj.pop_front();
            m_inj_bytes -= m_inj_line.size();
            eth_frame f{m_inj_line.data(), (uint32_t)m_inj_line.size(), t, m_byte_ps, true, nullptr};
            m_line_free = t + wire_ps(f.len);
            m_stats.injected++;
            out->frame_start(f);
            continue;
        }
        eth_frame f{m_buf.data(), m_pend_len, t, m_byte_ps, true, m_body_due ? this : nullptr};
        out->frame_start(f);
        sent(t, due);
    }
}

void traffic_source::run()
{
    if (m_inject_on) {
        run_mixed();
        return;
    }
    for (;;) {
        if (!m_pending && !take_next())
            return;
        // The receiver drops every frame until it calls catch_up(): the
        // frames go over late, with their own times, instead of one wake-up
        // each (a speed technique: the same frames, fates and counts).
        if (out->refuses_all()) {
            m_late = true;
            wait(m_wake_ev);
            m_late = false;
            if (m_done)
                return;
            continue;
        }
        const tick_t due = std::max(m_pend_ideal, m_line_free);
        for (;;) {  // wait for the due time, re-evaluated whenever the pause state changes
            const tick_t start = pending_start(due);
            const bool held = start != due;
            if (start <= now_ps())
                break;
            // Held: an XON may end the pause early. Not held: a pause can only
            // move the start later, which the re-evaluation at the due time
            // finds as well as a wake-up at the pause would.
            if (held)
                wait(from_ps(start - now_ps()), m_pause_ev);
            else
                wait(from_ps(start - now_ps()));
        }
        const tick_t t = now_ps();
        // The FCS is the one traffic_build_frame() or next_frame() appends.
        eth_frame f{m_buf.data(), m_pend_len, t, m_byte_ps, true, m_body_due ? this : nullptr};
        out->frame_start(f);
        sent(t, due);
    }
}

void traffic_source::catch_up(bool wake)
{
    if (!m_late || m_catching_up)
        return;
    m_catching_up = true;
    const tick_t now = now_ps();
    while (m_pending) {
        const tick_t due = std::max(m_pend_ideal, m_line_free);
        const tick_t t = pending_start(due);
        if (t >= now)
            break;
        if (t == due && hand_over_run(t, now))
            continue;
        eth_frame f{m_buf.data(), m_pend_len, t, m_byte_ps, true, m_body_due ? this : nullptr};
        out->frame_refused(f);
        m_late_frames++;
        sent(t, due);
        take_next();
    }
    m_catching_up = false;
    if (wake || m_done)
        m_wake_ev.notify(sc_core::SC_ZERO_TIME);
}

// A constant-rate source of one frame size sends evenly: after the pending
// frame, which starts at t0 (not held by a pause), the previous frame's start
// t is the base of the next ideal time (t >= its own ideal), so every
// further frame starts D = max(gap, wire time) after the one before. The
// frames that start before now go over in one call, with the counts and
// line state that one sent() and next_frame() each would leave.
bool traffic_source::hand_over_run(tick_t t0, tick_t now)
{
    if (m_cfg.mode != MODE_CONSTANT || m_cfg.size_mode != SIZE_FIXED || m_first || m_pause_until > t0 ||
        trace_on(TRACE_TRAFFIC))
        return false;
    const uint32_t len = m_pend_len;
    const tick_t gap = constant_gap_ps(len), wire = wire_ps(len), step = std::max(gap, wire);
    uint64_t n = (now - 1 - t0) / step + 1;
    if (m_cfg.count)
        n = std::min<uint64_t>(n, m_cfg.count - m_sent);
    if (n < 2)
        return false;
    const eth_frame f{m_buf.data(), len, t0, m_byte_ps, true, nullptr};
    if (!out->frames_refused(f, n, step))
        return false;
    const tick_t last = t0 + (n - 1) * step;
    m_stats.frames += n;
    m_stats.bytes += n * len;
    m_stats.late_ps += (t0 - std::min(t0, m_pend_ideal)) + (n - 1) * (step - gap);
    m_line_free = last + wire;
    m_ideal = last - step + gap;
    m_prev_start = last;
    m_sent += n;
    m_seq += (uint32_t)(n - 1);  // the pending frame's number is taken already
    m_body_due = false;
    m_pending = false;
    m_late_frames += n;
    m_late_runs++;
    take_next();
    return true;
}

// ---------------------------------------------------------------- sink

pcap_writer::pcap_writer(const std::string& path)
{
    m_pcap = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
    m_dump = m_pcap ? pcap_dump_open(m_pcap, path.c_str()) : nullptr;
    if (!m_dump) {
        const std::string why = m_pcap ? pcap_geterr(m_pcap) : "out of memory";
        if (m_pcap)
            pcap_close(m_pcap);
        throw std::runtime_error("cannot create capture file '" + path + "': " + why);
    }
}

pcap_writer::~pcap_writer()
{
    pcap_dump_close(m_dump);
    pcap_close(m_pcap);
}

void pcap_writer::flush() { pcap_dump_flush(m_dump); }

void pcap_writer::write(const eth_frame& f)
{
    if (f.len <= enet::FCS_BYTES)
        return;
    struct pcap_pkthdr h;
    h.ts.tv_sec = (time_t)(f.start_ps / PS_PER_S);
    h.ts.tv_usec = (suseconds_t)(f.start_ps % PS_PER_S / PS_PER_NS);  // ns: nanosecond file
    h.caplen = h.len = f.len - enet::FCS_BYTES;
    pcap_dump((u_char*)m_dump, &h, f.data);
}

link_tap::link_tap(sc_core::sc_module_name nm, const std::string& pcap_file)
    : sc_module(nm), in("in"), out("out"), m_pcap(pcap_file)
{
    in.bind(*static_cast<enet::frame_sink_if*>(this));
}

void link_tap::frame_start(const eth_frame& f)
{
    f.complete();
    m_pcap.write(f);
    out->frame_start(f);
}

traffic_sink::traffic_sink(sc_core::sc_module_name nm, const sink_config& cfg)
    : sc_module(nm), in("in"), m_cfg(cfg)
{
    in.bind(*static_cast<enet::frame_sink_if*>(this));
    traffic_seq_init(&m_seq);
    if (!cfg.pcap_file.empty())
        m_pcap.reset(new pcap_writer(cfg.pcap_file));
}

traffic_sink::~traffic_sink() = default;

void traffic_sink::flush()
{
    if (m_pcap)
        m_pcap->flush();
}

const sink_stats& traffic_sink::stats() const
{
    m_stats.lost = m_seq.lost;
    m_stats.duplicated = m_seq.duplicated;
    m_stats.reordered = m_seq.reordered;
    return m_stats;
}

void traffic_sink::reset_stats()
{
    m_stats = {};
    traffic_seq_init(&m_seq);
}

void traffic_sink::visit_stats(const std::string& prefix, const stat_visitor& v) const
{
    stats_visit(&stats(), sink_stat_rows, sink_stat_count, prefix, v);
}

void traffic_sink::frame_start(const eth_frame& f)
{
    if (!m_stats.frames)
        m_stats.first_ps = f.start_ps;
    m_stats.last_ps = f.start_ps;
    m_stats.frames++;
    m_stats.bytes += f.len;
    f.complete();
    const bool fcs_ok = f.fcs_known_good || traffic_fcs_ok(f.data, f.len) != 0;
    if (!fcs_ok)
        m_stats.fcs_errors++;
    if (f.len >= 16 && f.data[12] == 0x88 && f.data[13] == 0x08)
        m_stats.pause_frames++;
    else if (m_cfg.verify && fcs_ok) {
        const uint8_t* p;
        size_t n;
        uint32_t seq;
        int ip_ok, l4_ok;
        if (traffic_ipv4_checks(f.data, f.len - enet::FCS_BYTES, &ip_ok, &l4_ok) == 0 && !(ip_ok && l4_ok))
            m_stats.csum_errors++;
        if (traffic_udp_payload(f.data, f.len - enet::FCS_BYTES, &p, &n) == 0) {
            if (traffic_verify_payload(p, n, &seq) == TRAFFIC_OK) {
                m_stats.verified++;
                traffic_seq_note(&m_seq, seq);
            } else {
                m_stats.corrupted++;
            }
        } else if (traffic_tcp_payload(f.data, f.len - enet::FCS_BYTES, &p, &n, &seq) == 0 && n) {
            // A TCP test stream: the bytes are the stream's at offset seq.
            if (traffic_verify_stream(p, n, seq)) {
                m_stats.verified++;
                m_stats.tcp_segments++;
            } else {
                m_stats.corrupted++;
            }
        }
    }
    if (m_peer && fcs_ok)
        m_peer->from_board(f);
    if (m_pcap)
        m_pcap->write(f);
    SIM_TRACE(TRACE_TRAFFIC, name(), "received %u B", f.len);
    if (m_observer)
        m_observer(f);
}

} // namespace models::traffic
