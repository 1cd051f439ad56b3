// sim/cli/cmd_sweep.cc: fecsim sweep and fecsim collect.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include "sim/cli/commands.h"
#include "sim/cli/job_pool.h"
#include "sim/config/text.h"
#include "sim/results/plot.h"
#include "sim/results/results.h"
#include "sim/results/sweep.h"

namespace sim {

const char* const k_examples_sweep =
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=50ms --vary l2.size=256KiB,512KiB,1MiB --name l2-size\n"
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=20ms --vary "
    "l2.maint_line_cycles=40..120/20 --vary scenario.seed=1..3 -j 2\n"
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=20ms --vary stress.enabled=false,true --name stress "
    "--emit-jobs\n"
    "  fecsim collect results/imx6q-copybreak-stock-idle/sweep-stress\n";

// ---------------------------------------------------------------- jobs

static std::string quote(const std::string& s)
{
    gchar* q = g_shell_quote(s.c_str());
    std::string r = q;
    g_free(q);
    return r;
}

static std::vector<std::string> point_argv(const std::string& exe, const std::string& dir, const sweep_point& p)
{
    std::vector<std::string> a = {exe, "run", dir + "/base.ini"};
    for (const auto& o : p.overrides) {
        a.push_back("-o");
        a.push_back(o);
    }
    a.push_back("--run-dir");
    a.push_back(dir + "/" + p.name);
    a.push_back("--quiet");
    return a;
}

int cmd_sweep(const cli& c, int argc, char** argv)
{
    scenario_options so;
    gchar** vary = nullptr;
    gint jobs = 0;
    gchar* out = nullptr;
    gchar* name = nullptr;
    gboolean emit = false, quiet = false, no_plot = false;
    std::vector<GOptionEntry> e;
    scenario_option_entries(&so, &e);
    e.push_back({"vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &vary,
                 "A key and its values (repeatable; the sweep is the cartesian product): "
                 "group.key=v1,v2,... or group.key=lo..hi/step",
                 "KEY=VALUES"});
    e.push_back({"jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Points run at once (default: the number of cores)", "N"});
    e.push_back({"out", 0, 0, G_OPTION_ARG_FILENAME, &out, "Results root (default ./results)", "DIR"});
    e.push_back({"name", 0, 0, G_OPTION_ARG_STRING, &name,
                 "Sweep directory name sweep-NAME (default: the varied keys and a hash of the sweep)", "NAME"});
    e.push_back({"emit-jobs", 0, 0, G_OPTION_ARG_NONE, &emit,
                 "Do not run: write jobs.txt (one fecsim run per line, for GNU parallel) and sweep.sbatch "
                 "(a Slurm array job), then say how to run and collect them",
                 nullptr});
    e.push_back({"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Only errors and the final line", nullptr});
    e.push_back({"no-plot", 0, 0, G_OPTION_ARG_NONE, &no_plot, "Do not draw the plots", nullptr});
    std::vector<std::string> files;
    int status = EXIT_OK;
    if (!parse_command("sweep", "[SCENARIO...]",
                       "Run a scenario over the cartesian product of --vary values, each point as its own\n"
                       "fecsim run process, on the local cores. The sweep lives in\n"
                       "<out>/<scenario-id>/sweep-<name>/; running the same command again skips the points that\n"
                       "already finished (also after kill -9). At the end: sweep.csv, sweep.json, plots/.\n"
                       "With --emit-jobs, run the points elsewhere instead:\n"
                       "  parallel < SWEEPDIR/jobs.txt         (GNU parallel; add --sshlogin for other machines)\n"
                       "  sbatch SWEEPDIR/sweep.sbatch          (Slurm array job)\n"
                       "then 'fecsim collect SWEEPDIR'. Job lines use absolute paths: other machines need the\n"
                       "same paths (a shared file system).",
                       k_examples_sweep, e, argc, argv, &files, &status))
        return status;
    if (!vary || !*vary) {
        std::fprintf(stderr, "fecsim sweep: no --vary given\nTry 'fecsim sweep --help'.\n");
        return EXIT_BAD_INPUT;
    }
    if (!jobs_option_ok(jobs))
        return EXIT_BAD_INPUT;
    if (name && !*name) {
        std::fprintf(stderr, "error: --name: empty\n");
        return EXIT_BAD_INPUT;
    }
    for (const char* p = name; p && *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '.' && *p != '_' && *p != '-' && *p != '+') {
            std::fprintf(stderr, "error: --name '%s': use letters, digits, '.', '_', '+' and '-'\n", name);
            return EXIT_BAD_INPUT;
        }
    resolved_scenario base;
    if ((status = load_scenario(files, so, &base)) != EXIT_OK)
        return status;
    units_context ctx;
    ctx.cpu_hz = base.cfg.cpu.clock_hz;
    std::vector<vary_key> keys;
    for (gchar** v = vary; *v; v++) {
        vary_key k;
        std::string err;
        if (!vary_parse(*v, ctx, &k, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            return EXIT_BAD_INPUT;
        }
        for (const auto& o : keys)
            if (o.name == k.name) {
                std::fprintf(stderr, "error: --vary %s given twice\n", k.name.c_str());
                return EXIT_BAD_INPUT;
            }
        keys.push_back(k);
    }
    const auto pts = sweep_points(keys);
    // Every point must resolve before anything runs or is written.
    for (const auto& p : pts) {
        resolved_scenario r;
        if (load_scenario(files, so, &r, p.overrides, true) != EXIT_OK) {
            std::fprintf(stderr, "error: sweep point %s is not a valid scenario:\n", p.name.c_str());
            load_scenario(files, so, &r, p.overrides, false);
            return EXIT_BAD_INPUT;
        }
    }
    // Identity: the resolved base and the varied values.
    std::string ident = scenario_hash(base);
    for (const auto& k : keys) {
        ident += "\n" + k.name + "=";
        for (const auto& v : k.values)
            ident += v + ",";
    }
    gchar* h = g_compute_checksum_for_string(G_CHECKSUM_SHA256, ident.c_str(), -1);
    const std::string hash = std::string(h).substr(0, 8);
    g_free(h);
    std::string sname;
    if (name) {
        sname = name;
    } else {
        for (const auto& k : keys)
            sname += (sname.empty() ? "" : "+") + k.name;
        sname += "-" + hash;
    }
    const std::string root = out ? out : "results";
    std::string dir = root + "/" + base.cfg.scenario.id + "/sweep-" + sname;
    std::string err;
    if (g_file_test((dir + "/plan.json").c_str(), G_FILE_TEST_EXISTS)) {
        std::vector<std::pair<std::string, std::string>> plan;
        if (!json_flatten_file(dir + "/plan.json", &plan, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            return EXIT_BAD_INPUT;
        }
        std::string old;
        for (const auto& kv : plan)
            if (kv.first == "hash")
                old = kv.second;
        if (old != hash) {
            std::fprintf(stderr,
                         "error: %s holds a different sweep (other base scenario, options or values); "
                         "choose another --name or remove it\n",
                         dir.c_str());
            return EXIT_BAD_INPUT;
        }
    }
    if (!make_dirs(dir + "/logs", nullptr, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    dir = abs_path(dir);
    const std::string plan = sweep_plan_json(sname, hash, base.cfg.scenario.id, keys, pts);
    std::string jobs_txt;
    for (const auto& p : pts) {
        std::string line;
        for (const auto& a : point_argv(c.exe, dir, p))
            line += (line.empty() ? "" : " ") + quote(a);
        jobs_txt += line + "\n";
    }
    const std::string hdr = " fecsim sweep " + sname +
                            ": the base scenario of every point (resolved).\n Points: " + std::to_string(pts.size()) +
                            ", see plan.json; each runs base.ini with its -o values.";
    if (!write_file_atomic(dir + "/base.ini", scenario_dump(base, hdr), &err) ||
        !write_file_atomic(dir + "/plan.json", plan, &err) || !write_file_atomic(dir + "/jobs.txt", jobs_txt, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }

    if (emit) {
        std::string sb = "#!/bin/sh\n"
                         "# Slurm array job for fecsim sweep " +
                         sname +
                         ": task i runs line i of jobs.txt.\n"
                         "# Submit:  sbatch " +
                         quote(dir + "/sweep.sbatch") +
                         "\n"
                         "# Then:    fecsim collect " +
                         quote(dir) +
                         "\n"
                         "# Finished points are skipped, so the array can be resubmitted as it is.\n"
                         "#SBATCH --job-name=fecsim-" +
                         sname +
                         "\n"
                         "#SBATCH --array=1-" +
                         std::to_string(pts.size()) +
                         "\n"
                         "#SBATCH --ntasks=1\n"
                         "#SBATCH --cpus-per-task=1\n"
                         "#SBATCH --output=" +
                         dir +
                         "/logs/slurm-%A_%a.out\n"
                         "set -e\n"
                         "line=$(sed -n \"${SLURM_ARRAY_TASK_ID:?not in a Slurm array job}p\" " +
                         quote(dir + "/jobs.txt") +
                         ")\n"
                         "exec sh -c \"$line\"\n";
        if (!write_file_atomic(dir + "/sweep.sbatch", sb, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            return EXIT_RUN_FAILED;
        }
        std::printf("%s\n", dir.c_str());
        if (!quiet)
            std::fprintf(stderr,
                         "fecsim sweep: %zu points written to %s/jobs.txt; nothing was run. Run them with\n"
                         "  parallel < %s/jobs.txt\n"
                         "or\n"
                         "  sbatch %s/sweep.sbatch\n"
                         "then\n"
                         "  fecsim collect %s\n",
                         pts.size(), dir.c_str(), dir.c_str(), dir.c_str(), dir.c_str());
        return EXIT_OK;
    }

    // Run the points that are not finished yet (after removing what killed runs left).
    run_dir_clean_stale(dir);
    const size_t n_jobs = jobs_slots(jobs);
    std::vector<size_t> todo;
    std::vector<child_job> children;
    size_t done_before = 0;
    for (size_t i = 0; i < pts.size(); i++) {
        if (run_dir_complete(dir + "/" + pts[i].name)) {
            done_before++;
        } else {
            todo.push_back(i);
            children.push_back({point_argv(c.exe, dir, pts[i]), dir + "/logs/" + pts[i].name + ".log"});
        }
    }
    if (!quiet)
        std::fprintf(stderr, "fecsim sweep: %s\n  %zu points, %zu already finished, %zu to run, %zu at a time\n",
                     dir.c_str(), pts.size(), done_before, todo.size(), std::min(n_jobs, todo.size()));
    job_pool pool({SIGINT, SIGTERM});
    size_t ran = 0, failed = 0;
    auto ended = [&](const child_end& e) {
        const sweep_point& p = pts[todo[e.job]];
        ran++;
        if (!(e.exited_zero() && run_dir_complete(dir + "/" + p.name))) {
            failed++;
            std::fprintf(stderr, "fecsim sweep: point %s failed (%s); its log, %s/logs/%s.log:\n%s", p.name.c_str(),
                         e.how().c_str(), dir.c_str(), p.name.c_str(), read_log(children[e.job].log).c_str());
        } else if (!quiet) {
            std::fprintf(stderr, "  [%zu/%zu] %s done in %.1f s\n", done_before + ran - failed, pts.size(),
                         p.name.c_str(), e.seconds);
        }
        return pool_next::go_on;
    };
    auto start_failed = [](int err) {
        std::fprintf(stderr, "error: cannot start a process: %s\n", std::strerror(err));
        return pool_next::interrupt;
    };
    if (pool.run(children, n_jobs, ended, start_failed)) {
        std::fprintf(stderr, "fecsim sweep: interrupted; finished points are kept, run the same command to go on\n");
        return job_pool::die_of_stop_signal();
    }
    size_t finished = 0;
    std::vector<std::string> missing;
    if (!sweep_collect(dir, &finished, &missing, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    if (!no_plot && finished) {
        std::vector<std::string> written;
        if (!plot_dir(dir, &written, &err))
            std::fprintf(stderr, "fecsim sweep: plotting failed: %s\n", err.c_str());
    }
    std::fprintf(stderr, "fecsim sweep: %zu points: %zu already finished, %zu run now, %zu failed; %s/sweep.csv\n",
                 pts.size(), done_before, ran - failed, failed, dir.c_str());
    std::printf("%s\n", dir.c_str());
    return failed ? EXIT_RUN_FAILED : EXIT_OK;
}

// ---------------------------------------------------------------- collect

int cmd_collect(const cli&, int argc, char** argv)
{
    gboolean quiet = false, no_plot = false;
    std::vector<GOptionEntry> e = {
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Only errors", nullptr},
        {"no-plot", 0, 0, G_OPTION_ARG_NONE, &no_plot, "Do not draw the plots", nullptr},
    };
    std::vector<std::string> args;
    int status = EXIT_OK;
    if (!parse_command("collect", "SWEEPDIR...",
                       "Merge the finished points of a sweep directory into sweep.csv and sweep.json and draw\n"
                       "its plots: after running jobs.txt with GNU parallel or sweep.sbatch with Slurm, or to\n"
                       "look at a sweep that is still running. Missing points are listed; nothing is run.",
                       "  fecsim collect results/imx6q-copybreak-stock-idle/sweep-stress\n", e, argc, argv, &args,
                       &status))
        return status;
    if (args.empty()) {
        std::fprintf(stderr, "fecsim collect: no sweep directory given\nTry 'fecsim collect --help'.\n");
        return EXIT_BAD_INPUT;
    }
    int rc = EXIT_OK;
    for (const auto& d : args) {
        size_t finished = 0;
        std::vector<std::string> missing;
        std::string err;
        if (!sweep_collect(d, &finished, &missing, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            rc = EXIT_BAD_INPUT;
            continue;
        }
        if (!no_plot && finished) {
            std::vector<std::string> written;
            if (!plot_dir(d, &written, &err))
                std::fprintf(stderr, "fecsim collect: plotting failed: %s\n", err.c_str());
        }
        if (!quiet) {
            std::fprintf(stderr, "fecsim collect: %s: %zu of %zu points finished; %s/sweep.csv\n", d.c_str(), finished,
                         finished + missing.size(), d.c_str());
            if (!missing.empty()) {
                std::fprintf(stderr, "  missing:");
                for (size_t i = 0; i < missing.size() && i < 20; i++)
                    std::fprintf(stderr, " %s", missing[i].c_str());
                std::fprintf(stderr, "%s\n", missing.size() > 20 ? " ..." : "");
            }
        }
    }
    return rc;
}

} // namespace sim
