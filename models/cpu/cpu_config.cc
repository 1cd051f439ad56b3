#include "cpu/cpu_config.h"

namespace models::cpu {

static const param_desc k_cpu_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(cpu_config, __VA_ARGS__)
#include "cpu/cpu_params.def"
#undef P
};
const param_table cpu_param_table = {"cpu", "Cortex-A9 MPCore cores", k_cpu_rows,
                                     sizeof k_cpu_rows / sizeof k_cpu_rows[0]};

} // namespace models::cpu
