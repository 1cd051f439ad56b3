// sim/cli/cmd_sweep.cc: fecsim sweep and fecsim collect.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <glib.h>
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

// ---------------------------------------------------------------- sweep

// fecsim sweep's options, as given.
struct sweep_options {
    scenario_options so;
    gchar** vary = nullptr;
    gint jobs = 0;
    gchar* out = nullptr;
    gchar* name = nullptr;
    gboolean emit = false, quiet = false, no_plot = false;
    std::vector<std::string> files;  // the scenario files
    ~sweep_options() { g_strfreev(vary); g_free(out); g_free(name); }
};

// What a sweep is once its input is checked.
struct sweep_def {
    resolved_scenario base;
    std::vector<vary_key> keys;
    std::vector<sweep_point> pts;
    std::string hash;  // 8 hex digits of the base scenario and the varied values
    std::string name;  // the directory is sweep-<name>
    std::string dir;   // absolute once the directory exists
};

// Parse the options and check those that need no scenario. False with *status.
static bool sweep_parse_options(int argc, char** argv, sweep_options* o, int* status)
{
    const std::vector<GOptionEntry> e = scenario_option_entries(&o->so, {
        {"vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->vary,
         "A key and its values (repeatable; the sweep is the cartesian product): "
         "group.key=v1,v2,... or group.key=lo..hi/step",
         "KEY=VALUES"},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs, "Points run at once (default: the number of cores)", "N"},
        {"out", 0, 0, G_OPTION_ARG_FILENAME, &o->out, "Results root (default ./results)", "DIR"},
        {"name", 0, 0, G_OPTION_ARG_STRING, &o->name,
         "Sweep directory name sweep-NAME (default: the varied keys and a hash of the sweep)", "NAME"},
        {"emit-jobs", 0, 0, G_OPTION_ARG_NONE, &o->emit,
         "Do not run: write jobs.txt (one fecsim run per line, for GNU parallel) and sweep.sbatch "
         "(a Slurm array job), then say how to run and collect them",
         nullptr},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Only errors and the final line", nullptr},
        {"no-plot", 0, 0, G_OPTION_ARG_NONE, &o->no_plot, "Do not draw the plots", nullptr},
    });
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
                       k_examples_sweep, e, argc, argv, &o->files, status))
        return false;
    *status = EXIT_BAD_INPUT;
    if (!o->vary || !*o->vary) {
        usage_error("sweep", "no --vary given");
        return false;
    }
    if (!jobs_option_ok(o->jobs))
        return false;
    if (o->name && !*o->name) {
        std::fprintf(stderr, "error: --name: empty\n");
        return false;
    }
    for (const char* p = o->name; p && *p; p++)
        if (!g_ascii_isalnum(*p) && *p != '.' && *p != '_' && *p != '-' && *p != '+') {
            std::fprintf(stderr, "error: --name '%s': use letters, digits, '.', '_', '+' and '-'\n", o->name);
            return false;
        }
    *status = EXIT_OK;
    return true;
}

// Load the base scenario and the --vary keys, and check that every point
// resolves, before anything runs or is written. EXIT_OK or EXIT_BAD_INPUT.
static int sweep_define(const sweep_options& o, sweep_def* d)
{
    const int status = load_scenario(o.files, o.so, &d->base);
    if (status != EXIT_OK)
        return status;
    units_context ctx;
    ctx.cpu_hz = d->base.cfg.cpu.clock_hz;
    for (gchar** v = o.vary; *v; v++) {
        vary_key k;
        std::string err;
        if (!vary_parse(*v, ctx, &k, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            return EXIT_BAD_INPUT;
        }
        for (const auto& x : d->keys)
            if (x.name == k.name) {
                std::fprintf(stderr, "error: --vary %s given twice\n", k.name.c_str());
                return EXIT_BAD_INPUT;
            }
        d->keys.push_back(k);
    }
    d->pts = sweep_points(d->keys);
    for (const auto& p : d->pts) {
        resolved_scenario r;
        if (load_scenario(o.files, o.so, &r, p.overrides, true) != EXIT_OK) {
            std::fprintf(stderr, "error: sweep point %s is not a valid scenario:\n", p.name.c_str());
            load_scenario(o.files, o.so, &r, p.overrides, false);
            return EXIT_BAD_INPUT;
        }
    }
    // Identity: the resolved base and the varied values.
    std::string ident = scenario_hash(d->base);
    for (const auto& k : d->keys) {
        ident += "\n" + k.name + "=";
        for (const auto& v : k.values)
            ident += v + ",";
    }
    gchar* h = g_compute_checksum_for_string(G_CHECKSUM_SHA256, ident.c_str(), -1);
    d->hash = std::string(h).substr(0, 8);
    g_free(h);
    if (o.name) {
        d->name = o.name;
    } else {
        for (const auto& k : d->keys)
            d->name += (d->name.empty() ? "" : "+") + k.name;
        d->name += "-" + d->hash;
    }
    d->dir = std::string(o.out ? o.out : "results") + "/" + d->base.cfg.scenario.id + "/sweep-" + d->name;
    return EXIT_OK;
}

// Create the sweep directory (or reuse it if it holds the same sweep) and
// write base.ini, plan.json and jobs.txt; d->dir becomes absolute.
static int sweep_write_dir(const cli& c, sweep_def* d)
{
    std::string err;
    if (g_file_test((d->dir + "/plan.json").c_str(), G_FILE_TEST_EXISTS)) {
        std::vector<std::pair<std::string, std::string>> plan;
        if (!json_flatten_file(d->dir + "/plan.json", &plan, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            return EXIT_BAD_INPUT;
        }
        std::string old;
        for (const auto& kv : plan)
            if (kv.first == "hash")
                old = kv.second;
        if (old != d->hash) {
            std::fprintf(stderr,
                         "error: %s holds a different sweep (other base scenario, options or values); "
                         "choose another --name or remove it\n",
                         d->dir.c_str());
            return EXIT_BAD_INPUT;
        }
    }
    if (!make_dirs(d->dir + "/logs", nullptr, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    d->dir = abs_path(d->dir);
    const std::string& dir = d->dir;
    const std::string plan = sweep_plan_json(d->name, d->hash, d->base.cfg.scenario.id, d->keys, d->pts);
    std::string jobs_txt;
    for (const auto& p : d->pts) {
        std::string line;
        for (const auto& a : point_argv(c.exe, dir, p))
            line += (line.empty() ? "" : " ") + quote(a);
        jobs_txt += line + "\n";
    }
    const std::string hdr = " fecsim sweep " + d->name + ": the base scenario of every point (resolved).\n Points: " +
                            std::to_string(d->pts.size()) + ", see plan.json; each runs base.ini with its -o values.";
    if (!write_file_atomic(dir + "/base.ini", scenario_dump(d->base, hdr), &err) ||
        !write_file_atomic(dir + "/plan.json", plan, &err) || !write_file_atomic(dir + "/jobs.txt", jobs_txt, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    return EXIT_OK;
}

// --emit-jobs: write sweep.sbatch and say how to run and collect the points.
static int sweep_emit_jobs(const sweep_def& d, bool quiet)
{
    const std::string& dir = d.dir;
    std::string sb = "#!/bin/sh\n"
                     "# Slurm array job for fecsim sweep " +
                     d.name +
                     ": task i runs line i of jobs.txt.\n"
                     "# Submit:  sbatch " +
                     quote(dir + "/sweep.sbatch") +
                     "\n"
                     "# Then:    fecsim collect " +
                     quote(dir) +
                     "\n"
                     "# Finished points are skipped, so the array can be resubmitted as it is.\n"
                     "#SBATCH --job-name=fecsim-" +
                     d.name +
                     "\n"
                     "#SBATCH --array=1-" +
                     std::to_string(d.pts.size()) +
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
    std::string err;
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
                     d.pts.size(), dir.c_str(), dir.c_str(), dir.c_str(), dir.c_str());
    return EXIT_OK;
}

// How the local run of a sweep went, in points.
struct sweep_tally {
    size_t done_before = 0;  // finished before this command
    size_t ran = 0;          // run now, failed ones included
    size_t failed = 0;
};

// Run the points that are not finished yet (after removing what killed runs
// left), o.jobs at a time. Returns 0, or (stopped by a signal) what
// job_pool::die_of_stop_signal() returns.
static int sweep_run_points(const cli& c, const sweep_options& o, const sweep_def& d, sweep_tally* t)
{
    const std::string& dir = d.dir;
    const auto& pts = d.pts;
    run_dir_clean_stale(dir);
    const size_t n_jobs = jobs_slots(o.jobs);
    std::vector<size_t> todo;
    std::vector<child_job> children;
    for (size_t i = 0; i < pts.size(); i++) {
        if (run_dir_complete(dir + "/" + pts[i].name)) {
            t->done_before++;
        } else {
            todo.push_back(i);
            children.push_back({point_argv(c.exe, dir, pts[i]), dir + "/logs/" + pts[i].name + ".log"});
        }
    }
    if (!o.quiet)
        std::fprintf(stderr, "fecsim sweep: %s\n  %zu points, %zu already finished, %zu to run, %zu at a time\n",
                     dir.c_str(), pts.size(), t->done_before, todo.size(), std::min(n_jobs, todo.size()));
    job_pool pool({SIGINT, SIGTERM});
    auto ended = [&](const child_end& e) {
        const sweep_point& p = pts[todo[e.job]];
        t->ran++;
        if (!(e.exited_zero() && run_dir_complete(dir + "/" + p.name))) {
            t->failed++;
            std::fprintf(stderr, "fecsim sweep: point %s failed (%s); its log, %s/logs/%s.log:\n%s", p.name.c_str(),
                         e.how().c_str(), dir.c_str(), p.name.c_str(), read_log(children[e.job].log).c_str());
        } else if (!o.quiet) {
            std::fprintf(stderr, "  [%zu/%zu] %s done in %.1f s\n", t->done_before + t->ran - t->failed, pts.size(),
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
    return 0;
}

// sweep_collect() and, unless no_plot or nothing finished, plot_dir(); a
// failed plot is reported ("fecsim <cmd>: plotting failed") but not an
// error. False (reported) when dir has no readable plan.
static bool collect_and_plot(const char* cmd, const std::string& dir, bool no_plot, size_t* finished,
                             std::vector<std::string>* missing)
{
    std::string err;
    if (!sweep_collect(dir, finished, missing, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return false;
    }
    if (!no_plot && *finished) {
        std::vector<std::string> written;
        if (!plot_dir(dir, &written, &err))
            std::fprintf(stderr, "fecsim %s: plotting failed: %s\n", cmd, err.c_str());
    }
    return true;
}

int cmd_sweep(const cli& c, int argc, char** argv)
{
    sweep_options o;
    sweep_def d;
    int status = EXIT_OK;
    if (!sweep_parse_options(argc, argv, &o, &status))
        return status;
    if ((status = sweep_define(o, &d)) != EXIT_OK || (status = sweep_write_dir(c, &d)) != EXIT_OK)
        return status;
    if (o.emit)
        return sweep_emit_jobs(d, o.quiet);
    sweep_tally t;
    if ((status = sweep_run_points(c, o, d, &t)) != 0)
        return status;
    size_t finished = 0;
    std::vector<std::string> missing;
    if (!collect_and_plot("sweep", d.dir, o.no_plot, &finished, &missing))
        return EXIT_RUN_FAILED;
    std::fprintf(stderr, "fecsim sweep: %zu points: %zu already finished, %zu run now, %zu failed; %s/sweep.csv\n",
                 d.pts.size(), t.done_before, t.ran - t.failed, t.failed, d.dir.c_str());
    std::printf("%s\n", d.dir.c_str());
    return t.failed ? EXIT_RUN_FAILED : EXIT_OK;
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
    if (args.empty())
        return usage_error("collect", "no sweep directory given");
    int rc = EXIT_OK;
    for (const auto& d : args) {
        size_t finished = 0;
        std::vector<std::string> missing;
        if (!collect_and_plot("collect", d, no_plot, &finished, &missing)) {
            rc = EXIT_BAD_INPUT;
            continue;
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
