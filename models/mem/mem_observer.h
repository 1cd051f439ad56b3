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
};

} // namespace models::mem
