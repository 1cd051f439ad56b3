// sim/cli/cmd_sweep.cc: fecsim sweep and fecsim collect.
#include <map>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <glib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "drivers/khost/data_dir.h"
#include "drivers/khost/driver_build.h"
#include "drivers/khost/host_dirs.h"
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
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=20ms --vary stress.enabled=false,true --name stress\n"
    "  fecsim sweep scenarios/tx-ring/udp-tx.ini --vary scenario.soc=imx6q,imx6ul,imx8mm "
    "--vary driver.defines=TX_RING_SIZE=1024,TX_RING_SIZE=512\n"
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=20ms --vary stress.enabled=false,true --name stress "
    "--emit-jobs --missing --partition short\n"
    "  fecsim collect results/imx6q-copybreak-stock-idle/sweep-stress\n";

// ---------------------------------------------------------------- jobs

static std::string quote(const std::string& s)
{
    gchar* q = g_shell_quote(s.c_str());
    std::string r = q;
    g_free(q);
    return r;
}

// The SoC profile a point selects (--vary scenario.soc), "" if none.
static std::string point_soc(const sweep_point& p)
{
    static const std::string key = "scenario.soc=";
    std::string soc;
    for (const auto& o : p.overrides)
        if (o.rfind(key, 0) == 0)
            soc = o.substr(key.size());
    return soc;
}

// The resolved base scenario a point runs: base.ini, or base-<soc>.ini when
// it selects a SoC profile (a profile changes the keys the base resolves).
static std::string point_base(const sweep_point& p)
{
    const std::string soc = point_soc(p);
    return soc.empty() ? "base.ini" : "base-" + soc + ".ini";
}

static std::vector<std::string> point_argv(const std::string& exe, const std::string& dir, const sweep_point& p)
{
    std::vector<std::string> a = {exe, "run", dir + "/" + point_base(p)};
    for (const auto& o : p.overrides) {
        a.push_back("-o");
        a.push_back(o);
    }
    a.push_back("--run-dir");
    a.push_back(dir + "/" + p.name);
    a.push_back("--quiet");
    return a;
}

// The data directory of a sweep: FECSIM_DATADIR of every point.
static std::string sweep_data_dir(const std::string& dir) { return dir + "/data"; }

// One line of jobs.txt: point p's fecsim run with the sweep's data directory.
static std::string job_line(const std::string& exe, const std::string& dir, const sweep_point& p)
{
    std::string line = "FECSIM_DATADIR=" + quote(sweep_data_dir(dir));
    for (const auto& a : point_argv(exe, dir, p))
        line += " " + quote(a);
    return line;
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
    // --emit-jobs / --slurm
    gboolean slurm = false, missing = false, no_calibrate = false, no_collect_job = false;
    gchar* fecsim = nullptr;  // the program the jobs run (default: this one)
    gint array_max = 1000, throttle = 0;
    gchar *time = nullptr, *mem = nullptr, *partition = nullptr, *account = nullptr, *qos = nullptr;
    gdouble time_margin = 3;
    gchar** sbatch_opts = nullptr;
    std::vector<std::string> files;  // the scenario files
    ~sweep_options()
    {
        g_strfreev(vary);
        g_free(out);
        g_free(name);
        g_free(fecsim);
        g_free(time);
        g_free(mem);
        g_free(partition);
        g_free(account);
        g_free(qos);
        g_strfreev(sbatch_opts);
    }
};

// What a sweep is once its input is checked.
struct sweep_def {
    resolved_scenario base;
    std::map<std::string, resolved_scenario> soc_bases;  // --vary scenario.soc: the base of each profile
    std::vector<vary_key> keys;
    std::vector<sweep_point> pts;
    std::string hash;  // 8 hex digits of the base scenario and the varied values
    std::string name;  // the directory is sweep-<name>
    std::string dir;   // absolute once the directory exists
    std::vector<double> sim_s;  // each point's simulated time, warm-up included (s)
    std::vector<double> measured_s;  // each point's scenario.duration (s)
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
        {"slurm", 0, 0, G_OPTION_ARG_NONE, &o->slurm,
         "As --emit-jobs, then submit the array jobs and the collect job with sbatch (SWEEPDIR/submit.sh) "
         "and print their job ids",
         nullptr},
        {"missing", 0, 0, G_OPTION_ARG_NONE, &o->missing,
         "With --emit-jobs or --slurm: the arrays hold only the points without a result that are not "
         "running (failed, cancelled, never run)",
         nullptr},
        {"fecsim", 0, 0, G_OPTION_ARG_STRING, &o->fecsim,
         "The fecsim the jobs run: a path, or a name looked up in PATH on the node (default: this "
         "program's absolute path)",
         "PROGRAM"},
        {"array-max", 0, 0, G_OPTION_ARG_INT, &o->array_max,
         "Tasks per Slurm array job (default 1000; at most the site's MaxArraySize): larger sweeps are "
         "submitted as several array jobs",
         "N"},
        {"throttle", 0, 0, G_OPTION_ARG_INT, &o->throttle,
         "Tasks of an array job running at once (sbatch --array=...%N; default 0: no limit)", "N"},
        {"time", 0, 0, G_OPTION_ARG_STRING, &o->time,
         "Time limit of each task, in sbatch's format (MM, HH:MM:SS, D-HH:MM:SS; default: estimated from "
         "the points' simulated time and a calibration run)",
         "TIME"},
        {"time-margin", 0, 0, G_OPTION_ARG_DOUBLE, &o->time_margin,
         "Factor on the estimated time per point (default 3; 1 minute is added after it)", "X"},
        {"mem", 0, 0, G_OPTION_ARG_STRING, &o->mem,
         "Memory per task, in sbatch's format (e.g. 512M, 2G; default: 1.5 x the calibration run's peak "
         "RSS + 64M)",
         "SIZE"},
        {"no-calibrate", 0, 0, G_OPTION_ARG_NONE, &o->no_calibrate,
         "Do not run the calibration points; estimate with the conservative figures (60 s + 100 s per "
         "simulated second, 1 GiB)",
         nullptr},
        {"partition", 0, 0, G_OPTION_ARG_STRING, &o->partition, "sbatch --partition of the jobs", "NAME"},
        {"account", 0, 0, G_OPTION_ARG_STRING, &o->account, "sbatch --account of the jobs", "NAME"},
        {"qos", 0, 0, G_OPTION_ARG_STRING, &o->qos, "sbatch --qos of the jobs", "NAME"},
        {"sbatch-option", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sbatch_opts,
         "Another #SBATCH line for the jobs, e.g. --sbatch-option=--constraint=avx2 (repeatable)", "OPTION"},
        {"no-collect-job", 0, 0, G_OPTION_ARG_NONE, &o->no_collect_job,
         "Do not submit the collect job that runs after the arrays (afterany)", nullptr},
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
                       "  sh SWEEPDIR/submit.sh                 (Slurm: array jobs of at most --array-max tasks,\n"
                       "                                        then a collect job; --slurm submits at once)\n"
                       "then 'fecsim collect SWEEPDIR' (exit 0 once every point has finished). The points\n"
                       "are built from the sweep's own copy of the data (SWEEPDIR/data); the nodes need the\n"
                       "sweep directory at the same path (a shared file system), fecsim, cc and patch, and a\n"
                       "writable FECSIM_CACHE. --emit-jobs --missing: only the points without a result.",
                       k_examples_sweep, e, argc, argv, &o->files, status))
        return false;
    *status = EXIT_BAD_INPUT;
    if (!o->vary || !*o->vary) {
        usage_error("sweep", "no --vary given");
        return false;
    }
    if (!jobs_option_ok(o->jobs))
        return false;
    if (o->slurm)
        o->emit = true;
    const bool slurm_opts = o->missing || o->fecsim || o->time || o->mem || o->partition || o->account || o->qos ||
                            o->sbatch_opts || o->no_calibrate || o->no_collect_job;
    if (!o->emit && slurm_opts) {
        usage_error("sweep", "--missing, --fecsim, --time, --mem, --partition, --account, --qos, --sbatch-option, "
                             "--no-calibrate and --no-collect-job go with --emit-jobs or --slurm");
        return false;
    }
    if (o->array_max < 1 || o->array_max > 1000000) {
        std::fprintf(stderr, "error: --array-max %d: use 1 .. 1000000 (at most the site's MaxArraySize)\n",
                     o->array_max);
        return false;
    }
    if (o->throttle < 0) {
        std::fprintf(stderr, "error: --throttle %d: use 0 (no limit) or more\n", o->throttle);
        return false;
    }
    if (!(o->time_margin >= 1 && o->time_margin <= 1000)) {
        std::fprintf(stderr, "error: --time-margin %g: use 1 .. 1000\n", o->time_margin);
        return false;
    }
    if (o->time && !g_regex_match_simple("^([0-9]+-)?[0-9]+(:[0-9]+){0,2}$", o->time, G_REGEX_DEFAULT, G_REGEX_MATCH_DEFAULT)) {
        std::fprintf(stderr, "error: --time '%s': use sbatch's format: MM, MM:SS, HH:MM:SS, D-HH or D-HH:MM:SS\n",
                     o->time);
        return false;
    }
    if (o->mem && !g_regex_match_simple("^[1-9][0-9]*[KMGT]?$", o->mem, G_REGEX_DEFAULT, G_REGEX_MATCH_DEFAULT)) {
        std::fprintf(stderr, "error: --mem '%s': use sbatch's format: a number of MiB, or with K, M, G or T\n", o->mem);
        return false;
    }
    for (gchar* const* n : {&o->partition, &o->account, &o->qos, &o->fecsim})
        if (*n && (!**n || std::strpbrk(*n, "\n\r"))) {
            std::fprintf(stderr, "error: --partition, --account, --qos or --fecsim: empty or with a line break\n");
            return false;
        }
    for (gchar** so = o->sbatch_opts; so && *so; so++)
        if ((*so)[0] != '-' || std::strpbrk(*so, "\n\r")) {
            std::fprintf(stderr, "error: --sbatch-option '%s': an sbatch option on one line, e.g. --constraint=avx2\n",
                         *so);
            return false;
        }
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
        d->measured_s.push_back((double)r.cfg.scenario.duration_ps * 1e-12);
        d->sim_s.push_back((double)(r.cfg.scenario.duration_ps + r.cfg.scenario.warmup_ps) * 1e-12);
    }
    for (const auto& p : d->pts) {
        const std::string soc = point_soc(p);
        if (soc.empty() || d->soc_bases.count(soc))
            continue;
        if (load_scenario(o.files, o.so, &d->soc_bases[soc], {"scenario.soc=" + soc}, true) != EXIT_OK)
            return load_scenario(o.files, o.so, &d->soc_bases[soc], {"scenario.soc=" + soc}, false);
    }
    // Identity: the resolved bases and the varied values.
    std::string ident = scenario_hash(d->base);
    for (const auto& b : d->soc_bases)
        ident += "\n" + b.first + ":" + scenario_hash(b.second);
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

// ---------------------------------------------------------------- data

// What of the data directory a point is built from, copied into <sweep>/data:
// the driver and its patches, the shim, the SoC profiles (device trees).
static const char* const k_data_parts[] = {"drivers/fec", "drivers/shim", "scenarios/profiles"};

static bool data_file_wanted(const std::string& n)
{
    static const char* const ext[] = {".c", ".h", ".def", ".md", ".patch", ".list", ".ini", ".dts"};
    for (const char* e : ext) {
        const size_t l = std::strlen(e);
        if (n.size() > l && n.compare(n.size() - l, l, e) == 0)
            return true;
    }
    return false;
}

// Copies the wanted files of directory from into to, recursively.
static bool copy_data_tree(const std::string& from, const std::string& to, std::string* err)
{
    if (!make_dirs(to, nullptr, err))
        return false;
    DIR* dd = opendir(from.c_str());
    if (!dd) {
        *err = "cannot read " + from + ": " + std::strerror(errno);
        return false;
    }
    std::vector<std::string> names;
    while (dirent* e = readdir(dd))
        if (e->d_name[0] != '.')
            names.push_back(e->d_name);
    closedir(dd);
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
        struct stat st;
        const std::string f = from + "/" + n;
        if (stat(f.c_str(), &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (!copy_data_tree(f, to + "/" + n, err))
                return false;
        } else if (S_ISREG(st.st_mode) && data_file_wanted(n)) {
            gchar* data = nullptr;
            gsize len = 0;
            GError* e = nullptr;
            if (!g_file_get_contents(f.c_str(), &data, &len, &e) ||
                !g_file_set_contents((to + "/" + n).c_str(), data, (gssize)len, &e)) {
                *err = e->message;
                g_error_free(e);
                g_free(data);
                return false;
            }
            g_free(data);
        }
    }
    return true;
}

// <sweep>/data: made once, from this program's data directory, in a
// temporary directory renamed into place; kept as it is afterwards, so that
// every point of the sweep is built from the same sources.
static int sweep_copy_data(const std::string& dir)
{
    const std::string final_dir = sweep_data_dir(dir);
    if (g_file_test((final_dir + "/drivers/fec").c_str(), G_FILE_TEST_IS_DIR))
        return EXIT_OK;
    std::string src, err;
    try {
        src = khost::data_dir();
    } catch (const khost::data_dir_error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return EXIT_RUN_FAILED;
    }
    // Named like a run's temporary directory: the next run here removes it should we die.
    const std::string tmp = dir + "/.tmp-" + std::to_string(getpid()) + "@" + khost::host_name() + "-data";
    khost::rm_tree(tmp);
    bool ok = true;
    for (const char* part : k_data_parts)
        if (g_file_test((src + "/" + part).c_str(), G_FILE_TEST_IS_DIR))
            ok = ok && copy_data_tree(src + "/" + part, tmp + "/" + part, &err);
    if (ok && renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, final_dir.c_str(), RENAME_NOREPLACE) != 0 &&
        errno != EEXIST && errno != ENOTEMPTY) {
        err = "cannot rename " + tmp + " to " + final_dir + ": " + std::strerror(errno);
        ok = false;
    }
    khost::rm_tree(tmp);  // left only when another sweep command made data/ first
    if (!ok) {
        std::fprintf(stderr, "error: copying fecsim's data into the sweep: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    return EXIT_OK;
}

// Create the sweep directory (or reuse it if it holds the same sweep) and
// write base.ini, plan.json, points.txt, jobs.txt and data/; d->dir becomes
// absolute. exe: the program of the job lines.
static int sweep_write_dir(const std::string& exe, sweep_def* d)
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
    if (const int st = sweep_copy_data(dir))
        return st;
    std::string jobs_txt, points_txt;
    for (const auto& p : d->pts) {
        jobs_txt += job_line(exe, dir, p) + "\n";
        points_txt += p.name + "\n";
    }
    const std::string hdr = " fecsim sweep " + d->name + ": the base scenario of every point (resolved).\n Points: " +
                            std::to_string(d->pts.size()) + ", see plan.json; each runs base.ini with its -o values.";
    for (const auto& b : d->soc_bases)
        if (!write_file_atomic(dir + "/base-" + b.first + ".ini",
                               scenario_dump(b.second, hdr + "\n The base of the points with scenario.soc=" +
                                                            b.first + "."),
                               &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            return EXIT_RUN_FAILED;
        }
    if (!write_file_atomic(dir + "/base.ini", scenario_dump(d->base, hdr), &err) ||
        !write_file_atomic(dir + "/plan.json", plan, &err) || !write_file_atomic(dir + "/jobs.txt", jobs_txt, &err) ||
        !write_file_atomic(dir + "/points.txt", points_txt, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    return EXIT_OK;
}

// ---------------------------------------------------------------- Slurm

// What a task needs, measured on point 0 before the jobs are written
// (sweep_calibrate) or the conservative figures of --no-calibrate.
struct task_cost {
    bool measured = false;
    double cold_s = 60;      // wall s the first run on a node takes more (the driver build)
    double fixed_s = 0;      // wall s of a run besides its simulated time (start, elaboration)
    double per_sim_s = 100;  // wall s per simulated s (warm-up included)
    double rss = 1024.0 * 1024 * 1024;  // peak RSS (bytes) of a run of rss_sim_s simulated s
    double rss_sim_s = 0;
    double rss_per_sim_s = 0;  // bytes more per simulated s beyond rss_sim_s
};

// The simulated time of the calibration runs (s): short, and far enough apart
// that the difference of their wall times is the simulation's own speed.
constexpr double k_cal_short_s = 1e-3, k_cal_long_s = 100e-3;

// One calibration run of point 0 with scenario.duration=dur_s in cal/<tag>:
// wall seconds and peak RSS in bytes (the process and its children: cc).
static bool calibration_run(const cli& c, const sweep_def& d, const std::string& cal, const char* tag, double dur_s,
                            double* wall, double* rss, std::string* err)
{
    std::vector<std::string> argv = point_argv(c.exe, d.dir, d.pts[0]);
    argv.erase(argv.end() - 3, argv.end());  // --run-dir DIR --quiet
    char dur[64];
    std::snprintf(dur, sizeof dur, "scenario.duration=%gms", dur_s * 1e3);
    for (const std::string& a : {std::string("-o"), std::string(dur), std::string("--run-dir"), cal + "/" + tag,
                                 std::string("--quiet")})
        argv.push_back(a);
    const std::string log = cal + "/" + tag + ".log";
    const auto t0 = g_get_monotonic_time();
    const pid_t pid = spawn_child(argv, log);
    if (pid < 0) {
        *err = std::string("cannot start ") + c.exe + ": " + std::strerror(errno);
        return false;
    }
    int st = 0;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {
    }
    *wall = (double)(g_get_monotonic_time() - t0) * 1e-6;
    *rss = (double)ru.ru_maxrss * 1024;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        *err = "the calibration run of point " + d.pts[0].name + " with " + dur + " failed; its log:\n" + read_log(log);
        return false;
    }
    return true;
}

// Three runs of point 0 (k_cal_short_s twice, then k_cal_long_s): the first
// pays the driver build (cold_s), the other two give the speed.
static bool sweep_calibrate(const cli& c, const sweep_def& d, task_cost* tc, std::string* err)
{
    // Named like a run's temporary directory: the next run here removes it should we die.
    const std::string cal = d.dir + "/.tmp-" + std::to_string(getpid()) + "@" + khost::host_name() + "-calibrate";
    khost::rm_tree(cal);
    if (!make_dirs(cal, nullptr, err))
        return false;
    double w[3] = {0, 0, 0}, m[3] = {0, 0, 0};
    const bool ok = calibration_run(c, d, cal, "cold", k_cal_short_s, &w[0], &m[0], err) &&
                    calibration_run(c, d, cal, "short", k_cal_short_s, &w[1], &m[1], err) &&
                    calibration_run(c, d, cal, "long", k_cal_long_s, &w[2], &m[2], err);
    khost::rm_tree(cal);
    if (!ok)
        return false;
    const double warm = d.sim_s[0] - d.measured_s[0];  // the warm-up, the same in all three
    tc->measured = true;
    tc->per_sim_s = (w[2] - w[1]) / (k_cal_long_s - k_cal_short_s);
    if (!(tc->per_sim_s > 0))  // too fast to tell apart: all of the long run's time counts as simulation
        tc->per_sim_s = w[2] / (k_cal_long_s + warm);
    tc->fixed_s = std::max(0.0, w[1] - tc->per_sim_s * (k_cal_short_s + warm));
    tc->cold_s = std::max(0.0, w[0] - w[1]);
    tc->rss = std::max({m[0], m[1], m[2]});
    tc->rss_sim_s = k_cal_long_s + warm;
    tc->rss_per_sim_s = std::max(0.0, (m[2] - m[1]) / (k_cal_long_s - k_cal_short_s));
    return true;
}

// Estimated wall seconds of a point of sim_s simulated seconds on a node
// like this machine, first run there included.
static double task_seconds(const task_cost& tc, double sim_s) { return tc.cold_s + tc.fixed_s + tc.per_sim_s * sim_s; }

// sbatch --time for an estimate: margin x est + 1 min, in whole minutes.
static std::string slurm_time(double est_s, double margin)
{
    const long long min = (long long)std::ceil((est_s * margin + 60) / 60);
    char b[64];
    if (min >= 24 * 60)
        std::snprintf(b, sizeof b, "%lld-%02lld:%02lld:00", min / 1440, min % 1440 / 60, min % 60);
    else
        std::snprintf(b, sizeof b, "%02lld:%02lld:00", min / 60, min % 60);
    return b;
}

// sbatch --mem for the largest point: 1.5 x its peak RSS + 64 MiB, in MiB
// rounded up to 64.
static std::string slurm_mem(const task_cost& tc, double sim_s)
{
    const double rss = tc.rss + tc.rss_per_sim_s * std::max(0.0, sim_s - tc.rss_sim_s);
    const double mib = std::ceil((rss * 1.5 / (1024.0 * 1024) + 64) / 64) * 64;
    return std::to_string((long long)mib) + "M";
}

// "0-5,7,9-12" of sorted task ids.
static std::string array_spec(const std::vector<size_t>& ids)
{
    std::string r;
    for (size_t i = 0; i < ids.size();) {
        size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            j++;
        r += (r.empty() ? "" : ",") + std::to_string(ids[i]) + (j > i ? "-" + std::to_string(ids[j]) : "");
        i = j + 1;
    }
    return r;
}

// The #SBATCH lines both job scripts share (quoted where sbatch unquotes).
static std::string sbatch_common(const sweep_options& o, const std::string& mem)
{
    auto dq = [](const std::string& v) {  // sbatch's #SBATCH parser takes "..." as one word
        std::string r = "\"";
        for (char ch : v)
            r += ch == '"' ? std::string("\\\"") : std::string(1, ch);
        return r + "\"";
    };
    std::string h = "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --mem=" + mem + "\n";
    if (o.partition)
        h += "#SBATCH --partition=" + dq(o.partition) + "\n";
    if (o.account)
        h += "#SBATCH --account=" + dq(o.account) + "\n";
    if (o.qos)
        h += "#SBATCH --qos=" + dq(o.qos) + "\n";
    for (gchar** so = o.sbatch_opts; so && *so; so++)
        h += std::string("#SBATCH ") + *so + "\n";
    return h;
}

// sweep.sbatch: task T of the array job submitted with argument OFFSET runs
// point OFFSET+T, after checking what the node needs (one line each).
static std::string sweep_sbatch_text(const sweep_options& o, const sweep_def& d, const std::string& exe,
                                     const std::string& mem)
{
    const std::string& dir = d.dir;
    const std::string n = std::to_string(d.pts.size()), m = std::to_string(o.array_max);
    std::string version = version_text();
    version = version.substr(0, version.find('\n'));
    return "#!/bin/sh\n"
           "# Slurm array job of fecsim sweep " + d.name + " (" + n + " points). Submitted by submit.sh as\n"
           "#   sbatch --array=TASKS --time=LIMIT sweep.sbatch OFFSET\n"
           "# task T runs point OFFSET+T (line OFFSET+T+1 of jobs.txt and points.txt), T < " + m + ".\n"
           "# Its stderr goes to logs/<point>.log, after a line '== <time>: point ...'; this\n"
           "# script's own lines (the node's checks, done or failed) to logs/slurm-<job>_<task>.out.\n"
           "# Finished points, and points another live run holds the lock of, are skipped.\n"
           "#SBATCH --job-name=\"fecsim-" + d.name + "\"\n"
           "#SBATCH --output=\"" + dir + "/logs/slurm-%A_%a.out\"\n" +
           sbatch_common(o, mem) +
           "set -u\n"
           "dir=" + quote(dir) + "\n"
           "fecsim=" + quote(exe) + "\n"
           "version=" + quote(version) + "\n"
           "n=" + n + " max=" + m + "\n"
           "job=${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID:-?}}_${SLURM_ARRAY_TASK_ID:-?}\n"
           "say() { echo \"fecsim sweep task $job on $(hostname): $*\" >&2; }\n"
           "off=${1:-0} t=${SLURM_ARRAY_TASK_ID:-}\n"
           "[ -n \"$t\" ] || { say \"not a task of an array job (SLURM_ARRAY_TASK_ID unset): submit with sh $dir/submit.sh\"; exit 2; }\n"
           "case $off$t in *[!0-9]*) say \"bad offset '$off' or task id '$t'\"; exit 2 ;; esac\n"
           "i=$((off + t))\n"
           "if [ \"$t\" -ge \"$max\" ] || [ \"$i\" -ge \"$n\" ]; then\n"
           "    say \"task $t of offset $off is point $i: out of range (the sweep has points 0..$((n - 1)), arrays of at most $max tasks)\"\n"
           "    exit 2\n"
           "fi\n"
           "name=$(sed -n \"$((i + 1))p\" \"$dir/points.txt\" 2>/dev/null) line=$(sed -n \"$((i + 1))p\" \"$dir/jobs.txt\" 2>/dev/null)\n"
           "[ -n \"$name\" ] && [ -n \"$line\" ] || { say \"$dir/jobs.txt or points.txt: no line $((i + 1)) here (the sweep directory must be on a shared file system)\"; exit 2; }\n"
           "log=$dir/logs/$name.log\n"
           "{ echo \"== $(date -u '+%Y-%m-%d %H:%M:%S') UTC: point $name (index $i), Slurm job $job on $(hostname), Slurm log: $dir/logs/slurm-$job.out\" >>\"$log\"; } 2>/dev/null\n"
           "# A failed check: one line here and in the point's log (fecsim collect shows it).\n"
           "nope() { say \"$*\"; { echo \"== node check failed: $*\" >>\"$log\"; } 2>/dev/null; exit 2; }\n"
           "# What the node needs. FECSIM_CACHE: where fecsim keeps driver builds.\n"
           "cache=${FECSIM_CACHE:-${HOME:-/tmp}/.cache/fecsim/drivers}\n"
           "[ -r \"$dir/data/drivers/fec\" ] && [ -w \"$dir\" ] && [ -w \"$dir/logs\" ] || nope \"$dir: data/ not readable, or it or its logs/ not writable here\"\n"
           "command -v \"$fecsim\" >/dev/null 2>&1 || nope \"$fecsim: not found (install fecsim on the node, or emit with --fecsim PROGRAM)\"\n"
           "v=$(\"$fecsim\" --version 2>/dev/null | head -n 1)\n"
           "[ \"$v\" = \"$version\" ] || nope \"$fecsim is '$v', the sweep was written by '$version'\"\n"
           "command -v patch >/dev/null 2>&1 || nope \"no 'patch' (needed to build the driver: install it)\"\n"
           "command -v cc >/dev/null 2>&1 || nope \"no C compiler 'cc' (needed to build the driver: install gcc)\"\n"
           "mkdir -p \"$cache\" 2>/dev/null && [ -w \"$cache\" ] || nope \"driver cache $cache is not writable (set FECSIM_CACHE)\"\n"
           "probe=$(mktemp -d \"$cache/.probe-XXXXXX\" 2>/dev/null) || nope \"driver cache $cache is not writable (set FECSIM_CACHE)\"\n"
           "printf 'int fecsim_probe(int x) { return x + 1; }\\n' >\"$probe/p.c\"\n"
           "if ! (cd \"$probe\" && cc " + khost::driver_cflags() + " -c p.c && cc " + khost::driver_ldflags() +
           " -o p.so p.o) >\"$probe/log\" 2>&1; then\n"
           "    why=$(head -n 1 \"$probe/log\"); rm -rf \"$probe\"\n"
           "    nope \"cc cannot build the driver (-fsanitize=thread needs gcc's libtsan): $why\"\n"
           "fi\n"
           "rm -rf \"$probe\"\n"
           "trap 'echo \"== stopped by SIGTERM (scancel, or the time limit)\" >>\"$log\"; say \"point $name: stopped by SIGTERM\"; exit 143' TERM\n"
           "start=$(date +%s)\n"
           "sh -c \"$line\" >>\"$log\" 2>&1\n"
           "rc=$?\n"
           "echo \"== exit status $rc\" >>\"$log\"\n"
           "if [ \"$rc\" -eq 0 ] && [ -f \"$dir/$name/summary.json\" ]; then\n"
           "    say \"point $name: finished after $(($(date +%s) - start)) s: $dir/$name\"\n"
           "elif [ \"$rc\" -eq 0 ]; then\n"
           "    say \"point $name: not run here: $(grep '^fecsim run: ' \"$log\" | tail -n 1)\"\n"
           "else\n"
           "    say \"point $name failed (exit status $rc); the end of $log:\"; tail -n 20 \"$log\" >&2\n"
           "fi\n"
           "exit \"$rc\"\n";
}

static std::string collect_sbatch_text(const sweep_options& o, const sweep_def& d, const std::string& exe,
                                       const std::string& mem)
{
    return "#!/bin/sh\n"
           "# Slurm job of fecsim sweep " + d.name + ": fecsim collect once the array jobs have ended\n"
           "# (submit.sh: --dependency=afterany). Exit 0 when every point finished, else collect's status.\n"
           "#SBATCH --job-name=\"fecsim-" + d.name + "-collect\"\n"
           "#SBATCH --output=\"" + d.dir + "/logs/collect-%j.out\"\n"
           "#SBATCH --time=00:15:00\n" +
           sbatch_common(o, mem) + "exec " + quote(exe) + " collect " + quote(d.dir) + "\n";
}

// One array job of submit.sh: tasks (relative to offset) of the points
// offset.. ; lim: its --time.
struct array_chunk {
    size_t offset = 0;
    std::vector<size_t> tasks;
    std::string time;
};

static std::string submit_text(const sweep_options& o, const sweep_def& d, const std::vector<array_chunk>& chunks,
                               size_t n_points)
{
    const std::string& dir = d.dir;
    std::string t = "#!/bin/sh\n"
                    "# Submits fecsim sweep " + d.name + ": " + std::to_string(n_points) + " of its " +
                    std::to_string(d.pts.size()) + " points" + (o.missing ? " (those without a result)" : "") +
                    " in " + std::to_string(chunks.size()) + " array job(s) of at most " +
                    std::to_string(o.array_max) + " tasks" +
                    (o.no_collect_job ? "" : ", then fecsim collect after them (afterany)") +
                    ".\n"
                    "# Prints the job ids. Written by fecsim sweep --emit-jobs; running it again submits\n"
                    "# the same again (finished points are skipped).\n"
                    "set -eu\n"
                    "command -v sbatch >/dev/null 2>&1 || { echo \"submit.sh: sbatch not found (not a Slurm submit host?)\" >&2; exit 3; }\n"
                    "dir=" + quote(dir) + "\n"
                    "after=\n"
                    "# submit TASKS TIME OFFSET POINTS\n"
                    "submit() {\n"
                    "    out=$(sbatch --parsable --array=\"$1\" --time=\"$2\" \"$dir/sweep.sbatch\" \"$3\") ||\n"
                    "        { echo \"submit.sh: sbatch --array=$1 failed (if it is an invalid job array: more tasks than "
                    "the site's MaxArraySize, see scontrol show config; emit with a lower --array-max)\" >&2; exit 3; }\n"
                    "    echo \"array job ${out%%;*}: points $4 (tasks $1 + offset $3, time limit $2)\"\n"
                    "    after=$after:${out%%;*}\n"
                    "}\n";
    const std::string thr = o.throttle ? "%" + std::to_string(o.throttle) : "";
    for (const auto& c : chunks) {
        const std::string pts = std::to_string(c.offset + c.tasks.front()) + "-" + std::to_string(c.offset + c.tasks.back());
        t += "submit " + quote(array_spec(c.tasks) + thr) + " " + c.time + " " + std::to_string(c.offset) + " " +
             pts + "\n";
    }
    if (!o.no_collect_job)
        t += "out=$(sbatch --parsable --dependency=\"afterany$after\" \"$dir/collect.sbatch\") ||\n"
             "    { echo \"submit.sh: sbatch collect.sbatch failed\" >&2; exit 3; }\n"
             "echo \"collect job ${out%%;*}: fecsim collect $dir after them (log $dir/logs/collect-${out%%;*}.out)\"\n";
    return t;
}

// --emit-jobs (--slurm): the points to submit (all, or --missing), the cost
// of a task, then sweep.sbatch, collect.sbatch, submit.sh; with --slurm,
// submit.sh is run.
static int sweep_emit_jobs(const cli& c, const sweep_options& o, const sweep_def& d)
{
    const std::string& dir = d.dir;
    const std::string exe = o.fecsim ? o.fecsim : c.exe;
    std::vector<size_t> todo;
    size_t running = 0;
    for (size_t i = 0; i < d.pts.size(); i++) {
        if (!o.missing) {
            todo.push_back(i);
        } else if (!run_dir_complete(dir + "/" + d.pts[i].name)) {
            if (sweep_point_state(dir, d.pts[i].name, i).status == "running")
                running++;
            else
                todo.push_back(i);
        }
    }
    std::printf("%s\n", dir.c_str());
    if (todo.empty()) {
        std::fprintf(stderr, "fecsim sweep: %s: no point is missing (%zu running); nothing written or submitted\n",
                     dir.c_str(), running);
        return EXIT_OK;
    }
    task_cost tc;
    std::string err;
    g_setenv("FECSIM_DATADIR", sweep_data_dir(dir).c_str(), true);  // for the calibration runs
    if (!(o.time && o.mem) && !o.no_calibrate) {
        if (!o.quiet)
            std::fprintf(stderr, "fecsim sweep: calibrating on point %s (3 short runs)\n", d.pts[0].name.c_str());
        if (!sweep_calibrate(c, d, &tc, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            return EXIT_RUN_FAILED;
        }
    }
    double max_sim = 0;
    for (size_t i : todo)
        max_sim = std::max(max_sim, d.sim_s[i]);
    const std::string mem = o.mem ? o.mem : slurm_mem(tc, max_sim);
    std::vector<array_chunk> chunks;
    for (size_t i : todo) {
        const size_t off = i / (size_t)o.array_max * (size_t)o.array_max;
        if (chunks.empty() || chunks.back().offset != off) {
            chunks.push_back(array_chunk());
            chunks.back().offset = off;
        }
        chunks.back().tasks.push_back(i - off);
    }
    for (auto& ch : chunks) {
        double est = 0;
        for (size_t t : ch.tasks)
            est = std::max(est, task_seconds(tc, d.sim_s[ch.offset + t]));
        ch.time = o.time ? o.time : slurm_time(est, o.time_margin);
    }
    if (!write_file_atomic(dir + "/sweep.sbatch", sweep_sbatch_text(o, d, exe, mem), &err) ||
        !write_file_atomic(dir + "/collect.sbatch", collect_sbatch_text(o, d, exe, mem), &err) ||
        !write_file_atomic(dir + "/submit.sh", submit_text(o, d, chunks, todo.size()), &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    if (!o.quiet) {
        if (tc.measured)
            std::fprintf(stderr,
                         "  calibration: %.2f s to build the driver, %.2f s per run + %.1f s per simulated s, "
                         "peak RSS %.0f MiB\n",
                         tc.cold_s, tc.fixed_s, tc.per_sim_s, tc.rss / (1024.0 * 1024));
        std::fprintf(stderr, "  %zu points in %zu array job(s) of at most %d tasks%s, --time %s%s, --mem %s\n",
                     todo.size(), chunks.size(), o.array_max,
                     o.throttle ? (", " + std::to_string(o.throttle) + " at once").c_str() : "",
                     chunks.front().time.c_str(), chunks.size() > 1 && !o.time ? " (first job)" : "", mem.c_str());
    }
    if (o.slurm) {
        const std::string sh = dir + "/submit.sh";
        gchar* argv[] = {const_cast<gchar*>("sh"), const_cast<gchar*>(sh.c_str()), nullptr};
        gint st = 0;
        GError* e = nullptr;
        std::fflush(stdout);
        if (!g_spawn_sync(nullptr, argv, nullptr,
                          GSpawnFlags(G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN),
                          nullptr, nullptr, nullptr, nullptr, &st, &e)) {
            std::fprintf(stderr, "error: cannot run %s: %s\n", sh.c_str(), e->message);
            g_error_free(e);
            return EXIT_RUN_FAILED;
        }
        if (!g_spawn_check_wait_status(st, nullptr)) {
            std::fprintf(stderr, "error: %s failed; nothing more was submitted (run it again once fixed)\n", sh.c_str());
            return EXIT_RUN_FAILED;
        }
        if (!o.quiet)
            std::fprintf(stderr, "then, once they have ended:\n  fecsim collect %s\n", dir.c_str());
        return EXIT_OK;
    }
    if (!o.quiet)
        std::fprintf(stderr,
                     "fecsim sweep: %zu points written to %s/jobs.txt; nothing was run. Run them with\n"
                     "  parallel < %s/jobs.txt\n"
                     "or on Slurm\n"
                     "  sh %s/submit.sh\n"
                     "then\n"
                     "  fecsim collect %s\n",
                     todo.size(), dir.c_str(), dir.c_str(), dir.c_str(), dir.c_str());
    return EXIT_OK;
}

// How the local run of a sweep went, in points.
struct sweep_tally {
    size_t done_before = 0;  // finished before this command
    size_t ran = 0;          // run now, failed ones included
    size_t failed = 0;
    size_t elsewhere = 0;    // skipped: another live run holds the point's lock
};

// Run the points that are not finished yet (after removing what killed runs
// left), o.jobs at a time. Returns 0, or (stopped by a signal) what
// job_pool::die_of_stop_signal() returns.
static int sweep_run_points(const cli& c, const sweep_options& o, const sweep_def& d, sweep_tally* t)
{
    const std::string& dir = d.dir;
    const auto& pts = d.pts;
    run_dir_clean_stale(dir);
    g_setenv("FECSIM_DATADIR", sweep_data_dir(dir).c_str(), true);  // the points' children, not this process
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
        if (e.exited_zero() && !run_dir_complete(dir + "/" + p.name) && run_dir_lock(dir + "/" + p.name).live) {
            t->elsewhere++;
            std::fprintf(stderr, "fecsim sweep: point %s is being run elsewhere (%s); skipped\n", p.name.c_str(),
                         run_dir_lock(dir + "/" + p.name).describe().c_str());
        } else if (!(e.exited_zero() && run_dir_complete(dir + "/" + p.name))) {
            t->failed++;
            std::fprintf(stderr, "fecsim sweep: point %s failed (%s); its log, %s/logs/%s.log:\n%s", p.name.c_str(),
                         e.how().c_str(), dir.c_str(), p.name.c_str(), read_log(children[e.job].log).c_str());
        } else if (!o.quiet) {
            std::fprintf(stderr, "  [%zu/%zu] %s done in %.1f s\n", t->done_before + t->ran - t->failed - t->elsewhere, pts.size(),
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
    pass_on_fuzz_warnings(children, "sweep");
    return 0;
}

// sweep_collect() and, unless no_plot or nothing finished, plot_dir(); a
// failed plot is reported ("fecsim <cmd>: plotting failed") but not an
// error. False (reported) when dir has no readable plan.
static bool collect_and_plot(const char* cmd, const std::string& dir, bool no_plot, size_t jobs, size_t* finished,
                             std::vector<std::string>* missing)
{
    std::string err;
    if (!sweep_collect(dir, finished, missing, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return false;
    }
    if (!no_plot && *finished) {
        std::vector<std::string> written;
        if (!plot_dir(dir, jobs, &written, &err))
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
    if ((status = sweep_define(o, &d)) != EXIT_OK ||
        (status = sweep_write_dir(o.fecsim ? o.fecsim : c.exe, &d)) != EXIT_OK)
        return status;
    if (o.emit)
        return sweep_emit_jobs(c, o, d);
    sweep_tally t;
    if ((status = sweep_run_points(c, o, d, &t)) != 0)
        return status;
    size_t finished = 0;
    std::vector<std::string> missing;
    if (!collect_and_plot("sweep", d.dir, o.no_plot, jobs_slots(o.jobs), &finished, &missing))
        return EXIT_RUN_FAILED;
    std::fprintf(stderr, "fecsim sweep: %zu points: %zu already finished, %zu run now, %zu failed%s; %s/sweep.csv\n",
                 d.pts.size(), t.done_before, t.ran - t.failed - t.elsewhere, t.failed,
                 t.elsewhere ? (", " + std::to_string(t.elsewhere) + " being run elsewhere").c_str() : "",
                 d.dir.c_str());
    std::printf("%s\n", d.dir.c_str());
    return t.failed || t.elsewhere ? EXIT_RUN_FAILED : EXIT_OK;
}

// ---------------------------------------------------------------- collect

// What collect says of one sweep directory's unfinished points and left-over
// temporary directories. Returns collect's status for it: EXIT_OK (all
// finished), EXIT_CHECK_FAILED (points without a result, none failed),
// EXIT_RUN_FAILED (a point failed).
static int collect_report(const std::string& d, size_t finished, const std::vector<point_state>& states, bool quiet)
{
    std::vector<const point_state*> failed, running, pending;
    for (const auto& ps : states)
        (ps.status == "running" ? running : ps.status == "missing" ? pending : failed).push_back(&ps);
    std::vector<run_dir_temporary> stale;
    for (const auto& t : run_dir_temporaries(d))
        if (!t.live)
            stale.push_back(t);
    const size_t total = finished + states.size();
    if (!quiet || !states.empty()) {
        std::fprintf(stderr, "fecsim collect: %s: %zu of %zu points finished", d.c_str(), finished, total);
        if (!states.empty())
            std::fprintf(stderr, "; %zu failed, %zu running, %zu without a result yet", failed.size(), running.size(),
                         pending.size());
        std::fprintf(stderr, "; %s/sweep.csv\n", d.c_str());
    }
    const size_t k_show = 10;
    for (size_t i = 0; i < failed.size(); i++) {
        const point_state& f = *failed[i];
        if (i == k_show) {
            std::fprintf(stderr, "  ... and %zu more failed\n", failed.size() - k_show);
            break;
        }
        std::fprintf(stderr, "  failed: %s (%s)%s\n    log %s%s%s\n", f.name.c_str(),
                     f.detail.empty() ? (f.status == "unreadable" ? "its summary.json is unreadable" : "no result")
                                      : f.detail.c_str(),
                     f.detail.compare(0, 12, "exit status ") == 0 || f.detail.compare(0, 8, "stopped ") == 0 ||
                             f.detail.compare(0, 18, "node check failed:") == 0 ||
                             f.log.empty()
                         ? ""
                         : " [ended without an exit status: killed?]",
                     f.log.empty() ? "-" : f.log.c_str(), f.slurm_log.empty() ? "" : ", Slurm log ",
                     f.slurm_log.c_str());
        for (const auto& l : f.tail)
            std::fprintf(stderr, "    | %s\n", l.c_str());
    }
    auto list = [&](const char* what, const std::vector<const point_state*>& v, bool detail) {
        if (v.empty())
            return;
        std::fprintf(stderr, "  %s:", what);
        for (size_t i = 0; i < v.size() && i < 20; i++)
            std::fprintf(stderr, detail ? "\n    %s (%s)" : " %s", v[i]->name.c_str(), v[i]->detail.c_str());
        std::fprintf(stderr, "%s\n", v.size() > 20 ? " ..." : "");
    };
    list("running", running, true);
    list("no result yet", pending, false);
    for (const auto& t : stale)
        std::fprintf(stderr, "  stale temporary directory %s (pid %ld on %s is gone; the next run of its point removes it, or rm -r it)\n",
                     t.path.c_str(), t.pid, t.host.c_str());
    if (!failed.empty() || !pending.empty())
        std::fprintf(stderr, "  to run the points without a result: fecsim sweep ... --emit-jobs --missing (or --slurm --missing)\n");
    if (!failed.empty())
        return EXIT_RUN_FAILED;
    return states.empty() ? EXIT_OK : EXIT_CHECK_FAILED;
}

int cmd_collect(const cli&, int argc, char** argv)
{
    gboolean quiet = false, no_plot = false;
    std::vector<GOptionEntry> e = {
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Only errors and the unfinished points", nullptr},
        {"no-plot", 0, 0, G_OPTION_ARG_NONE, &no_plot, "Do not draw the plots", nullptr},
    };
    std::vector<std::string> args;
    int status = EXIT_OK;
    if (!parse_command("collect", "SWEEPDIR...",
                       "Merge the finished points of a sweep directory into sweep.csv and sweep.json and draw\n"
                       "its plots: after running jobs.txt with GNU parallel or the Slurm jobs of submit.sh, or\n"
                       "to look at a sweep that is still running. Nothing is run. The points without a result\n"
                       "are listed as failed (run, no result: its log and the log's last lines), running (a\n"
                       "live lock) or without a result yet; and temporary directories killed runs left.\n"
                       "Exit status: 0 every point finished, 1 points without a result but none failed,\n"
                       "3 a point failed, 2 not a sweep directory (the highest over the directories).",
                       "  fecsim collect results/imx6q-copybreak-stock-idle/sweep-stress\n", e, argc, argv, &args,
                       &status))
        return status;
    if (args.empty())
        return usage_error("collect", "no sweep directory given");
    int rc = EXIT_OK;
    for (const auto& d : args) {
        size_t finished = 0;
        std::vector<std::string> missing;
        std::vector<point_state> states;
        std::string err;
        if (!sweep_collect(d, &finished, &missing, &err, &states)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            rc = std::max(rc, (int)EXIT_BAD_INPUT);
            continue;
        }
        if (!no_plot && finished) {
            std::vector<std::string> written;
            if (!plot_dir(d, jobs_slots(0), &written, &err))
                std::fprintf(stderr, "fecsim collect: plotting failed: %s\n", err.c_str());
        }
        const int st = collect_report(d, finished, states, quiet);
        rc = std::max(rc, st);
    }
    return rc;
}

} // namespace sim
