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
#include <utility>
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
    // Or a driver of a kernel tree (drivers/khost/kernel_tree.h): its files
    // are compiled unchanged against the shim's API level of the tree's
    // version (drivers/shim/v6/), with -nostdinc, a generated kconfig header
    // and KBUILD_MODNAME; patches apply with -p1 from the tree's root. Every
    // kernel symbol the driver uses that the shim neither provides nor lists
    // as stop-on-call is reported at once, with the driver lines that use it.
    std::string tree;                  // kernel source root ("" = source_dir)
    std::string tree_driver;           // tree_driver::name ("fec")
    std::vector<std::string> patches;  // applied in order with patch -p1
    // Object-like macros given new values after the patches: each NAME must
    // be #defined exactly once in the driver's own files (driver_defines).
    std::vector<std::pair<std::string, std::string>> defines;
    std::string shim_dir;              // drivers/shim (headers under include/)
    std::string cache_dir;             // where builds are kept ("" = default)
};

// s as one shell word (single-quoted).
std::string shell_quote(const std::string& s);
// Creates path and its parents; a file-system failure is a driver_io_error.
void make_dirs(const std::string& path);
// Where builds are kept by default: $FECSIM_CACHE, else ~/.cache/fecsim/drivers.
std::string driver_cache_dir();
// The compiler flags every driver object is built with.
const char* driver_cflags();
// The flags the driver's objects are linked into driver.so with.
const char* driver_ldflags();
// The kconfig header of a tree driver's build: the i.MX6Q configuration the
// driver depends on, as `#define CONFIG_X 1` lines, and the version macros
// of the tree (LINUX_VERSION_CODE) and the shim's API level.
std::string tree_kconfig_header(int version, int patchlevel, int sublevel);
// The stop-on-call list of the shim's 6.x level (drivers/shim/v6/stop_on_call.list):
// kernel functions a tree driver may import that stop the run when called.
std::vector<std::string> stop_on_call_list(const std::string& shim_dir);
// Build (or reuse) and dlopen; returns the handle. Throws driver_error.
void* driver_load(const driver_build_config& cfg);
// The patches of cfg as the build applies them, one line each: "-pN /abs/path"
// (the strip level patch --dry-run finds, -p0..-p4), then for each hunk that
// applied elsewhere than the patch said a tab and patch's words ("Hunk #1
// succeeded at 1699 (offset -114 lines)."), tried on a scratch copy
// of the driver's files; empty without patches. Throws driver_error as
// driver_load does for a patch that does not apply.
std::vector<std::string> driver_patch_notes(const driver_build_config& cfg);
// "NAME=VALUE;NAME=VALUE" (the [driver] defines key) as pairs. Throws
// std::invalid_argument naming the item at fault: NAME not a C identifier,
// VALUE empty or ending in a backslash, NAME given twice.
std::vector<std::pair<std::string, std::string>> parse_driver_defines(const std::string& text);
// What cfg's defines change, one line each: "FILE:LINE NAME OLD -> NEW"
// (FILE relative to the driver's directory), found on a scratch copy of the
// driver's files with cfg's patches applied; empty without defines. Throws
// driver_error as driver_load does for a NAME that is not #defined exactly
// once as an object-like macro of one line.
std::vector<std::string> driver_define_notes(const driver_build_config& cfg);
// The board's device tree for a tree driver: dts compiled with dtc (the
// blob's bytes). Throws driver_error (a dts that does not compile names
// dtc's message) or driver_io_error (dtc cannot run).
std::string compile_device_tree(const std::string& dts);
// The i.MX6Q profile's scenarios/profiles/imx6q.dts in fecsim's data
// directory (throws driver_io_error when it cannot be found).
std::string default_dts();
// The driver and the shim in fecsim's data directory (drivers/khost/data_dir.h);
// throw driver_io_error when it cannot be found.
std::string default_driver_dir();
std::string default_shim_dir();

} // namespace khost
