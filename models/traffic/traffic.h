// models/traffic/traffic.h: the ENET MAC's link partner: a traffic source that
// sends frames to the MAC's phy_rx and a sink that takes the MAC's phy_tx.
//
// Source models: arrival processes (constant rate in bit/s or frames/s, bursts
// of N frames every T, Poisson arrivals from a seeded rng, pcap replay with the
// file's timing or back to back), frame sizes (fixed, list cycled, uniform),
// valid Ethernet II / IPv4 / UDP frames with sequence-numbered, checksummed
// payloads (frame_format.h), line rate with preamble and minimum IFG (an offered
// rate above line rate is capped), and 802.3x pause from the MAC (no new frame
// starts while paused). A frame that cannot start at its ideal time because the
// line is busy or paused goes as soon as it can; later frames keep their own
// schedule from then on (no catch-up burst); frames of the link partner's
// own endpoints (TCP ACKs, ping: traffic/peer.h) go between them (inject).
// Does not model: a sender-side queue limit or drops, VLANs, IPv6.
//
// Sink models: counting, timestamps, payload verification with loss /
// duplicate / reorder accounting, optional pcap capture (nanosecond
// timestamps, FCS stripped). Does not model: sending pause frames.
//
// link_tap: a capture of the frames on a link (the RX side: what the link
// partner sent the MAC), for [output] pcap_rx.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>
#include "traffic/traffic_config.h"
#include "common/params.h"
#include "common/rng.h"
#include "common/stats.h"
#include "common/time.h"
#include "net/phy_if.h"
#include "net/frame_format.h"

typedef struct pcap pcap_t;
typedef struct pcap_dumper pcap_dumper_t;

namespace models::traffic {

class link_peer;  // traffic/peer.h

struct traffic_stats {
#define S FEC_STAT_MEMBER
#include "traffic/traffic_stats.def"
#undef S
};
extern const stat_desc traffic_stat_rows[];
extern const size_t traffic_stat_count;

class traffic_source : public sc_core::sc_module, private enet::pause_if, private enet::frame_body_if,
                       private enet::late_sender_if {
public:
    sc_core::sc_port<enet::frame_sink_if> out;  // to the MAC's phy_rx
    sc_core::sc_export<enet::pause_if> pause_in; // from the MAC's phy_pause

    // Throws std::runtime_error if the pcap file cannot be opened or is not Ethernet.
    traffic_source(sc_core::sc_module_name nm, const traffic_config& cfg);
    ~traffic_source() override;
    SC_HAS_PROCESS(traffic_source);

    const traffic_config& config() const { return m_cfg; }
    // Statistics and sequence numbers count the frames a late hand-over
    // (frame_sink_if::refuses_all) still held: they are handed over first.
    const traffic_stats& stats() const
    {
        const_cast<traffic_source*>(this)->catch_up(false);
        return m_stats;
    }
    void reset_stats()
    {
        catch_up(false);
        m_stats = {};
    }
    void visit_stats(const std::string& prefix, const stat_visitor& v) const;
    bool done() const { return m_done; }   // count reached or file exhausted (frames still held included)
    uint32_t next_seq() const { return m_seq; }  // of the next frame prepared (held ones included)
    // The link partner's own endpoints' frames (models/traffic/peer.h: TCP
    // ACKs, ping requests), without FCS (appended here): each starts at or
    // after `earliest`, in the order of those times (equal ones in call
    // order), when the line is free and no pause holds it; generated frames
    // keep their own schedule and go first when they are due first. Call
    // enable_injection() before the simulation starts (the late hand-over
    // is then off: the frames' times depend on what the board sends).
    void enable_injection() { m_inject_on = true; }
    void inject(const uint8_t* frame, uint32_t len, tick_t earliest);
    // Bytes (FCS included) of injected frames not yet started on the line.
    uint64_t inject_queued_bytes() const { return m_inj_bytes; }
    // One byte's time on the line (ps).
    tick_t byte_ps() const { return m_byte_ps; }
    // Frames handed over late so far (frame_sink_if::refuses_all): not a
    // result, the speed technique at work (tests).
    uint64_t late_frames() const { return m_late_frames; }
    // Calls that handed several of them over at once (frames_refused).
    uint64_t late_runs() const { return m_late_runs; }

private:
    void pause(uint32_t quanta, tick_t at_ps) override;
    void write_body() override;  // the rest of a generated frame, on a receiver's demand
    void catch_up(bool wake) override;
    void end_of_elaboration() override;
    void run();
    void run_mixed();  // run() with injected frames (enable_injection)
    // Prepare the next frame (m_pend_*); false (and done) when there is none.
    bool take_next();
    // When the pending frame, due at due, may start: after a pause that holds it.
    tick_t pending_start(tick_t due) const;
    // The pending frame went out at t (due at due): counts and line state.
    void sent(tick_t t, tick_t due);
    // Prepare the next frame in m_buf; returns false when there is none. Sets
    // the ideal start time from the arrival process.
    bool next_frame(tick_t line_free, tick_t& ideal, uint32_t& len);
    // The constant-rate mode's gap between ideal frame starts, and a frame's
    // time on the wire with preamble and minimum gap (ps).
    tick_t constant_gap_ps(uint32_t len) const;
    tick_t wire_ps(uint32_t len) const;
    // In catch_up(): the pending frame, due and starting at t0, and the ones
    // after it that start before now, handed over in one frames_refused()
    // call; false (nothing done) where that does not apply.
    bool hand_over_run(tick_t t0, tick_t now);
    uint32_t next_size();

    const traffic_config m_cfg;
    tick_t m_byte_ps;
    rng m_rng;
    traffic_stats m_stats{};
    traffic_flow m_flow{};
    std::vector<uint8_t> m_buf;
    bool m_body_due = false;        // m_buf holds only the header of a generated frame:
    uint32_t m_body_len = 0, m_body_seq = 0;  // its length (FCS included) and sequence number
    uint32_t m_seq = 0;
    uint64_t m_sent = 0;
    size_t m_list_pos = 0;
    tick_t m_ideal = 0;       // ideal time of the previous frame
    tick_t m_prev_start = 0;  // actual start of the previous frame
    bool m_first = true, m_done = false;
    // The frame prepared next: ideal start and length; the line is free from m_line_free.
    bool m_pending = false;
    tick_t m_pend_ideal = 0, m_line_free = 0;
    uint32_t m_pend_len = 0;
    // Late hand-over: the thread waits on m_wake_ev while the receiver refuses all.
    bool m_late = false, m_catching_up = false;
    uint64_t m_late_frames = 0, m_late_runs = 0;
    sc_core::sc_event m_wake_ev;
    // Injected frames, earliest first (ties in call order), and the one on the
    // line now (its bytes stay valid until the next frame starts).
    struct injected {
        tick_t earliest;
        std::vector<uint8_t> bytes;  // FCS included
    };
    bool m_inject_on = false;
    std::deque<injected> m_inj;
    uint64_t m_inj_bytes = 0;  // their bytes
    std::vector<uint8_t> m_inj_line;
    sc_core::sc_event m_inject_ev;
    // pause state: no frame may start in [m_pause_from, m_pause_until)
    tick_t m_pause_from = 0, m_pause_until = 0;
    sc_core::sc_event m_pause_ev;
    // pcap replay
    pcap_t* m_pcap = nullptr;
    tick_t m_pcap_t0 = 0;
};

// A capture file being written: pcap with nanosecond timestamps (the frame's
// start on the wire), link type Ethernet, frames without their FCS, as
// tcpdump -w writes them. Throws std::runtime_error if the file cannot be
// created; closed (and flushed) by the destructor.
class pcap_writer {
public:
    explicit pcap_writer(const std::string& path);
    ~pcap_writer();
    pcap_writer(const pcap_writer&) = delete;
    pcap_writer& operator=(const pcap_writer&) = delete;
    void write(const enet::eth_frame& f);
    void flush();

private:
    pcap_t* m_pcap = nullptr;
    pcap_dumper_t* m_dump = nullptr;
};

// A tap on a link: every frame that passes from `in` to `out` is written to a
// capture file first (what a port mirror would show). Adds no time and
// changes nothing on the link.
class link_tap : public sc_core::sc_module, private enet::frame_sink_if {
public:
    sc_core::sc_export<enet::frame_sink_if> in;
    sc_core::sc_port<enet::frame_sink_if> out;
    // Throws std::runtime_error if the capture file cannot be created.
    link_tap(sc_core::sc_module_name nm, const std::string& pcap_file);
    void flush() { m_pcap.flush(); }

private:
    void frame_start(const enet::eth_frame& f) override;
    pcap_writer m_pcap;
};

struct sink_config {
    bool verify = true;        // parse UDP test frames and verify their payloads
    std::string pcap_file;     // capture file to write; empty = none
};

struct sink_stats {
#define S FEC_STAT_MEMBER
#include "traffic/sink_stats.def"
#undef S
};
extern const stat_desc sink_stat_rows[];
extern const size_t sink_stat_count;

class traffic_sink : public sc_core::sc_module, private enet::frame_sink_if {
public:
    sc_core::sc_export<enet::frame_sink_if> in;  // from the MAC's phy_tx

    // Throws std::runtime_error if the capture file cannot be created.
    traffic_sink(sc_core::sc_module_name nm, const sink_config& cfg = sink_config());
    ~traffic_sink() override;

    const sink_stats& stats() const;
    void reset_stats();
    void visit_stats(const std::string& prefix, const stat_visitor& v) const;
    // Called for every frame at its start (tests, scenario glue); data valid during the call.
    void set_observer(std::function<void(const enet::eth_frame&)> fn) { m_observer = std::move(fn); }
    // The link partner's endpoints take the board's frames with a good FCS.
    void set_peer(link_peer* p) { m_peer = p; }
    // Flush the capture file (also done by the destructor).
    void flush();

private:
    void frame_start(const enet::eth_frame& f) override;

    const sink_config m_cfg;
    mutable sink_stats m_stats{};
    traffic_seq_tracker m_seq{};
    std::function<void(const enet::eth_frame&)> m_observer;
    link_peer* m_peer = nullptr;
    std::unique_ptr<pcap_writer> m_pcap;
};

} // namespace models::traffic
