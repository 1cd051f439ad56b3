// tests/system/cli.h: helpers for the tests that drive the fecsim binary as a
// user would: run it, look at what it printed and wrote.
// The binary and the source tree come from the environment (tests/local.mk):
// FECSIM=<builddir>/sim/fecsim, FECSIM_SRCDIR=<srcdir>.
#pragma once
#include <map>
#include <string>
#include <sys/types.h>
#include <vector>

struct proc_result {
    int status = -1;  // exit status, or 128 + signal
    std::string out, err;
};

std::string fecsim_bin();
std::string fecsim_srcdir();
// fecsim ARGS in cwd (default: the current directory); stdin is /dev/null.
proc_result fecsim(const std::vector<std::string>& args, const std::string& cwd = "");
// /bin/sh -c CMD in cwd.
proc_result shell(const std::string& cmd, const std::string& cwd = "");
// fecsim ARGS in the background, in a process group of its own (kill(-pid, sig)).
pid_t fecsim_start(const std::vector<std::string>& args, const std::string& cwd = "");
int wait_exit(pid_t pid);  // exit status or 128 + signal

std::string tmp_dir();  // a fresh directory
void rm_rf(const std::string& path);
std::string read_text(const std::string& path);
bool exists(const std::string& path);
// Entries of a directory, sorted; hidden ones only when asked.
std::vector<std::string> entries(const std::string& dir, bool hidden = false);
// The one non-hidden subdirectory of dir (fails the test otherwise).
std::string only_subdir(const std::string& dir);
// stats.txt of a run directory as name -> value.
std::map<std::string, long long> stats_txt(const std::string& path);
