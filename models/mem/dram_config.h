// models/mem/dram_config.h: configuration of the DRAM channel and of the address space it
// backs ([dram] group; table models/mem/dram_params.def). Plain: no SystemC.
#pragma once
#include <cstdint>
#include "common/params.h"

namespace models::mem {

struct phys_mem_config {
    uint64_t base = 0x10000000;       // i.MX6Q MMDC base address
    uint64_t size = 1ull << 30;       // bytes of DRAM address space
    uint64_t backed = 64ull << 20;    // bytes from base that hold data (host memory, lazily touched)
};

struct dram_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "mem/dram_params.def"
#undef P
    phys_mem_config phys() const { return {0x10000000, size, backed}; }
};
extern const param_table dram_param_table;

} // namespace models::mem
