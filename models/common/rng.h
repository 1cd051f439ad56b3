// models/common/rng.h: small deterministic generator (splitmix64 seeding,
// xoshiro256** stream). Every random choice in a model comes from one of these,
// seeded from the scenario seed and a per-instance salt, so the same scenario
// and seed give bit-identical results on every host.
#pragma once
#include <cstdint>

namespace models {

class rng {
public:
    explicit rng(uint64_t seed = 1, uint64_t salt = 0) { reseed(seed, salt); }
    void reseed(uint64_t seed, uint64_t salt = 0)
    {
        uint64_t x = seed ^ (salt * 0x9E3779B97F4A7C15ull);
        for (auto& w : m_s)
            w = splitmix(x);
    }
    uint64_t next()
    {
        const uint64_t r = rotl(m_s[1] * 5, 7) * 9;
        const uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return r;
    }
    // Uniform in [0, n), n > 0 (Lemire's multiply-shift; bias < 2^-32 for small n).
    uint32_t below(uint32_t n) { return (uint32_t)(((next() >> 32) * (uint64_t)n) >> 32); }
    // Uniform in [0, 1).
    double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix(uint64_t& x)
    {
        uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint64_t m_s[4];
};

} // namespace models
