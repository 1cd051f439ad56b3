// models/mem/mem_ext.h: what travels with a TLM generic payload on the memory
// side of fecsim (L1 -> PL310 -> interconnect -> DRAM, uDMA -> interconnect).
//
// Contract of every b_transport in the memory path (loosely timed):
//  - on entry, delay is the initiator's local time offset from sc_time_stamp();
//  - on return, delay is the offset at which the initiator may go on: data
//    returned (reads) or write accepted (writes, which may still be in flight
//    further down: posted);
//  - targets never call wait(); shared resources are booked on a timeline;
//  - a null data pointer means "timing only": writes store zeros into the
//    backed window, reads return nothing (used by the stressor, whose
//    footprint lies outside the backed window anyway).
#pragma once
#include <cstdint>
#include <tlm>
#include "common/time.h"

namespace models::mem {

// Who started a transaction, kept end to end for arbitration statistics.
enum master_id : uint8_t {
    MASTER_CPU0 = 0,  // cores 0..7 are MASTER_CPU0 + core
    MASTER_ENET = 8,  // ENET uDMA
    MASTER_OTHER = 9,
    MASTER_COUNT = 10,
};

struct mem_ext : tlm::tlm_extension<mem_ext> {
    uint8_t master = MASTER_OTHER;
    bool uncached = false;   // Normal non-cacheable (dma_alloc_coherent) access: passes caches
    bool full_line = false;  // write covers a whole line: allocate without a fill
    bool posted = false;     // writer does not wait for completion (eviction / store buffer)

    tlm::tlm_extension_base* clone() const override { return new mem_ext(*this); }
    void copy_from(const tlm::tlm_extension_base& e) override
    {
        *this = static_cast<const mem_ext&>(e);
    }
};

// One reusable payload + extension per initiator: no heap traffic per access.
struct mem_txn {
    tlm::tlm_generic_payload gp;
    mem_ext ext;
    mem_txn() { gp.set_extension(&ext); }
    ~mem_txn() { gp.clear_extension(&ext); }
    mem_txn(const mem_txn&) = delete;
    mem_txn& operator=(const mem_txn&) = delete;

    void set(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len)
    {
        gp.set_command(cmd);
        gp.set_address(addr);
        gp.set_data_ptr(data);
        gp.set_data_length(len);
        gp.set_streaming_width(len);
        gp.set_byte_enable_ptr(nullptr);
        gp.set_dmi_allowed(false);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    }
};

inline const mem_ext& ext_of(tlm::tlm_generic_payload& gp)
{
    static const mem_ext k_default;
    mem_ext* e = nullptr;
    gp.get_extension(e);
    return e ? *e : k_default;
}

} // namespace models::mem
