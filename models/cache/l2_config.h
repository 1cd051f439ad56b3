// models/cache/l2_config.h: configuration of the PL310 L2 cache controller ([l2] group;
// table models/cache/l2_params.def, model models/cache/pl310.h). Plain: no SystemC.
#pragma once
#include <cstdint>
#include "cache/cache_array.h"  // replacement_kind
#include "common/params.h"

namespace models::cache {

// What the shared cache is (l2_params.def, kind).
enum class l2_kind : uint32_t { pl310 = 0, integrated = 1 };

struct l2_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "cache/l2_params.def"
#undef P
};
extern const param_table l2_param_table;


} // namespace models::cache
