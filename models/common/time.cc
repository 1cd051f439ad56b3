#include "common/time.h"
#include <stdexcept>

namespace models {

void time_setup()
{
    // The default resolution is 1 ps; fix it explicitly so tick_t == sc_time::value().
    static bool done = false;
    if (!done) {
        if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
            sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
        done = true;
    }
    if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
        throw std::runtime_error("SystemC time resolution must be 1 ps");
}

} // namespace models
