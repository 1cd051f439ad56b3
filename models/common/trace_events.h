// models/common/trace_events.h: a timeline of what each core and the MAC
// did, written as Chrome trace-event JSON (the format ui.perfetto.dev and
// chrome://tracing open).
//
// Off unless a recorder is installed: every emitting site tests g_trace
// (one pointer load) and does nothing when it is null. Times are simulated
// picoseconds; agents that run ahead of SystemC time (the cores) record at
// their own time, so events arrive out of time order and are sorted (stably)
// when written. Names are interned once; an event is 32 bytes. Past
// max_events, further events are counted as dropped, not kept.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>
#include "common/ticks.h"

namespace models {

// A process of the timeline; its threads are the tid of each event.
enum class te_track : uint8_t {
    cpu = 1,     // tid = core: hardirq, softirq, tasks (ksoftirqd, app, stress), NAPI polls
    driver = 2,  // tid = core: kernel-code functions (entry to exit)
    mac = 3,     // tid 0 RX, 1 TX, 2 IRQ line: frame arrival, FIFO drop, BD write-back, IRQ
};

class trace_recorder {
public:
    explicit trace_recorder(size_t max_events) : m_max(max_events) {}

    // The id of name s (copied once).
    uint32_t intern(const std::string& s);
    // A span [t0, t1] (Chrome "X"); arg_name 0: no argument.
    void span(te_track p, unsigned tid, tick_t t0, tick_t t1, uint32_t name, uint32_t arg_name = 0, int64_t arg = 0)
    {
        add({t0, t1 - t0, name, arg_name, arg, (uint16_t)tid, p, 'X'});
    }
    // Begin ("B") and end ("E") of a span on one thread; they must nest.
    void begin(te_track p, unsigned tid, tick_t t, uint32_t name) { add({t, 0, name, 0, 0, (uint16_t)tid, p, 'B'}); }
    void end(te_track p, unsigned tid, tick_t t) { add({t, 0, 0, 0, 0, (uint16_t)tid, p, 'E'}); }
    // A point in time ("i").
    void instant(te_track p, unsigned tid, tick_t t, uint32_t name, uint32_t arg_name = 0, int64_t arg = 0)
    {
        add({t, 0, name, arg_name, arg, (uint16_t)tid, p, 'i'});
    }

    size_t size() const { return m_ev.size(); }
    uint64_t dropped() const { return m_dropped; }
    // Names the threads of the timeline ("CPU0", "RX"...).
    void name_thread(te_track p, unsigned tid, const std::string& name);
    // The JSON document; events in time order.
    std::string json() const;

private:
    struct event {
        tick_t t, dur;
        uint32_t name, arg_name;
        int64_t arg;
        uint16_t tid;
        te_track pid;
        char ph;
    };
    void add(const event& e)
    {
        if (m_ev.size() < m_max)
            m_ev.push_back(e);
        else
            m_dropped++;
    }

    size_t m_max;
    uint64_t m_dropped = 0;
    std::vector<event> m_ev;
    std::vector<std::string> m_names{""};  // id 0: none
    std::unordered_map<std::string, uint32_t> m_ids;
    std::vector<std::pair<std::pair<uint8_t, unsigned>, std::string>> m_threads;
};

// The recorder of this simulation, or null (no timeline).
extern trace_recorder* g_trace;

} // namespace models
