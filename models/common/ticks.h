// models/common/ticks.h: simulated time as integer picoseconds, and clock
// domains; plain (no SystemC), for configuration structs. models/common/time.h
// adds the conversions to and from SystemC time.
//
// Contract: models keep latencies as integer cycles of their own clock and
// convert with clock_domain, never with ad-hoc floating point.
#pragma once
#include <cstdint>

namespace models {

using tick_t = uint64_t;  // picoseconds

constexpr tick_t PS_PER_NS = 1000;
constexpr tick_t PS_PER_US = 1000 * PS_PER_NS;
constexpr tick_t PS_PER_S = 1000000 * PS_PER_US;

struct clock_domain {
    tick_t period_ps = 1000;  // one cycle, ps (rounded to the nearest ps)

    clock_domain() = default;
    explicit clock_domain(double hz) : period_ps(hz > 0 ? (tick_t)(1e12 / hz + 0.5) : 1) {}
    tick_t cycles(uint64_t n) const { return n * period_ps; }
    // First clock edge at or after t.
    tick_t ceil_edge(tick_t t) const { return (t + period_ps - 1) / period_ps * period_ps; }
    uint64_t to_cycles(tick_t t) const { return t / period_ps; }
};

// Time a transfer of len bytes occupies a channel moving bytes_per_cycle (>= 1) a
// cycle (whole cycles), plus overhead_cycles, ps. The latest length's answer
// is kept: nearly every transaction is one cache line long, and the rounding
// division would otherwise be paid on each.
class transfer_time {
public:
    transfer_time(clock_domain clk, uint32_t bytes_per_cycle, uint32_t overhead_cycles = 0)
        : m_clk(clk), m_bpc(bytes_per_cycle), m_overhead(overhead_cycles)
    {
    }
    tick_t ps(unsigned len)
    {
        if (len != m_len) {
            m_len = len;
            m_ps = m_clk.cycles(m_overhead + (len + m_bpc - 1) / m_bpc);
        }
        return m_ps;
    }

private:
    clock_domain m_clk;
    uint32_t m_bpc, m_overhead;
    unsigned m_len = ~0u;
    tick_t m_ps = 0;
};

} // namespace models
