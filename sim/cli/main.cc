// sim/cli/main.cc: main() of the fecsim command line tool: command dispatch,
// top-level help, and the option handling the commands share.
#include <cstdio>
#include <cstdlib>
#include <clocale>
#include <cstring>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <systemc>
#include <unistd.h>
#include "sim/cli/commands.h"

// libsystemc's main() calls sc_main; fecsim has its own main(), so this is
// never reached.
extern "C" int sc_main(int, char**) { return 3; }

namespace sim {

const char* const k_examples_top =
    "  fecsim run\n"
    "  fecsim run scenarios/imx6q/copybreak-stock-stress.ini -o scenario.duration=100ms --json\n"
    "  fecsim run -o l2.size=512KiB -o scenario.duration=2ms --seed 7\n"
    "  fecsim check scenarios/imx6q/*.ini\n"
    "  fecsim list-params l2\n"
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=50ms --vary l2.size=256KiB,512KiB,1MiB --name l2-size\n"
    "  fecsim plot results/imx6q-copybreak-stock-idle/sweep-l2-size\n";

static void print_top_help(FILE* f)
{
    std::fprintf(f,
                 "Usage:\n"
                 "  fecsim COMMAND [OPTION...] [ARGUMENT...]\n"
                 "\n"
                 "Cycle-level simulator of the NXP i.MX6Q FEC/ENET Ethernet MAC with its Cortex-A9 L1,\n"
                 "PL310 L2 and DRAM memory system. Scenario files (.ini) say what to simulate; every run\n"
                 "leaves its resolved scenario, statistics and summary in results/<scenario-id>/<run-id>/.\n"
                 "\n"
                 "Commands:\n"
                 "  run [SCENARIO...]          simulate (the built-in default scenario if none is given)\n"
                 "  check SCENARIO...          validate scenario files without simulating\n"
                 "  sweep SCENARIO --vary K=V  run one scenario over a grid of parameter values, in parallel\n"
                 "  collect SWEEPDIR           merge the finished points of a sweep (GNU parallel, Slurm)\n"
                 "  plot DIR...                PNG and SVG plots of a run or a sweep directory\n"
                 "  report RUN_DIR --as FMT    a run's counters as ethtool -S, mpstat, top, sar -I, softnet_stat, nstat\n"
                 "  regress [SUITE...]         run a suite with a driver patch, compare with the baselines\n"
                 "  list-params [GROUP]        scenario groups and keys: type, unit, default, range\n"
                 "  help [COMMAND]             help of a command (same as fecsim COMMAND --help)\n"
                 "\n"
                 "Options:\n"
                 "  -h, --help                 show this help\n"
                 "  --version                  show the version and exit\n"
                 "  --list-params[=GROUP]      same as the list-params command\n"
                 "\n"
                 "Environment:\n"
                 "  FECSIM_DATADIR             the driver sources, the shim headers, the scenarios and the\n"
                 "                             regress baselines (default: share/fecsim of the install, found\n"
                 "                             from the program's directory; the source tree for a program\n"
                 "                             in the build tree)\n"
                 "  FECSIM_CACHE               driver builds (default: ~/.cache/fecsim/drivers)\n"
                 "\n"
                 "Exit status: 0 done; 1 a check failed (regress); 2 bad input (nothing written, the\n"
                 "message names FILE:LINE and the key); 3 the run could not complete.\n"
                 "\n"
                 "Examples (from the source tree):\n"
                 "%s"
                 "\n"
                 "Run 'fecsim COMMAND --help' for the options of a command; docs/user-guide.md walks\n"
                 "through a first session.\n",
                 k_examples_top);
}

} // namespace sim

using namespace sim;

int main(int argc, char** argv)
{
    // Before anything touches SystemC: its banner would go to stdout.
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    // The terminal's character set for GLib's messages; numbers stay in the C
    // locale (LC_NUMERIC is never set), so "0.25" parses everywhere.
    setlocale(LC_CTYPE, "");
    g_set_prgname("fecsim");
    cli c;
    for (int i = 0; i < argc; i++)
        c.argv.push_back(argv[i]);
    gchar* exe = g_file_read_link("/proc/self/exe", nullptr);
    c.exe = exe ? exe : argv[0];
    g_free(exe);

    if (argc < 2) {
        print_top_help(stderr);
        return EXIT_BAD_INPUT;
    }
    const std::string cmd = argv[1];
    // help, help --help and help help: this help.
    if (cmd == "-h" || cmd == "--help" || cmd == "-?" ||
        (cmd == "help" && (argc == 2 || !std::strcmp(argv[2], "--help") || !std::strcmp(argv[2], "-h") ||
                           !std::strcmp(argv[2], "-?") || !std::strcmp(argv[2], "help")))) {
        print_top_help(stdout);
        return EXIT_OK;
    }
    if (cmd == "--version" || cmd == "version") {
        std::fputs(version_text().c_str(), stdout);
        return EXIT_OK;
    }
    if (cmd.compare(0, 13, "--list-params") == 0 && (cmd.size() == 13 || cmd[13] == '=')) {
        // --list-params[=GROUP] is list-params [GROUP]
        std::vector<char*> a = {argv[1]};
        std::string group = cmd.size() > 14 ? cmd.substr(14) : "";
        if (!group.empty())
            a.push_back(group.data());
        for (int i = 2; i < argc; i++)
            a.push_back(argv[i]);
        return cmd_list_params(c, (int)a.size(), a.data());
    }
    int sub_argc = argc - 1;
    char** sub_argv = argv + 1;
    std::vector<char*> help_argv;
    std::string which = cmd;
    if (cmd == "help") {  // help COMMAND == COMMAND --help
        which = argv[2];
        help_argv = {argv[2], const_cast<char*>("--help")};
        sub_argc = 2;
        sub_argv = help_argv.data();
    }
    if (which == "run")
        return cmd_run(c, sub_argc, sub_argv);
    if (which == "check")
        return cmd_check(c, sub_argc, sub_argv);
    if (which == "sweep")
        return cmd_sweep(c, sub_argc, sub_argv);
    if (which == "collect")
        return cmd_collect(c, sub_argc, sub_argv);
    if (which == "plot")
        return cmd_plot(c, sub_argc, sub_argv);
    if (which == "report")
        return cmd_report(c, sub_argc, sub_argv);
    if (which == "regress")
        return cmd_regress(c, sub_argc, sub_argv);
    if (which == "list-params")
        return cmd_list_params(c, sub_argc, sub_argv);
    static const std::vector<std::string> cmds = {"run",     "check",       "sweep", "collect", "plot",
                                                  "report", "regress", "list-params", "help"};
    std::string m = "fecsim: unknown command '" + which + "'";
    const std::string guess = closest_name(which, cmds);
    if (!guess.empty())
        m += "; did you mean " + guess + "?";
    std::fprintf(stderr, "%s\nTry 'fecsim --help'.\n", m.c_str());
    return EXIT_BAD_INPUT;
}
