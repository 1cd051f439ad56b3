// sim/cli/job_pool.cc: child processes of sweep and regress.
#include "sim/cli/job_pool.h"
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <glib.h>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace sim {

namespace {

volatile sig_atomic_t g_stop_signal = 0;
void on_stop(int sig) { g_stop_signal = sig; }

struct running {
    pid_t pid;
    size_t job;
    std::chrono::steady_clock::time_point start;
};

} // namespace

pid_t spawn_child(const std::vector<std::string>& argv, const std::string& log)
{
    std::vector<char*> a;
    for (const auto& s : argv)
        a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        const int null = open("/dev/null", O_RDWR);
        const int lf = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
        }
        if (lf >= 0)
            dup2(lf, STDERR_FILENO);
        execv(a[0], a.data());
        std::fprintf(stderr, "cannot run %s: %s\n", a[0], std::strerror(errno));
        _exit(127);
    }
    return pid;
}

bool child_end::exited_zero() const { return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0; }

int child_end::exit_status() const { return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1; }

std::string child_end::how() const
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s %d", WIFEXITED(wait_status) ? "exit status" : "signal",
                  WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : WTERMSIG(wait_status));
    return buf;
}

job_pool::job_pool(const std::vector<int>& stop_signals)
{
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (int sig : stop_signals)
        sigaction(sig, &sa, nullptr);
}

int job_pool::run(const std::vector<child_job>& jobs, size_t slots,
                  const std::function<pool_next(const child_end&)>& ended,
                  const std::function<pool_next(int err)>& start_failed)
{
    std::vector<running> live;
    pool_next state = pool_next::go_on;
    auto move_to = [&](pool_next n) {
        if (n <= state)
            return;
        state = n;
        if (n == pool_next::stop_rest)
            for (const auto& r : live)
                kill(r.pid, SIGTERM);
        if (n == pool_next::interrupt)
            g_stop_signal = SIGTERM;
    };
    size_t next = 0;
    while ((next < jobs.size() || !live.empty()) && !g_stop_signal) {
        while (next < jobs.size() && live.size() < slots && state == pool_next::go_on) {
            const pid_t pid = spawn_child(jobs[next].argv, jobs[next].log);
            if (pid < 0) {
                move_to(std::max(start_failed(errno), pool_next::finish));
                break;
            }
            live.push_back({pid, next, std::chrono::steady_clock::now()});
            next++;
        }
        if (live.empty())
            break;
        int st = 0;
        const pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        auto it = std::find_if(live.begin(), live.end(), [&](const running& r) { return r.pid == pid; });
        if (it == live.end())
            continue;
        child_end e;
        e.job = it->job;
        e.wait_status = st;
        e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - it->start).count();
        live.erase(it);
        move_to(ended(e));
    }
    if (!g_stop_signal)
        return 0;
    for (const auto& r : live)
        kill(r.pid, SIGTERM);
    for (const auto& r : live)
        waitpid(r.pid, nullptr, 0);
    return g_stop_signal;
}

int job_pool::die_of_stop_signal()
{
    signal(g_stop_signal, SIG_DFL);
    raise(g_stop_signal);
    return 128 + g_stop_signal;
}

bool jobs_option_ok(int jobs)
{
    if (jobs >= 0 && jobs <= 1024)
        return true;
    std::fprintf(stderr, "error: -j %d: expected 1 .. 1024\n", jobs);
    return false;
}

size_t jobs_slots(int jobs) { return jobs > 0 ? (size_t)jobs : std::max(1u, std::thread::hardware_concurrency()); }

std::string read_log(const std::string& path)
{
    gchar* d = nullptr;
    gsize n = 0;
    std::string s;
    if (g_file_get_contents(path.c_str(), &d, &n, nullptr))
        s.assign(d, n);
    g_free(d);
    return s;
}

const char* const k_fuzz_warning_head = "fecsim run: patch ";

void pass_on_fuzz_warnings(const std::vector<child_job>& children, const char* cmd)
{
    const size_t head = std::strlen(k_fuzz_warning_head);
    std::set<std::string> seen;
    for (const auto& c : children) {
        std::istringstream log(read_log(c.log));
        for (std::string l; std::getline(log, l);)
            if (l.compare(0, head, k_fuzz_warning_head) == 0 && l.find(" with fuzz ") != std::string::npos &&
                seen.insert(l).second)
                std::fprintf(stderr, "fecsim %s: patch %s\n", cmd, l.c_str() + head);
    }
}

} // namespace sim
