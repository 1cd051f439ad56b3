// drivers/khost/driver_build.h: build and load a kernel-style driver for a run.
//
// The driver sources (a directory of .c/.h files; our drivers/fec by
// default, or a user's) are copied, patched (unified diffs, `patch -p1`),
// compiled against drivers/shim/include with the instrumentation flags, linked
// into a shared object and loaded; its module_init / module_platform_driver /
// module_param constructors register with the shim as it loads. Builds are
// cached by a hash of every input. Every failure (a patch that does not
// apply, a compile error, a kernel symbol the shim does not provide) throws
// driver_error with a message naming the file and the cause.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace khost {

struct driver_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct driver_build_config {
    std::string source_dir;            // directory with the driver's .c and .h files
    std::vector<std::string> patches;  // applied in order with patch -p1
    std::string shim_dir;              // drivers/shim (headers under include/)
    std::string cache_dir;             // where builds are kept ("" = default)
};

// The compiler flags every driver object is built with.
const char* driver_cflags();
// Build (or reuse) and dlopen; returns the handle. Throws driver_error.
void* driver_load(const driver_build_config& cfg);
// Default locations in this source tree.
std::string default_driver_dir();
std::string default_shim_dir();

} // namespace khost
