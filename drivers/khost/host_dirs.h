// drivers/khost/host_dirs.h: temporary directories on the host machine that
// a process owns by name ("<prefix><pid>@<host>-XXXXXX"), and their removal
// once that process is gone: the driver build directories and the run
// directories of sim/results use the same scheme.
#pragma once
#include <string>
#include <vector>

namespace khost {

// This host's name as it appears in such names ('/' replaced by '_').
std::string host_name();
// A process that exists and is not a zombie (a process killed with its
// parent may stay a zombie where nobody reaps orphans, e.g. in containers).
bool process_alive(long pid);
// The entries "<prefix><pid>@<this host>-*" of parent that are directories
// (not links to one) of processes that are no longer alive.
std::vector<std::string> stale_dirs(const std::string& parent, const std::string& prefix);
// Removes a directory tree, never following a symbolic link: the top path
// must be a directory itself (anything else is left alone); below it links
// are removed as links.
void rm_tree(const std::string& path);

} // namespace khost
