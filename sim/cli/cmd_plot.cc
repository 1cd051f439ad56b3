// sim/cli/cmd_plot.cc: fecsim plot.
#include <cstdio>
#include <glib.h>
#include "sim/cli/commands.h"
#include "sim/cli/job_pool.h"
#include "sim/results/plot.h"
#include "sim/results/results.h"

namespace sim {

int cmd_plot(const cli&, int argc, char** argv)
{
    gboolean quiet = false;
    gint jobs = 0;
    std::vector<GOptionEntry> e = {
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Do not list the files written", nullptr},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "gnuplot processes at once (default: the number of cores)", "N"},
    };
    std::vector<std::string> args;
    int status = EXIT_OK;
    if (!parse_command("plot", "DIR...",
                       "Draw PNG and SVG plots of a run or sweep directory into DIR/plots/, with the gnuplot\n"
                       "script of each next to it. A sweep gets loss, CPU and IRQ-rate curves (and TCP\n"
                       "goodput, ping RTT and TX ring use where it has them) against the first numeric varied\n"
                       "key (one curve per value of the other keys); a run gets its time\n"
                       "series, cycles-per-frame breakdown and CPU split. Only result files are read.",
                       "  fecsim plot results/imx6q-copybreak-stock-idle/sweep-l2-size\n", e, argc, argv, &args,
                       &status))
        return status;
    if (args.empty())
        return usage_error("plot", "no directory given");
    if (!jobs_option_ok(jobs))
        return EXIT_BAD_INPUT;
    int rc = EXIT_OK;
    for (const auto& d : args) {
        std::vector<std::string> written;
        std::string err;
        const bool is_dir = g_file_test(d.c_str(), G_FILE_TEST_IS_DIR);
        if (!plot_dir(d, jobs_slots(jobs), &written, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            rc = is_dir && (run_dir_complete(d) || g_file_test((d + "/plan.json").c_str(), G_FILE_TEST_EXISTS))
                     ? EXIT_RUN_FAILED
                     : EXIT_BAD_INPUT;
            continue;
        }
        if (!quiet)
            for (const auto& w : written)
                std::printf("%s\n", w.c_str());
    }
    return rc;
}

} // namespace sim
