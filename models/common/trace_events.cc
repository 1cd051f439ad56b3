#include "common/trace_events.h"
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <numeric>

namespace models {

trace_recorder* g_trace = nullptr;

uint32_t trace_recorder::intern(const std::string& s)
{
    auto it = m_ids.find(s);
    if (it != m_ids.end())
        return it->second;
    const uint32_t id = (uint32_t)m_names.size();
    m_names.push_back(s);
    m_ids.emplace(s, id);
    return id;
}

void trace_recorder::name_thread(te_track p, unsigned tid, const std::string& name)
{
    m_threads.push_back({{(uint8_t)p, tid}, name});
}

namespace {

void put_string(std::string& o, const std::string& s)
{
    o += '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += (char)c;
        } else if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else {
            o += (char)c;
        }
    }
    o += '"';
}

// Picoseconds as the format's microseconds, exactly (6 decimals).
void put_us(std::string& o, tick_t ps)
{
    char b[32];
    std::snprintf(b, sizeof b, "%" PRIu64 ".%06" PRIu64, ps / 1000000, ps % 1000000);
    o += b;
}

const char* process_name(uint8_t p)
{
    switch ((te_track)p) {
    case te_track::cpu: return "CPUs";
    case te_track::driver: return "kernel functions";
    case te_track::mac: return "ENET MAC";
    }
    return "?";
}

} // namespace

std::string trace_recorder::json() const
{
    std::vector<size_t> order(m_ev.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) { return m_ev[a].t < m_ev[b].t; });
    std::string o;
    o.reserve(m_ev.size() * 80 + 4096);
    o += "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"dropped_events\":" + std::to_string(m_dropped) +
         "},\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&] {
        if (!first)
            o += ",\n";
        first = false;
    };
    for (uint8_t p : {(uint8_t)te_track::cpu, (uint8_t)te_track::driver, (uint8_t)te_track::mac}) {
        sep();
        o += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(p) + ",\"args\":{\"name\":";
        put_string(o, process_name(p));
        o += "}}";
    }
    for (const auto& t : m_threads) {
        sep();
        o += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(t.first.first) +
             ",\"tid\":" + std::to_string(t.first.second) + ",\"args\":{\"name\":";
        put_string(o, t.second);
        o += "}}";
    }
    for (size_t i : order) {
        const event& e = m_ev[i];
        sep();
        o += "{\"ph\":\"";
        o += e.ph;
        o += "\",\"pid\":" + std::to_string((unsigned)e.pid) + ",\"tid\":" + std::to_string(e.tid) + ",\"ts\":";
        put_us(o, e.t);
        if (e.ph == 'X') {
            o += ",\"dur\":";
            put_us(o, e.dur);
        }
        if (e.ph == 'i')
            o += ",\"s\":\"t\"";
        if (e.ph != 'E') {
            o += ",\"name\":";
            put_string(o, m_names[e.name]);
        }
        if (e.arg_name) {
            o += ",\"args\":{";
            put_string(o, m_names[e.arg_name]);
            o += ":" + std::to_string(e.arg) + "}";
        }
        o += "}";
    }
    o += "\n]}\n";
    return o;
}

} // namespace models
