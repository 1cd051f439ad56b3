// models/mem/mem_observer.h: what the memory models tell an observer (the
// DMA coherence checker) about data movement it cannot see elsewhere.
#pragma once
#include <cstdint>

namespace models::mem {

class mem_observer {
public:
    virtual ~mem_observer() = default;
    // Bytes written into DRAM by `master` (the uDMA, or a cache writing back).
    virtual void dram_write(uint64_t pa, unsigned len, uint8_t master) = 0;
    // The addresses it looks at, [observe_lo, observe_hi): a write wholly
    // outside them is not passed on (the memory hog's lines, past the
    // backed window). Set by the observer before it is attached.
    uint64_t observe_lo = 0, observe_hi = ~0ull;
};

} // namespace models::mem
