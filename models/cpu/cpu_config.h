// models/cpu/cpu_config.h: configuration of the CPU cores ([cpu] group).
#pragma once
#include <cstdint>
#include "common/params.h"

namespace models::cpu {

struct cpu_config {
#define P FEC_PARAM_STRUCT_MEMBER
#include "cpu/cpu_params.def"
#undef P
};
extern const param_table cpu_param_table;

} // namespace models::cpu
