// sim/results/run_dir.h: a run directory built atomically (results.h lists
// what it holds), and the file-system helpers of the writers.
//
// It is built in a hidden temporary directory next to its final place and
// renamed into place when complete: a killed run leaves either nothing visible
// or a complete directory. Temporary directories of dead processes (same host)
// are removed by the next run in the same place.
#pragma once
#include <string>
#include <vector>

namespace sim {

class run_dir {
public:
    run_dir() = default;
    ~run_dir();
    run_dir(const run_dir&) = delete;
    run_dir& operator=(const run_dir&) = delete;

    // Final place <root>/<scenario_id>/<run_id> (a suffix is added if taken).
    bool open_auto(const std::string& root, const std::string& scenario_id, const std::string& run_id,
                   std::string* err);
    // Final place exactly `dir` (must not exist).
    bool open_fixed(const std::string& dir, std::string* err);

    std::string tmp_path(const std::string& name) const { return m_tmp + "/" + name; }
    // Parent directories this run created (removed again if it fails).
    const std::vector<std::string>& created() const { return m_created; }
    bool write(const std::string& name, const std::string& content, std::string* err);
    // Rename into place. *already_done: --run-dir target appeared meanwhile
    // (another run finished it); ours is discarded.
    bool commit(std::string* final_path, bool* already_done, std::string* err);
    // Remove the temporary directory and any parents this run created.
    void discard();

private:
    bool make_tmp(const std::string& parent, const std::string& base, std::string* err);

    std::string m_tmp, m_parent, m_final, m_base;
    bool m_fixed = false, m_open = false;
    std::vector<std::string> m_created;  // parents we created, deepest last
};

// Remove the temporary directories that dead runs (this host) left in parent.
void run_dir_clean_stale(const std::string& parent);
// A directory holds a finished run (summary.json present).
bool run_dir_complete(const std::string& dir);
// SIGINT/SIGTERM/SIGHUP remove the open run directory's temporary files, then
// the process dies of the signal as usual.
void run_dir_install_signal_cleanup(const run_dir* d);
// handler for SIGINT, SIGTERM and SIGHUP (no flags, nothing masked).
void install_stop_handler(void (*handler)(int));
// mkdir -p; records the directories it created in *created (may be null).
bool make_dirs(const std::string& path, std::vector<std::string>* created, std::string* err);
bool write_file_atomic(const std::string& path, const std::string& content, std::string* err);

} // namespace sim
