// drivers/khost/fault.h: a driver that crashes, loops or hangs stops the run
// with the driver function and line it was in.
//
// Three ways kernel code (the driver or the shim runtime) can fail to come
// back, one report:
//   - a signal while it runs (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT): the
//     faulting instruction and the call chain of the core that ran it;
//   - a soft lockup (the kernel's soft-lockup/RCU-stall idea): one unit of
//     work of a core ran longer than kernel.lockup_timeout of simulated time
//     (models/cpu/core.h); the core's thread throws driver_fault, which ends
//     the simulation as an exception from sc_start;
//   - no progress: SystemC time did not advance for wall_timeout_s seconds
//     of wall time (a loop that charges no time); reported like a signal, at
//     the instruction the program was executing.
// The call chain comes from the instrumentation hooks (core::trace(): the
// function entries of the running core, innermost first in the report).
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>
#include "cpu/core.h"

namespace khost {

struct fault_report {
    std::string kind;                // "SIGSEGV", "soft lockup", "no progress"
    std::string detail;              // "read of address 0x0", "CPU0 stuck for 200 ms"
    std::string where;               // "fec_enet_rx_queue (fec_main.c:512)"
    std::vector<std::string> chain;  // the callers, innermost first
    int core = -1;                   // the core whose code it was (-1: none)
    uint64_t sim_time_ps = 0;
    std::string text() const;        // one line, then "  called from ..." lines
};

struct driver_fault : std::runtime_error {
    explicit driver_fault(const fault_report& r) : std::runtime_error(r.text()), report(r) {}
    fault_report report;
};

// The report of what core c is running now; pc: the faulting instruction
// (nullptr: the core's last basic block).
fault_report fault_here(const models::cpu::core* c, const void* pc, const std::string& kind,
                        const std::string& detail, bool return_address = false);

// The fault that stopped the simulation (null if none): set before
// driver_fault is thrown and before a guard's on_fatal runs. SystemC hands
// an exception thrown in a core's thread to the caller of sc_start as its
// own report: this keeps what it was.
const fault_report* last_fault();

// Call where an exception thrown on a SystemC thread's stack (driver_fault
// among them) is caught on the main stack. AddressSanitizer does not see
// SystemC's stack switches, so the frames the exception skipped keep their
// redzones and later calls would be reported as overflows; this clears the
// shadow below the caller. A no-op without AddressSanitizer.
void stack_unwound_here();
// Stops the run from inside kernel code as a fault of the code at
// return address `caller` (a stop-on-call stub was called): the report
// (kind, detail, the caller's site and call chain) goes to the fault guard's
// on_fatal as a signal's would, then the process exits with status 3.
[[noreturn]] void fault_stop(const void* caller, const std::string& kind, const std::string& detail);

// Soft-lockup watchdog on every core: its handler throws driver_fault.
void watch_cores(const std::vector<models::cpu::core*>& cores);

// Signal and no-progress watchdog for the duration of a simulation (one at a
// time). on_fatal runs inside the signal handler, on an alternate stack: it
// reports the fault (without one the handler prints it to stderr) and may
// write the run's partial results; then the process exits with status 3. A second fault
// while on_fatal runs kills the process with the signal. wall_timeout_s <= 0:
// no progress watchdog.
class fault_guard {
public:
    fault_guard(double wall_timeout_s, std::function<void(const fault_report&)> on_fatal);
    ~fault_guard();
    fault_guard(const fault_guard&) = delete;
    fault_guard& operator=(const fault_guard&) = delete;
};

} // namespace khost
