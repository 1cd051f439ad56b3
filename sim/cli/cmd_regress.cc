// sim/cli/cmd_regress.cc: fecsim regress: run a suite of scenarios with a driver
// change and compare every run's summary with its stored baseline.
//
// Order of work, so that bad input writes nothing: parse the options; find
// the scenario files and their suite files; load every scenario (with the
// patches and driver) and every suite file, reporting all errors; check that
// each scenario has a baseline recorded for the same scenario configuration;
// only then open the results directory and run the scenarios, each as a child
// `fecsim run` (one SystemC simulation per process), -j at a time. A child
// that fails with bad input (a patch that does not apply, a driver that does
// not compile) stops the others: exit status 2, its message, nothing kept.
// Baselines are written (--update-baseline) only when every run finished.
// The baseline files themselves: sim/cli/regress_baseline.h.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <map>
#include <memory>
#include "drivers/khost/data_dir.h"
#include "sim/cli/commands.h"
#include "sim/cli/job_pool.h"
#include "sim/cli/regress_baseline.h"
#include "sim/config/text.h"
#include "sim/results/regress.h"
#include "sim/results/results.h"

namespace sim {

const char* const k_examples_regress =
    "  fecsim regress --update-baseline --baseline my-baselines -o scenario.duration=20ms "
    "scenarios/regress/rx-30k-246-idle.ini\n"
    "  fecsim regress --baseline my-baselines -o scenario.duration=20ms scenarios/regress/rx-30k-246-idle.ini\n"
    "  fecsim regress --baseline my-baselines -o scenario.duration=20ms --changes-only --patch "
    "drivers/fec/patches/balanced-partial-sync.patch scenarios/regress/rx-30k-246-idle.ini\n"
    "  fecsim regress --baseline my-baselines -o scenario.duration=20ms --format=junit "
    "scenarios/regress/rx-30k-246-idle.ini > junit.xml\n";

namespace {

// The default suite and baselines, in fecsim's data directory
// (drivers/khost/data_dir.h). Throw khost::data_dir_error.
std::string default_suite_dir() { return khost::data_dir() + "/scenarios/regress"; }
std::string default_baseline_dir() { return khost::data_dir() + "/results/baselines/imx6q"; }

// The *.ini scenario files of a directory (not suite.ini), sorted.
std::vector<std::string> dir_scenarios(const std::string& dir)
{
    std::vector<std::string> v;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() > 4 && n[0] != '.' && n.compare(n.size() - 4, 4, ".ini") == 0 && n != "suite.ini")
                v.push_back(dir + "/" + n);
        }
        closedir(d);
    }
    std::sort(v.begin(), v.end());
    return v;
}

std::string run_label(const std::vector<std::string>& patches, const std::string& driver, bool update)
{
    std::string l;
    for (const auto& p : patches) {
        std::string b = base_name(p);
        if (b.size() > 6 && b.compare(b.size() - 6, 6, ".patch") == 0)
            b.resize(b.size() - 6);
        l += (l.empty() ? "" : "+") + b;
    }
    if (!driver.empty())
        l = base_name(driver) + (l.empty() ? "" : "+" + l);
    if (l.empty())
        l = "unchanged";
    if (update)
        l += "-baseline";
    std::string r;
    for (char c : l)
        r += (g_ascii_isalnum(c) || c == '.' || c == '_' || c == '-' || c == '+') ? c : '_';
    if (r.size() > 60)
        r.resize(60);
    GDateTime* now = g_date_time_new_now_utc();
    gchar* ts = g_date_time_format(now, "%Y%m%dT%H%M%S");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s.%03dZ-", ts, g_date_time_get_microsecond(now) / 1000);
    g_free(ts);
    g_date_time_unref(now);
    return buf + r;
}

// fecsim regress's options, and what follows from them.
struct regress_options {
    scenario_options so;
    gchar* baseline_opt = nullptr;
    gchar* driver = nullptr;
    gchar* format = nullptr;
    gchar* out = nullptr;
    gint jobs = 0;
    gboolean update = false, quiet = false, changes_only = false;
    std::vector<std::string> args;  // SUITE...: scenario files and directories
    std::string fmt;                // text, json or junit
    std::string driver_dir;         // --driver made absolute; "" for drivers/fec
    std::string baseline_dir;
    ~regress_options() { g_free(baseline_opt); g_free(driver); g_free(format); g_free(out); }
};

// (scenario file, its suite file), in the order the runs are reported.
using scenario_files = std::vector<std::pair<std::string, std::string>>;
using suite_map = std::map<std::string, std::unique_ptr<regress_suite>>;  // by suite file

std::string regress_help()
{
    std::string metrics_help = "Metrics (summary.json keys; higher is worse unless marked):\n";
    for (const auto& n : regress_metric_names()) {
        metric_info mi;
        regress_metric(n, &mi);
        std::string name = n.compare(0, 6, "cpu.0.") == 0 ? "cpu.N." + n.substr(6) : n;
        metrics_help += "  " + name + std::string(name.size() < 28 ? 28 - name.size() : 1, ' ') + mi.unit +
                        (mi.worse == worse_when::lower ? ", lower is worse" : "") + "\n";
    }
    return "Run a suite of scenarios with a driver change (--patch, --driver, -o driver.KEY=VALUE) and\n"
           "compare every metric of each run with the stored baseline, within the tolerances of the\n"
           "suite file. Prints a table: scenario, metric, baseline, new, delta, tolerance and the\n"
           "verdict: ok, improved, REGRESSED (worse by more than the tolerance) or new-violation (a\n"
           "DMA coherence violation, by kind and driver function, that the baseline does not have:\n"
           "always a regression, also when other metrics improved).\n"
           "Exit status: 0 no regression; 1 something regressed; 2 bad input (unknown option or\n"
           "metric, missing baseline, baseline of another scenario, a patch that does not apply, a\n"
           "driver that does not compile), nothing written; 3 a run failed.\n"
           "SUITE: scenario files and directories of them (every .ini but suite.ini); default:\n"
           "scenarios/regress of the data directory (fecsim --version names it). Tolerances:\n"
           "suite.ini next to the scenarios (else the default suite's), a [tolerances] group of\n"
           "metric=tolerance lines: 0.5 (absolute, in the metric's unit), 2% (relative to the\n"
           "baseline) or 2%,10 (the larger).\n"
           "Runs and reports (report.txt, report.json, report.xml) are kept in <out>/regress/<run-id>/.\n\n" +
           metrics_help;
}

// Parse and check the options. False with *status.
bool regress_parse_options(int argc, char** argv, regress_options* o, int* status)
{
    const std::vector<GOptionEntry> e = scenario_option_entries(&o->so, {
        {"baseline", 0, 0, G_OPTION_ARG_FILENAME, &o->baseline_opt,
         "Baseline directory: one <scenario-id>.json per scenario (default: results/baselines/imx6q of "
         "the data directory)",
         "DIR"},
        {"driver", 0, 0, G_OPTION_ARG_FILENAME, &o->driver,
         "Driver source directory to run instead of drivers/fec (= -o driver.source=DIR); --patch files "
         "apply to it",
         "DIR"},
        {"update-baseline", 0, 0, G_OPTION_ARG_NONE, &o->update,
         "Record the runs as the new baseline (written only when every run finished; exit status 0). "
         "Where an old baseline exists, the table shows what changed",
         nullptr},
        {"format", 0, 0, G_OPTION_ARG_STRING, &o->format,
         "Report on stdout: text (the table), json (machine-readable) or junit (JUnit XML, a testcase "
         "per scenario and metric)",
         "FORMAT"},
        {"changes-only", 0, 0, G_OPTION_ARG_NONE, &o->changes_only,
         "Text format: leave out the rows whose verdict is ok", nullptr},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs, "Scenarios run at once (default: the number of cores)", "N"},
        {"out", 0, 0, G_OPTION_ARG_FILENAME, &o->out,
         "Results root (default ./results): the runs and the reports go to <out>/regress/<run-id>/", "DIR"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Nothing on stderr but errors", nullptr},
    });
    const std::string summary = regress_help();
    if (!parse_command("regress", "[SUITE...]", summary.c_str(), k_examples_regress, e, argc, argv, &o->args, status))
        return false;
    *status = EXIT_BAD_INPUT;
    o->fmt = o->format ? o->format : "text";
    if (o->fmt != "text" && o->fmt != "json" && o->fmt != "junit") {
        std::fprintf(stderr, "error: --format=%s: expected text, json or junit\n", o->fmt.c_str());
        return false;
    }
    if (!jobs_option_ok(o->jobs))
        return false;
    if (o->driver) {
        if (!g_file_test(o->driver, G_FILE_TEST_IS_DIR)) {
            std::fprintf(stderr, "error: --driver %s: not a directory\n", o->driver);
            return false;
        }
        o->driver_dir = abs_path(o->driver);
    }
    try {
        o->baseline_dir = o->baseline_opt ? o->baseline_opt : default_baseline_dir();
        if (o->args.empty())
            o->args.push_back(default_suite_dir());
    } catch (const khost::data_dir_error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        *status = EXIT_RUN_FAILED;
        return false;
    }
    *status = EXIT_OK;
    return true;
}

// The scenario files of args (the default suite added by the options) and their
// suite files. EXIT_OK or EXIT_BAD_INPUT.
int find_scenarios(const std::vector<std::string>& args, scenario_files* files)
{
    for (const auto& a : args) {
        if (g_file_test(a.c_str(), G_FILE_TEST_IS_DIR)) {
            const auto v = dir_scenarios(a);
            if (v.empty()) {
                std::fprintf(stderr, "error: %s: no scenario (.ini) files in this directory\n", a.c_str());
                return EXIT_BAD_INPUT;
            }
            for (const auto& f : v)
                files->push_back({f, suite_file_for_dir(a)});
        } else if (base_name(a) == "suite.ini") {
            std::fprintf(stderr, "error: %s: a suite file, not a scenario; give its directory\n", a.c_str());
            return EXIT_BAD_INPUT;
        } else {
            files->push_back({a, suite_file_for_dir(dir_name(a))});
        }
    }
    return EXIT_OK;
}

// Every suite file, read once; all errors reported. EXIT_OK or EXIT_BAD_INPUT.
int read_suites(const scenario_files& files, suite_map* suites)
{
    std::vector<std::string> errors;
    for (const auto& f : files)
        if (!suites->count(f.second)) {
            auto s = std::make_unique<regress_suite>();
            suite_read(f.second, s.get(), &errors);
            (*suites)[f.second] = std::move(s);
        }
    for (const auto& x : errors)
        std::fprintf(stderr, "%s\n", x.c_str());
    if (!errors.empty()) {
        std::fprintf(stderr, "fecsim regress: %zu error%s in the suite file; nothing was run\n", errors.size(),
                     errors.size() == 1 ? "" : "s");
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

// Every scenario as the runs will see it, and as its baseline knows it
// (without the patches). EXIT_OK or EXIT_BAD_INPUT (all errors reported).
int load_jobs(const regress_options& o, const scenario_files& files, const suite_map& suites,
              std::vector<scenario_job>* jv)
{
    std::vector<std::string> extra;
    if (!o.driver_dir.empty())
        extra.push_back("driver.source=" + o.driver_dir);
    scenario_options plain;  // the same options without the patches
    plain.set = g_strdupv(o.so.set);
    plain.seed = g_strdup(o.so.seed);
    int bad = 0;
    for (const auto& f : files) {
        resolved_scenario r, id_r;
        if (load_scenario({f.first}, o.so, &r, extra) != EXIT_OK) {
            bad++;
            continue;
        }
        load_scenario({f.first}, plain, &id_r, {}, true);
        scenario_job j;
        j.file = f.first;
        j.id = r.cfg.scenario.id;
        j.description = r.cfg.scenario.description;
        j.suite = suites.at(f.second).get();
        j.identity = scenario_identity(id_r);
        j.driver = driver_keys(r);
        for (const auto& x : *jv)
            if (x.id == j.id) {
                std::fprintf(stderr, "error: %s and %s are both scenario '%s': a baseline is kept per scenario id\n",
                             x.file.c_str(), j.file.c_str(), j.id.c_str());
                return EXIT_BAD_INPUT;
            }
        jv->push_back(std::move(j));
    }
    return bad ? EXIT_BAD_INPUT : EXIT_OK;
}

// Read j's baseline and check that it was recorded for the same scenario.
// With --update-baseline a missing, unreadable or foreign baseline is no
// error (it gets overwritten; j then has none). EXIT_OK or EXIT_BAD_INPUT.
int check_baseline(const regress_options& o, scenario_job* j)
{
    const std::string path = o.baseline_dir + "/" + j->id + ".json";
    const bool present = g_file_test(path.c_str(), G_FILE_TEST_EXISTS);
    if (!present && !o.update) {
        std::string opts;
        for (gchar** x = o.so.set; x && *x; x++)
            opts += std::string(" -o ") + *x;
        if (o.so.seed)
            opts += std::string(" --seed ") + o.so.seed;
        std::fprintf(stderr,
                     "error: no baseline for scenario '%s' (%s): %s does not exist.\n"
                     "Record one with the unchanged driver first:\n"
                     "  fecsim regress --update-baseline --baseline %s%s %s\n",
                     j->id.c_str(), j->file.c_str(), path.c_str(), o.baseline_dir.c_str(), opts.c_str(),
                     j->file.c_str());
        return EXIT_BAD_INPUT;
    }
    if (!present)
        return EXIT_OK;
    const std::string why = read_baseline(path, j);
    if (!why.empty()) {
        if (o.update) {
            std::fprintf(stderr, "fecsim regress: %s: %s; it will be overwritten\n", path.c_str(), why.c_str());
            return EXIT_OK;
        }
        std::fprintf(stderr, "error: %s: %s\n", path.c_str(), why.c_str());
        return EXIT_BAD_INPUT;
    }
    std::vector<std::string> other;
    const auto diff = identity_diff(*j, &other);
    if (!diff.empty()) {
        if (o.update) {
            j->baseline.reset();
            j->base_summary = nullptr;
            return EXIT_OK;
        }
        std::fprintf(stderr, "error: %s was recorded for a different scenario '%s' (%s):\n", path.c_str(),
                     j->id.c_str(), j->file.c_str());
        for (size_t i = 0; i < diff.size() && i < 10; i++)
            std::fprintf(stderr, "  %s\n", diff[i].c_str());
        if (diff.size() > 10)
            std::fprintf(stderr, "  ... and %zu more\n", diff.size() - 10);
        std::fprintf(stderr, "Compare with the same scenario and options, or record the baseline again with "
                             "--update-baseline.\n");
        return EXIT_BAD_INPUT;
    }
    if (!other.empty() && !o.quiet)
        std::fprintf(stderr,
                     "fecsim regress: note: %s: %zu scenario key%s added to or removed from fecsim since the "
                     "baseline (%s%s); compared anyway\n",
                     path.c_str(), other.size(), other.size() == 1 ? "" : "s", other[0].c_str(),
                     other.size() > 1 ? ", ..." : "");
    return EXIT_OK;
}

// The options every child `fecsim run` gets after its scenario file.
std::vector<std::string> child_options(const regress_options& o)
{
    std::vector<std::string> v;
    for (gchar** x = o.so.set; x && *x; x++)
        v.insert(v.end(), {"-o", *x});
    if (o.so.seed)
        v.insert(v.end(), {"--seed", o.so.seed});
    for (gchar** p = o.so.patch; p && *p; p++)
        v.insert(v.end(), {"--patch", abs_path(*p)});
    if (!o.driver_dir.empty())
        v.insert(v.end(), {"-o", "driver.source=" + o.driver_dir});
    return v;
}

// Run every scenario into rd (jv[i].run_dir), o.jobs at a time. The first
// failure stops the others. Returns EXIT_OK; else rd is discarded and the
// result is the failure's exit status, or (stopped by a signal) what
// job_pool::die_of_stop_signal() returns.
int run_scenarios(const cli& c, const regress_options& o, run_dir* rd, std::vector<scenario_job>* jv)
{
    job_pool pool({SIGINT, SIGTERM, SIGHUP});
    const size_t n_jobs = jobs_slots(o.jobs);
    if (!o.quiet)
        std::fprintf(stderr, "fecsim regress: %zu scenario%s, %zu at a time, against %s%s\n", jv->size(),
                     jv->size() == 1 ? "" : "s", std::min(n_jobs, jv->size()), o.baseline_dir.c_str(),
                     o.update ? " (recording)" : "");
    const std::vector<std::string> opts = child_options(o);
    std::vector<child_job> children;
    for (auto& j : *jv) {
        j.run_dir = rd->tmp_path(j.id);
        j.log = rd->tmp_path("logs/" + j.id + ".log");
        std::vector<std::string> a = {c.exe, "run", j.file};
        a.insert(a.end(), opts.begin(), opts.end());
        a.insert(a.end(), {"--run-dir", j.run_dir, "--quiet"});
        children.push_back({a, j.log});
    }
    size_t done = 0;
    int fail_status = 0;
    std::string fail_text;
    auto ended = [&](const child_end& e) {
        const scenario_job& j = (*jv)[e.job];
        if (e.exited_zero() && run_dir_complete(j.run_dir)) {
            done++;
            if (!o.quiet)
                std::fprintf(stderr, "  [%zu/%zu] %s done in %.1f s\n", done, jv->size(), j.id.c_str(), e.seconds);
            return pool_next::go_on;
        }
        if (fail_status)
            return pool_next::go_on;  // stopped by us after the first failure
        // The first failure stops the others: a patch that does not apply fails everywhere.
        fail_status = e.exit_status() == EXIT_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
        fail_text =
            "fecsim regress: scenario " + j.id + " (" + j.file + ") failed (" + e.how() + "):\n" + read_log(j.log);
        return pool_next::stop_rest;
    };
    auto start_failed = [&](int err) {
        fail_status = EXIT_RUN_FAILED;
        fail_text = std::string("cannot start a process: ") + std::strerror(err) + "\n";
        return pool_next::finish;
    };
    if (pool.run(children, n_jobs, ended, start_failed)) {
        rd->discard();
        std::fprintf(stderr, "fecsim regress: interrupted; nothing was kept\n");
        return job_pool::die_of_stop_signal();
    }
    if (fail_status) {
        rd->discard();
        std::fputs(fail_text.c_str(), stderr);
        std::fprintf(stderr, "fecsim regress: nothing was compared or written\n");
        return fail_status;
    }
    pass_on_fuzz_warnings(children, "regress");
    return EXIT_OK;
}

// Compare every finished run with its baseline into rep; with
// --update-baseline, the new baseline files (path, text) into *baselines.
// EXIT_OK, or EXIT_RUN_FAILED with rd discarded.
int compare_runs(const regress_options& o, const std::vector<scenario_job>& jv, run_dir* rd, regress_report* rep,
                 std::vector<std::pair<std::string, std::string>>* baselines)
{
    for (const auto& j : jv) {
        scenario_report s;
        s.id = j.id;
        s.file = j.file;
        s.description = j.description;
        s.suite_file = j.suite->file;
        JsonParser* p = json_parser_new();
        GError* ge = nullptr;
        if (!json_parser_load_from_file(p, (j.run_dir + "/summary.json").c_str(), &ge)) {
            std::fprintf(stderr, "error: %s/summary.json: %s\n", j.run_dir.c_str(), ge->message);
            g_error_free(ge);
            g_object_unref(p);
            rd->discard();
            return EXIT_RUN_FAILED;
        }
        compare_summaries(j.base_summary, json_node_get_object(json_parser_get_root(p)), *j.suite, &s);
        if (j.baseline)
            s.driver_changes = driver_diff(j);
        g_object_unref(p);
        if (o.update) {
            std::string err;
            const std::string t = baseline_text(j, j.run_dir + "/summary.json", *rep, &err);
            if (t.empty()) {
                std::fprintf(stderr, "error: %s\n", err.c_str());
                rd->discard();
                return EXIT_RUN_FAILED;
            }
            baselines->push_back({o.baseline_dir + "/" + j.id + ".json", t});
        }
        rep->scenarios.push_back(s);
    }
    return EXIT_OK;
}

// Keep the runs and the reports, then (--update-baseline) the baselines;
// the report on stdout. Returns the command's exit status.
int keep_results(const regress_options& o, run_dir* rd, regress_report* rep,
                 const std::vector<std::pair<std::string, std::string>>& baselines,
                 std::chrono::steady_clock::time_point t0)
{
    std::string final_dir, err;
    bool already = false;
    // The reports name the final directory, so they are written once it is in place.
    if (!rd->commit(&final_dir, &already, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        rd->discard();
        return EXIT_RUN_FAILED;
    }
    rep->results_dir = final_dir;
    for (auto& s : rep->scenarios)
        s.run_dir = final_dir + "/" + s.id;
    const std::string text = report_text(*rep, o.changes_only);
    const std::string json = report_json(*rep);
    const std::string junit = report_junit(*rep);
    if (!write_file_atomic(final_dir + "/report.txt", text, &err) ||
        !write_file_atomic(final_dir + "/report.json", json, &err) ||
        !write_file_atomic(final_dir + "/report.xml", junit, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    if (o.update) {
        if (!make_dirs(o.baseline_dir, nullptr, &err)) {
            std::fprintf(stderr, "error: %s\n", err.c_str());
            return EXIT_RUN_FAILED;
        }
        for (const auto& [path, t] : baselines)
            if (!write_file_atomic(path, t, &err)) {
                std::fprintf(stderr, "error: %s\n", err.c_str());
                return EXIT_RUN_FAILED;
            }
    }
    if (o.fmt == "json")
        std::fputs(json.c_str(), stdout);
    else if (o.fmt == "junit")
        std::fputs(junit.c_str(), stdout);
    else
        std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
    if (!o.quiet)
        std::fprintf(stderr, "fecsim regress: %s in %.1f s; runs and reports in %s\n",
                     o.update           ? "baselines recorded"
                     : rep->regressed() ? "REGRESSED"
                                        : "no regression",
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), final_dir.c_str());
    return rep->regressed() ? EXIT_CHECK_FAILED : EXIT_OK;
}

} // namespace

int cmd_regress(const cli& c, int argc, char** argv)
{
    regress_options o;
    int status = EXIT_OK;
    if (!regress_parse_options(argc, argv, &o, &status))
        return status;
    scenario_files files;
    suite_map suites;
    std::vector<scenario_job> jv;
    if ((status = find_scenarios(o.args, &files)) != EXIT_OK || (status = read_suites(files, &suites)) != EXIT_OK ||
        (status = load_jobs(o, files, suites, &jv)) != EXIT_OK)
        return status;
    for (auto& j : jv)
        if ((status = check_baseline(o, &j)) != EXIT_OK)
            return status;

    // The results directory, built under a temporary name.
    regress_report rep;
    rep.baseline_dir = o.baseline_dir;
    rep.driver = o.driver_dir;
    rep.update = o.update;
    for (gchar** p = o.so.patch; p && *p; p++)
        rep.patches.push_back(*p);
    run_dir rd;
    std::string err;
    if (!rd.open_auto(o.out ? o.out : "results", "regress", run_label(rep.patches, o.driver_dir, o.update), &err) ||
        !make_dirs(rd.tmp_path("logs"), nullptr, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        rd.discard();
        return EXIT_RUN_FAILED;
    }
    const auto t0 = std::chrono::steady_clock::now();
    if ((status = run_scenarios(c, o, &rd, &jv)) != EXIT_OK)
        return status;
    std::vector<std::pair<std::string, std::string>> baselines;  // path, text (--update-baseline)
    if ((status = compare_runs(o, jv, &rd, &rep, &baselines)) != EXIT_OK)
        return status;
    return keep_results(o, &rd, &rep, baselines, t0);
}

} // namespace sim
