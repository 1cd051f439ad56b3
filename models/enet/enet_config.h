// models/enet/enet_config.h: configuration of the ENET MAC ([enet] group; table
// models/enet/enet_params.def). Plain: no SystemC.
#pragma once
#include <cstdint>
#include "common/params.h"

namespace models::enet {

struct enet_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "enet/enet_params.def"
#undef P
};
extern const param_table enet_param_table;

} // namespace models::enet
