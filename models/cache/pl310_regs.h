// models/cache/pl310_regs.h: PL310 / L2C-310 register offsets used by Linux
// (arch/arm/include/asm/hardware/cache-l2x0.h; docs/sources.md §4.2).
#pragma once
#include <cstdint>

namespace models::cache::pl310_reg {

enum : uint32_t {
    CACHE_ID = 0x000,            // RO; i.MX6Q: 0x410000C7 (r3p1-50rel0)
    CACHE_TYPE = 0x004,          // RO
    CTRL = 0x100,                // b0: L2 enable
    AUX_CTRL = 0x104,            // i.MX6Q: 0x76470001
    CACHE_SYNC = 0x730,          // write: drain buffers; reads 0 when done
    DUMMY_REG = 0x740,           // erratum 753970 sync alias
    INV_LINE_PA = 0x770,         // write PA: invalidate line (dirty data lost)
    INV_WAY = 0x77C,             // background way operation (not modelled)
    CLEAN_LINE_PA = 0x7B0,       // write PA: write back if dirty, keep line
    CLEAN_LINE_IDX = 0x7B8,      // by set/way (not modelled)
    CLEAN_WAY = 0x7BC,           // background (not modelled)
    CLEAN_INV_LINE_PA = 0x7F0,   // write PA: write back if dirty, then invalidate
    CLEAN_INV_LINE_IDX = 0x7F8,  // by set/way (not modelled)
    CLEAN_INV_WAY = 0x7FC,       // background (not modelled)
    DEBUG_CTRL = 0xF40,
    PREFETCH_CTRL = 0xF60,
    POWER_CTRL = 0xF80,
};

constexpr uint32_t CACHE_ID_IMX6Q = 0x410000C7;
constexpr uint32_t AUX_CTRL_IMX6Q = 0x76470001;
constexpr uint64_t BASE_IMX6Q = 0x00A02000;  // imx6qdl.dtsi "arm,pl310-cache"

} // namespace models::cache::pl310_reg
