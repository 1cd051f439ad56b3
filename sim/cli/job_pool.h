// sim/cli/job_pool.h: child processes of the commands that run many
// `fecsim run` at once (sweep, regress).
#pragma once
#include <sys/types.h>
#include <string>
#include <vector>

namespace sim {

// Starts a child process (argv[0] is a path) with stdin and stdout on
// /dev/null and stderr into log; SIGINT/SIGTERM back to default. Returns its
// pid (the child exits 127 if argv[0] cannot run).
pid_t spawn_child(const std::vector<std::string>& argv, const std::string& log);

} // namespace sim
