// models/mem/noc_config.h: configuration of the AXI fabric (NIC-301) between the PL310,
// the bus masters and DRAM ([noc] group; table models/mem/noc_params.def). Plain: no SystemC.
#pragma once
#include <cstdint>
#include "common/params.h"

namespace models::mem {

struct noc_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "mem/noc_params.def"
#undef P
};
extern const param_table noc_param_table;


} // namespace models::mem
