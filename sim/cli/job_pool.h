// sim/cli/job_pool.h: the child processes of the commands that run many
// `fecsim run` at once (sweep, regress): SystemC allows one simulation per
// process, so each run is a child, a bounded number at a time.
//
// Contract shared by the commands:
//   - jobs start in order, at most `slots` at a time; each child's stdin and
//     stdout are /dev/null, its stderr goes to the job's log file;
//   - the command hears of every child that ends (while the pool is not
//     stopped by a signal) and of every child that cannot start, and answers
//     with what the pool does next (pool_next);
//   - a stop signal (SIGINT, SIGTERM, ... as the command chooses) only sets a
//     flag: the pool then sends SIGTERM to the children still running, reaps
//     them without reporting them, and run() returns the signal; the command
//     cleans up, says what was kept, and dies of the signal
//     (die_of_stop_signal).
// One pool per process: the stop flag is process-wide.
#pragma once
#include <sys/types.h>
#include <functional>
#include <string>
#include <vector>

namespace sim {

// Starts a child process (argv[0] is a path) with stdin and stdout on
// /dev/null and stderr into log; SIGINT/SIGTERM back to default. Returns its
// pid (the child exits 127 if argv[0] cannot run), or -1 with errno.
pid_t spawn_child(const std::vector<std::string>& argv, const std::string& log);

struct child_job {
    std::vector<std::string> argv;  // argv[0]: a path
    std::string log;                // the child's stderr
};

// How a child ended.
struct child_end {
    size_t job = 0;       // index into run()'s jobs
    int wait_status = 0;  // as waitpid() gives it
    double seconds = 0;   // wall-clock time from its start to its end
    bool exited_zero() const;
    // Its exit status, or -1 if a signal ended it.
    int exit_status() const;
    // "exit status N" or "signal N".
    std::string how() const;
};

// What the pool does next. The pool only ever moves down this list: an
// answer above the current state changes nothing.
enum class pool_next {
    go_on,      // start the next jobs as slots free up
    finish,     // start no more jobs; the running ones end as they do (still reported)
    stop_rest,  // start no more jobs; SIGTERM the running ones (still reported when they end)
    interrupt,  // as if SIGTERM had arrived: see run()
};

class job_pool {
public:
    // From here on, each of stop_signals only records itself for run() (no
    // SA_RESTART: a blocked wait returns). The handlers stay installed for
    // the rest of the process.
    explicit job_pool(const std::vector<int>& stop_signals);

    // Runs jobs until all have ended or the pool is stopped. `ended` hears
    // of each child that ends; `start_failed` of a job that could not start
    // (with errno), after which no job starts (an answer of go_on counts as
    // finish). Returns the stop signal, or 0 when every started child has
    // ended and been reported. With a signal, the children still running got
    // SIGTERM and have been reaped, and are not reported.
    int run(const std::vector<child_job>& jobs, size_t slots, const std::function<pool_next(const child_end&)>& ended,
            const std::function<pool_next(int err)>& start_failed);

    // Dies of the last stop signal recorded, as if it had not been caught;
    // returns 128 + that signal should the process survive it.
    static int die_of_stop_signal();
};

// -j N: 1 .. 1024 given, 0 not given. Prints the error and returns false
// when out of range.
bool jobs_option_ok(int jobs);
// Children run at once for -j N: N, or the number of cores when 0.
size_t jobs_slots(int jobs);

// The text of a child's log ("" if it cannot be read).
std::string read_log(const std::string& path);
// How `fecsim run` starts its warning of a patch hunk applied with fuzz
// ("fecsim run: patch P: Hunk #1 ... with fuzz 2: ...").
extern const char* const k_fuzz_warning_head;
// The `fecsim run` children's fuzz warnings, each distinct one once on
// stderr as "fecsim <cmd>: patch ...".
void pass_on_fuzz_warnings(const std::vector<child_job>& children, const char* cmd);

} // namespace sim
