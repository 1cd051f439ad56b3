// drivers/khost/data_dir.h: where fecsim's data lives: the driver sources
// (drivers/fec), the shim's headers (drivers/shim/simhost.h and include/),
// the scenarios and the regress baselines (results/baselines), laid out as
// in the source tree.
//
// The data directory is, in this order:
//  1. $FECSIM_DATADIR, when set and not empty (it must hold drivers/fec, or
//     the lookup fails naming it);
//  2. the source tree, when the running program lies in the build tree
//     (programs run before `make install`: sim/fecsim, the tests, benches);
//  3. the installed $(pkgdatadir) found relative to the running program: the
//     configured path from $(bindir) to $(pkgdatadir) (../share/fecsim by
//     default) applied to the program's directory, so that a moved or copied
//     install prefix still works;
//  4. the configured $(pkgdatadir) itself.
// Candidates 2-4 count only when they hold drivers/fec.
#pragma once
#include <stdexcept>
#include <string>

namespace khost {

// No candidate holds the data; the message names the places looked in.
struct data_dir_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The data directory (absolute, no trailing '/'). Throws data_dir_error.
std::string data_dir();

// The relative path from directory `from` to directory `to` (both absolute,
// normalised: no "." or ".." components): "../share/fecsim" for
// "/usr/bin" -> "/usr/share/fecsim"; "." when they are the same.
std::string relative_path(const std::string& from, const std::string& to);

} // namespace khost
