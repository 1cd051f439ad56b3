// models/cache/l1_config.h: configuration of a Cortex-A9 L1 data cache ([l1] group;
// table models/cache/l1_params.def). Plain: no SystemC.
#pragma once
#include <cstdint>
#include "cache/cache_array.h"  // replacement_kind
#include "common/params.h"

namespace models::cache {

struct l1_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "cache/l1_params.def"
#undef P
    double clock_hz = 996e6;  // core clock, Hz; set by elaboration from [cpu] clock
};
extern const param_table l1_param_table;


} // namespace models::cache
