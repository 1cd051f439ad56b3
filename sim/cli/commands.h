// sim/cli/commands.h: the subcommands of fecsim and what they share.
//
// Exit status of every command: 0 = done, 1 = ran but a check failed (reserved
// for `regress`), 2 = bad input (nothing written; the message names FILE:LINE
// and the key, or the option), 3 = the run could not complete (model error
// during simulation, I/O error, a sweep point failed).
#pragma once
#include <glib.h>
#include <initializer_list>
#include <string>
#include <vector>
#include "sim/config/scenario.h"

namespace sim {

enum exit_status { EXIT_OK = 0, EXIT_CHECK_FAILED = 1, EXIT_BAD_INPUT = 2, EXIT_RUN_FAILED = 3 };

struct cli {
    std::vector<std::string> argv;  // the whole command line, for cmdline.txt
    std::string exe;                // absolute path of this fecsim binary
};

// Options shared by the commands that read a scenario.
struct scenario_options {
    gchar** set = nullptr;    // -o group.key=value
    gchar** patch = nullptr;  // --patch FILE
    gchar* seed = nullptr;    // --seed N
    // The option parser allocates the strings; they are freed with the options.
    scenario_options() = default;
    scenario_options(const scenario_options&) = delete;
    scenario_options& operator=(const scenario_options&) = delete;
    ~scenario_options() { g_strfreev(set); g_strfreev(patch); g_free(seed); }
};
// -o, --seed and --patch, followed by a command's own options (--help
// lists them in this order).
std::vector<GOptionEntry> scenario_option_entries(scenario_options* o, std::initializer_list<GOptionEntry> own);
// Read files (or builtin:default.ini when none), apply the options, then
// `extra` ("group.key=value", as -o, e.g. a sweep point), resolve.
// Prints every error to stderr unless quiet; returns EXIT_OK or EXIT_BAD_INPUT.
int load_scenario(const std::vector<std::string>& files, const scenario_options& o, resolved_scenario* r,
                  const std::vector<std::string>& extra = {}, bool quiet = false);

// Parse a command's options; on error print it and return false (*status = 2).
// Leaves the positional arguments in *args.
bool parse_command(const char* name, const char* params, const char* summary, const char* examples,
                   std::vector<GOptionEntry> entries, int argc, char** argv, std::vector<std::string>* args,
                   int* status);

// "fecsim <name>: <what>" and the hint to its --help on stderr; returns
// EXIT_BAD_INPUT.
int usage_error(const char* name, const std::string& what);

std::string version_text();  // fecsim version, git revision, library versions, data directory
// For a driver of a kernel tree: its tree, version and API level, and the
// sha256 of each of its files in the tree ("" for fecsim's own driver).
std::string tree_driver_text(const khost::driver_config& d);
// One line naming the driver that ran, for the summary: "fecsim's own
// (drivers/fec)" (the data directory's; driver.source as given when set) or
// "NAME from the kernel tree PATH (Linux X.Y.Z)" (driver.tree as given).
std::string driver_summary_text(const khost::driver_config& d);

int cmd_run(const cli& c, int argc, char** argv);
int cmd_check(const cli& c, int argc, char** argv);
int cmd_list_params(const cli& c, int argc, char** argv);
int cmd_sweep(const cli& c, int argc, char** argv);
int cmd_collect(const cli& c, int argc, char** argv);
int cmd_plot(const cli& c, int argc, char** argv);
int cmd_report(const cli& c, int argc, char** argv);
int cmd_regress(const cli& c, int argc, char** argv);

// Examples shown by --help; each must work as written from the source tree
// (tests/system/cli_help.cc runs them).
extern const char* const k_examples_top;
extern const char* const k_examples_run;
extern const char* const k_examples_sweep;
extern const char* const k_examples_regress;

} // namespace sim
