// drivers/khost/kernel_tree.h: a driver taken from a kernel source tree.
//
// A user points fecsim at a kernel tree ([driver] tree=<root>) and names the
// driver ([driver] name=fec). This module knows which files make each driver
// it can run, reads the tree's version from its top-level Makefile (VERSION,
// PATCHLEVEL) and says which shim API level builds it. Only those files are
// compiled; they are compiled unchanged (their sha256 is recorded with the
// results).
//
// Contract: kernel_tree_open never writes anything; every failure is a
// driver_error whose message names the file (and line) at fault.
#pragma once
#include <string>
#include <vector>

namespace khost {

// A driver fecsim knows how to build from a tree.
struct tree_driver {
    const char* name;                // [driver] name
    const char* dir;                 // its directory in the tree
    std::vector<const char*> files;  // the files that make it (.c compiled, .h copied)
};
const std::vector<tree_driver>& tree_drivers();
const tree_driver* tree_driver_find(const std::string& name);

// The API levels of the shim: "5.4" (fecsim's own driver, driver.source),
// and those a tree may have.
const std::vector<std::string>& tree_api_levels();
// "6.1, 6.12" (the levels a tree may have), for messages.
std::string tree_api_levels_text();

struct kernel_tree {
    std::string root;                // absolute (for a tarball: its extracted copy in the cache)
    std::string tarball;             // the source tarball it was extracted from ("" if a directory)
    std::string driver;              // tree_driver::name
    std::string dir;                 // root + "/" + tree_driver::dir
    std::vector<std::string> files;  // as tree_driver::files
    int version = 0, patchlevel = 0, sublevel = 0;
    std::string api;                 // "6.1", "6.12"
    std::string version_text() const;  // "6.12.117"
};

// A tarball name (.tar.xz, .tar.gz, .tgz, .tar.bz2, .tar).
bool is_tarball(const std::string& path);
// Reads and checks root's Makefile and the driver's files. root may be a
// source tarball: the top-level Makefile and the known drivers' files are
// extracted once into <driver cache>/trees/ (tar) and read from there. Throws
// driver_error: not a kernel tree, a version without a shim API level (the
// message lists the supported ones), an unknown driver name (lists the
// known ones), a missing driver file.
kernel_tree kernel_tree_open(const std::string& root, const std::string& driver);
// As kernel_tree_open, but returns the message instead of throwing ("" if
// the tree is usable): for the scenario loader's checks. driver "": only
// the tree itself (its Makefile and version) is checked.
std::string kernel_tree_problem(const std::string& root, const std::string& driver);

} // namespace khost
