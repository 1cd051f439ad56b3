// sim/results/run_dir.h: a run directory built atomically (results.h lists
// what it holds), and the file-system helpers of the writers.
//
// It is built in a hidden temporary directory next to its final place and
// renamed into place when complete: a killed run leaves either nothing visible
// or a complete directory. Temporary directories of dead processes (same host)
// are removed by the next run in the same place.
//
// A run with a fixed final place (open_fixed, fecsim run --run-dir) also holds
// the lock <parent>/.<name>.lock from open_fixed() until commit() or
// discard(), so that the same point started twice (two array tasks, a
// resubmitted job list) runs once: the second finds the lock of a live run
// and does not run. The lock is one line, "host=H pid=P pidstart=T since=S"
// (T: the process's start time in clock ticks after boot, /proc/P/stat; S:
// Unix seconds), made by link(2) of a fully written file, atomic also on NFS.
// Its owner touches it every k_lock_heartbeat_s seconds. It is stale, and the
// next run of the same place breaks it, when its owner is gone: on the same
// host, no process P started at T; on another host (whose processes cannot be
// seen), no heartbeat for k_lock_stale_s seconds by this host's clock. A run
// that breaks a stale lock also removes the temporary directories its owner
// left ("<parent>/.tmp-P@H-*", any host).
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

    // After open_fixed() failed: true when dir's lock is held by a live run
    // (then *err describes it, and nothing was created).
    bool busy() const { return m_busy; }
    // The lock file this run holds ("" when none).
    const std::string& lock_path() const { return m_lock; }

private:
    bool make_tmp(const std::string& parent, const std::string& base, std::string* err);

    std::string m_tmp, m_parent, m_final, m_base;
    bool m_fixed = false, m_open = false;
    std::vector<std::string> m_created;  // parents we created, deepest last
    std::string m_lock;                  // our lock file, or ""
    bool m_busy = false;
    struct heartbeat;
    heartbeat* m_beat = nullptr;  // touches m_lock while held
    bool lock(const std::string& parent, const std::string& base, std::string* err);
    void unlock();
};

// Seconds between the touches of a held lock; seconds without one after which
// a lock of another host counts as stale.
constexpr int k_lock_heartbeat_s = 60;
constexpr int k_lock_stale_s = 600;

// The lock of the run that writes exactly dir (see above).
struct run_lock_info {
    bool held = false;  // a lock file exists
    bool live = false;  // and its owner runs
    std::string path, host;
    long pid = 0;
    long long since = 0;    // Unix seconds
    double beat_age = 0;    // seconds since its last heartbeat
    // "host H pid P since YYYY-MM-DD HH:MM:SS UTC, last heartbeat N s ago"
    std::string describe() const;
};
run_lock_info run_dir_lock(const std::string& dir);

// A temporary run directory in parent ("<parent>/.tmp-P@H-*", any host) and
// whether its process still runs (this host: process P exists; another host:
// a live lock in parent names H and P).
struct run_dir_temporary {
    std::string path, host;
    long pid = 0;
    bool live = false;
};
std::vector<run_dir_temporary> run_dir_temporaries(const std::string& parent);

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
