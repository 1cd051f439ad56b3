// sim/cli/cmd_report.cc: fecsim report.
#include <cstdio>
#include <glib.h>
#include "sim/cli/commands.h"
#include "sim/results/report.h"
#include "sim/results/run_dir.h"

namespace sim {

int cmd_report(const cli&, int argc, char** argv)
{
    gchar* as = nullptr;
    std::vector<GOptionEntry> e = {
        {"as", 0, 0, G_OPTION_ARG_STRING, &as, "Format: ethtool, mpstat, top, sar, softnet or nstat", "FORMAT"},
    };
    std::vector<std::string> args;
    int status = EXIT_OK;
    const bool parsed =
        parse_command("report", "RUN_DIR --as FORMAT",
                      "Print what a finished run measured in the format of a Linux tool, to put beside the\n"
                      "board's output (diff, paste): ethtool (ethtool -S eth0), mpstat (mpstat -P ALL, as the\n"
                      "kernel books the time), top (top -b: each task's %CPU),\n"
                      "sar (sar -I ALL), softnet (/proc/net/softnet_stat), nstat (nstat -az). The numbers\n"
                      "are the run's stats.json counters over the measured time (after the warm-up).",
                      "  fecsim run -o scenario.duration=20ms --quiet --run-dir my-run\n"
                      "  fecsim report my-run --as mpstat\n"
                      "  fecsim report my-run --as ethtool\n", e, argc, argv, &args, &status);
    const std::string format = as ? as : "";
    g_free(as);
    if (!parsed)
        return status;
    if (args.size() != 1)
        return usage_error("report", args.empty() ? "no run directory given" : "give one run directory");
    if (format.empty())
        return usage_error("report", "--as FORMAT is needed (ethtool, mpstat, top, sar, softnet or nstat)");
    std::string text, err;
    if (!report_text(args[0], format, &text, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_BAD_INPUT;
    }
    std::fputs(text.c_str(), stdout);
    return std::fflush(stdout) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
}

} // namespace sim
