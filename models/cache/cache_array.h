// models/cache/cache_array.h: tags, per-line state and (optionally) data of a
// set-associative cache; the storage shared by the L1 and PL310 models.
//
// Contract: line numbers are physical addresses >> line_shift; the number of
// sets is a power of two; a victim is an invalid way if the set has one,
// otherwise chosen by the replacement policy from a seeded generator, so the
// same seed gives the same victims.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>
#include "common/rng.h"

namespace models::cache {

enum class replacement_kind : uint32_t { random = 0, round_robin = 1, lru = 2 };

enum line_flag : uint8_t {
    LINE_DIRTY = 1,   // newer than the next level
    LINE_SHARED = 2,  // another L1 may hold a copy (L1 only)
};

class cache_array {
public:
    cache_array(uint64_t size_bytes, unsigned assoc, unsigned line_bytes, replacement_kind repl,
                uint64_t seed, bool with_data)
        : m_assoc(assoc), m_repl(repl), m_rng(seed, 0xCA)
    {
        if (!line_bytes || (line_bytes & (line_bytes - 1)) || !assoc ||
            size_bytes % ((uint64_t)assoc * line_bytes))
            throw std::invalid_argument("cache: size must be a multiple of assoc * line, line a power of two");
        if (assoc > 255)
            throw std::invalid_argument("cache: at most 255 ways");
        m_sets = (unsigned)(size_bytes / ((uint64_t)assoc * line_bytes));
        if (m_sets & (m_sets - 1))
            throw std::invalid_argument("cache: the number of sets must be a power of two");
        m_line_shift = (unsigned)__builtin_ctz(line_bytes);
        m_line = line_bytes;
        const size_t n = (size_t)m_sets * assoc;
        m_tag.assign(n, 0);
        m_sig.assign(m_sets, 0);
        m_slot_sig.assign(n, 0);
        m_sig_count.assign((size_t)m_sets * 64, 0);
        m_set_valid.assign(m_sets, 0);
        m_set_bits = (unsigned)__builtin_ctz(m_sets);
        m_region_count.assign(REGION_BUCKETS, 0);
        m_flags.assign(n, 0);
        m_rr.assign(m_sets, 0);
        if (repl == replacement_kind::lru)
            m_stamp.assign(n, 0);
        if (with_data)
            m_data.assign(n * line_bytes, 0);
    }

    unsigned sets() const { return m_sets; }
    unsigned assoc() const { return m_assoc; }
    unsigned line_bytes() const { return m_line; }
    unsigned line_shift() const { return m_line_shift; }
    uint64_t line_of(uint64_t pa) const { return pa >> m_line_shift; }
    unsigned set_of(uint64_t pa) const { return (unsigned)(line_of(pa) & (m_sets - 1)); }

    // Slot index (set * assoc + way) holding pa's line, or -1.
    int find(uint64_t pa) const
    {
        const uint64_t key = line_of(pa) + 1;
        return find_at(set_of(pa), key, sig_index(key));
    }

    // Slot to (re)use for pa's line: an invalid way first, else the policy's victim.
    [[gnu::always_inline]] int victim(uint64_t pa) { return victim_in(set_of(pa)); }
    [[gnu::always_inline]] int victim_in(unsigned set)
    {
        const size_t base = (size_t)set * m_assoc;
        if (m_set_valid[set] < m_assoc)
            for (unsigned w = 0; w < m_assoc; w++)
                if (!m_tag[base + w])
                    return (int)(base + w);
        switch (m_repl) {
        case replacement_kind::random:
            return (int)(base + m_rng.below(m_assoc));
        case replacement_kind::round_robin: {
            unsigned w = m_rr[set];
            m_rr[set] = w + 1 == m_assoc ? 0 : w + 1;
            return (int)(base + w);
        }
        case replacement_kind::lru: {
            unsigned best = 0;
            for (unsigned w = 1; w < m_assoc; w++)
                if (m_stamp[base + w] < m_stamp[base + best])
                    best = w;
            return (int)(base + best);
        }
        }
        return (int)base;
    }

    // Presence summary by 512-B region: false means no line of pa's region
    // is resident (exact); true means one may be (a counting filter: regions
    // that share a bucket make false positives, which only cost a find()).
    // Lets range maintenance skip what it has nothing to do on.
    bool region_may_hold(uint64_t pa) const { return m_region_count[region_bucket(pa)] != 0; }

    // f(k, slot) for each resident line among the n consecutive lines from
    // line-aligned pa (k = its index), in address order; regions the summary
    // shows empty are skipped without a lookup. f may drop the slot it gets.
    template <class F> void for_each_resident(uint64_t pa, unsigned n, F&& f) const
    {
        unsigned k = 0;
        while (k < n) {
            const uint64_t a = pa + ((uint64_t)k << m_line_shift);
            if (!region_may_hold(a)) {
                k += (unsigned)((((a | (REGION_BYTES - 1)) + 1) - a) >> m_line_shift);
                continue;
            }
            const int slot = find(a);
            if (slot >= 0)
                f(k, slot);
            k++;
        }
    }

    bool valid(int slot) const { return m_tag[slot] != 0; }
    size_t valid_lines() const { return m_valid; }
    // Physical address of the line in a valid slot.
    uint64_t addr(int slot) const { return (m_tag[slot] - 1) << m_line_shift; }
    uint8_t flags(int slot) const { return m_flags[slot]; }
    void set_flags(int slot, uint8_t f) { m_flags[slot] = f; }
    bool dirty(int slot) const { return m_flags[slot] & LINE_DIRTY; }
    [[gnu::always_inline]] void install(int slot, uint64_t pa, uint8_t f)
    {
        // slot is in pa's set (victim(pa) or find(pa))
        const uint64_t key = line_of(pa) + 1;
        install_at(slot, set_of(pa), key, pa, sig_index(key), f);
    }
    // Whole-line write allocation of the n consecutive lines from
    // line-aligned pa, in address order: for each, what find() and then
    // touch() and flags f (present), or victim(), evict(k, slot) for a valid
    // victim (k: the line's index) and install(slot, line, f) do, line by
    // line. evict may change the victim's flags, not the tags. Returns the
    // number of lines that were present.
    template <class F> uint64_t write_lines(uint64_t pa, uint64_t n, uint8_t f, F&& evict)
    {
        uint64_t key = line_of(pa) + 1, present = 0;
        unsigned set = set_of(pa);
        // The signature depends on the key's bits above the set index bits
        // (key = line + 1): it changes only at the line of the last set.
        uint8_t b = sig_index(key);
        for (uint64_t k = 0; k < n; k++, key++, set = (set + 1) & (m_sets - 1)) {
            if (set == m_sets - 1)
                b = sig_index(key);
            int slot = find_at(set, key, b);
            if (slot >= 0) {
                touch(slot);
                m_flags[slot] = f;
                present++;
                continue;
            }
            slot = victim_in(set);
            if (m_tag[slot])
                evict(k, slot);
            install_at(slot, set, key, (key - 1) << m_line_shift, b, f);
        }
        return present;
    }
    void drop(int slot)
    {
        if (m_tag[slot]) {
            m_region_count[region_bucket(addr(slot))]--;
            m_valid--;
            const unsigned set = (unsigned)((m_tag[slot] - 1) & (m_sets - 1));
            m_set_valid[set]--;
            unsign(set, m_slot_sig[slot]);
        }
        m_tag[slot] = 0;
        m_flags[slot] = 0;
    }
    // Whether slot holds pa's line (a hint from an earlier find, checked).
    bool holds(int slot, uint64_t pa) const { return m_tag[slot] == line_of(pa) + 1; }
    // find(pa), trying a hinted slot (-1: none) first: one tag compare when
    // the hint is right, the same answer as find() either way.
    int find_hinted(int hint, uint64_t pa) const { return hint >= 0 && holds(hint, pa) ? hint : find(pa); }
    // find_hinted() and, when present, touch() for each of the n consecutive
    // lines from line-aligned pa in address order, hints[i] (n entries) the
    // i-th line's hint and set to its slot (-1: absent); absent(i, lpa) is
    // called for an absent line before the next is looked up and may change
    // the array. Returns the number of lines present.
    template <class F> uint64_t touch_lines(uint64_t pa, unsigned n, int* hints, F&& absent)
    {
        const uint64_t* tag = m_tag.data();  // the storage never moves
        const bool stamped = !m_stamp.empty();
        uint64_t key = line_of(pa) + 1, present = 0;
        for (unsigned i = 0; i < n; i++, key++) {
            int s = hints[i];
            if (s < 0 || tag[s] != key) {
                s = find((key - 1) << m_line_shift);
                hints[i] = s;
                if (s < 0) {
                    absent(i, (key - 1) << m_line_shift);
                    continue;
                }
            }
            if (stamped)
                touch(s);
            present++;
        }
        return present;
    }

    void touch(int slot)
    {
        if (!m_stamp.empty())
            m_stamp[slot] = ++m_clock;
    }
    uint8_t* data(int slot) { return m_data.empty() ? nullptr : &m_data[(size_t)slot * m_line]; }

private:
    static constexpr uint64_t REGION_BYTES = 512;     // power of two, >= a line
    static constexpr unsigned REGION_BUCKETS = 8192;  // power of two
    static unsigned region_bucket(uint64_t pa)
    {
        const uint64_t r = pa / REGION_BYTES;
        return (unsigned)((r ^ (r >> 13)) & (REGION_BUCKETS - 1));
    }

    // find() of the line whose tag key is key (line number + 1), in its set,
    // b = sig_index(key).
    [[gnu::always_inline]] int find_at(unsigned set, uint64_t key, uint8_t b) const
    {
        // A per-set signature of the resident tags rejects most absent lines
        // without scanning the ways (maintenance of invalidated buffers).
        if (!(m_sig[set] & (1ull << b)))
            return -1;
        const size_t base = (size_t)set * m_assoc;
        for (unsigned w = 0; w < m_assoc; w++)
            if (m_tag[base + w] == key)
                return (int)(base + w);
        return -1;
    }
    // install() of the line at pa, tag key key (line number + 1), in its
    // set, b = sig_index(key).
    [[gnu::always_inline]] void install_at(int slot, unsigned set, uint64_t key, uint64_t pa, uint8_t b, uint8_t f)
    {
        if (m_tag[slot]) {
            m_region_count[region_bucket(addr(slot))]--;
            unsign(set, m_slot_sig[slot]);
        } else {
            m_valid++;
            m_set_valid[set]++;
        }
        m_tag[slot] = key;
        m_region_count[region_bucket(pa)]++;
        m_slot_sig[slot] = b;
        sign(set, b);
        m_flags[slot] = f;
        touch(slot);
    }

    // Tag signature: one of 64 bits chosen from the line number's high bits
    // (the low bits are the set index, equal within a set).
    uint8_t sig_index(uint64_t key) const
    {
        const uint64_t k = key >> m_set_bits;
        return (uint8_t)((k ^ (k >> 6) ^ (k >> 12)) & 63);
    }
    // A valid slot's signature bit b into / out of its set's signature:
    // each set counts the valid ways per bit.
    void sign(unsigned set, unsigned b)
    {
        if (m_sig_count[(size_t)set * 64 + b]++ == 0)
            m_sig[set] |= 1ull << b;
    }
    void unsign(unsigned set, unsigned b)
    {
        if (--m_sig_count[(size_t)set * 64 + b] == 0)
            m_sig[set] &= ~(1ull << b);
    }

    unsigned m_sets = 0, m_assoc, m_line = 0, m_line_shift = 0;
    replacement_kind m_repl;
    rng m_rng;
    std::vector<uint64_t> m_tag;  // line number + 1; 0 = invalid
    std::vector<uint64_t> m_sig;  // per set: OR of 1 << sig_index() of the valid tags
    std::vector<uint8_t> m_slot_sig;   // per valid slot: sig_index() of its tag
    std::vector<uint8_t> m_sig_count;  // per set and signature bit: valid ways with that bit
    std::vector<uint8_t> m_set_valid;  // per set: valid ways
    unsigned m_set_bits = 0;
    std::vector<uint32_t> m_region_count;  // resident lines per region bucket
    std::vector<uint8_t> m_flags;
    std::vector<uint32_t> m_rr;
    std::vector<uint64_t> m_stamp;
    uint64_t m_clock = 0;
    size_t m_valid = 0;
    std::vector<uint8_t> m_data;
};

} // namespace models::cache
