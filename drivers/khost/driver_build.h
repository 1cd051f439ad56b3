// drivers/khost/driver_build.h: build and load a kernel-style driver for a run.
//
// The driver sources (a directory of .c/.h files; drivers/fec of the data
// directory by default, or a user's) are copied, patched (unified diffs, `patch -p1`),
// compiled against drivers/shim/include with the instrumentation flags, linked
// into a shared object and loaded; its module_init / module_platform_driver /
// module_param constructors register with the shim as it loads. Builds are
// cached by a hash of every input: the compiler (first line of
// `cc --version`), every compile and link flag, the sources, the patches and
// the shim's headers. A build runs in <cache>/build-<pid>@<host>-XXXXXX and
// is renamed to <cache>/<hash> when complete; the directories of builds
// that were killed are removed by the next build on the same host.
//
// Every failure throws driver_error with a message naming the file and the
// cause. When the input is at fault (a patch that does not apply, a compile
// error, a kernel symbol the shim does not provide, a source that is not a
// regular file) it is a driver_error; when the build itself could not be
// carried out (no space left, an I/O error, a read-only cache, a compiler
// that cannot run or is killed) it is a driver_io_error.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace khost {

struct driver_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// The build could not be carried out (file system, tools): not bad input.
struct driver_io_error : driver_error {
    using driver_error::driver_error;
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
// The driver and the shim in fecsim's data directory (drivers/khost/data_dir.h);
// throw driver_io_error when it cannot be found.
std::string default_driver_dir();
std::string default_shim_dir();

} // namespace khost
