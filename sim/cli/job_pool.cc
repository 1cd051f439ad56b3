// sim/cli/job_pool.cc: child processes of sweep and regress.
#include "sim/cli/job_pool.h"
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sim {

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

} // namespace sim
