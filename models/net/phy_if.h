// models/net/phy_if.h: the link between the ENET MAC and its link partner.
//
// Models: one direction of a full-duplex Ethernet link as a sequence of whole
// frames, each announced at the start of its preamble together with the wire
// time of one byte, so the receiver knows when every byte arrives:
//   data byte k (0-based, destination MAC first) is complete at
//   start_ps + (PREAMBLE_BYTES + k + 1) * byte_ps, and the frame ends at
//   start_ps + (PREAMBLE_BYTES + len) * byte_ps.
// The transmitter keeps PREAMBLE_BYTES + len + IFG_BYTES byte times between
// frame starts (IFG may be larger: TIPG on the MAC side). Flow control (802.3x
// pause) travels back as a call, not as a frame on the reverse direction.
// Does not model: symbol errors, PHY latency, half duplex, auto-negotiation.
#pragma once
#include <cstdint>
#include <systemc>
#include "common/time.h"

namespace models::enet {

constexpr unsigned PREAMBLE_BYTES = 8;  // 7 preamble + 1 SFD
constexpr unsigned IFG_BYTES = 12;      // minimum inter-frame gap
constexpr unsigned FCS_BYTES = 4;
constexpr unsigned MIN_FRAME_BYTES = 64;  // incl. FCS
constexpr unsigned PAUSE_QUANTUM_BITS = 512;

// Wire time of one byte at a bit rate, in ps (exact for 10 Mbit/s .. 1 Gbit/s).
inline tick_t byte_time_ps(double bps) { return (tick_t)(8e12 / bps + 0.5); }

// The sender of a frame whose bytes past the Ethernet header it writes only
// when a receiver asks for them (at line rate a MAC drops most frames having
// looked at the header alone).
class frame_body_if {
public:
    virtual ~frame_body_if() = default;
    virtual void write_body() = 0;  // idempotent for one frame
};
constexpr unsigned ETH_HDR_BYTES = 14;  // destination, source, EtherType

struct eth_frame {
    const uint8_t* data = nullptr;  // destination MAC first, FCS in the last 4 bytes
    uint32_t len = 0;               // bytes incl. FCS, excl. preamble
    tick_t start_ps = 0;            // start of the preamble (== sc_time_stamp() at the call)
    tick_t byte_ps = 0;             // wire time of one byte on this link
    // The sender computed the FCS over data[0..len-4) itself (it appended it):
    // a receiver may take it as correct instead of computing the CRC again.
    // false: unknown, check it.
    bool fcs_known_good = false;
    // Non-null: only data[0..ETH_HDR_BYTES) is written yet; a receiver calls
    // complete() before it reads further (the values do not depend on when).
    frame_body_if* body = nullptr;
    void complete() const
    {
        if (body)
            body->write_body();
    }
};

// A sender that may hand frames over after their time (see
// frame_sink_if::refuses_all).
class late_sender_if {
public:
    virtual ~late_sender_if() = default;
    // Hand over, through frame_refused(), every frame that started before
    // now. wake: the receiver's state is about to change; the sender looks
    // at refuses_all() again before its next frame.
    virtual void catch_up(bool wake) = 0;
};

// Receiving side of one link direction. frame_start() is called at start_ps;
// f.data is valid only during the call (the receiver copies what it keeps,
// after f.complete()).
class frame_sink_if : public virtual sc_core::sc_interface {
public:
    virtual void frame_start(const eth_frame& f) = 0;

    // Optional, a speed technique that changes no result: true when the
    // receiver now drops every frame whatever it holds, and will, until its
    // state changes; before any such change, and before anything reads what
    // the frames would have changed, it calls the late sender's catch_up().
    // A sender may then stop waking at each frame's start and hand the
    // frames over later through frame_refused(). Default: never.
    virtual bool refuses_all() const { return false; }
    // A frame that started at f.start_ps (before now) while refuses_all()
    // held: the receiver counts and drops it as frame_start() would have then.
    virtual void frame_refused(const eth_frame&) {}
    // n >= 2 such frames at once, alike in length, header and FCS state
    // (fcs_known_good), the k-th starting at first.start_ps + k * step_ps,
    // all before now; first.data holds their header only (their bodies
    // differ, first.body is null). The receiver counts and drops them as n
    // frame_refused() calls would have, or returns false having taken none
    // when it must see more than the header (the sender then hands them over
    // one by one). Default: false.
    virtual bool frames_refused(const eth_frame& first, uint64_t n, tick_t step_ps)
    {
        (void)first, (void)n, (void)step_ps;
        return false;
    }
    // The sender to call back (one per link; null: none).
    virtual void set_late_sender(late_sender_if*) {}
};

// Flow control towards the transmitting link partner: from time at_ps on,
// start no new frame for quanta * 512 bit times; quanta == 0 (XON) resumes at
// once. A frame already started is completed (802.3 Annex 31B).
class pause_if : public virtual sc_core::sc_interface {
public:
    virtual void pause(uint32_t quanta, tick_t at_ps) = 0;
};

} // namespace models::enet
