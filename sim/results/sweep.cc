// sim/results/sweep.cc: fecsim sweep and fecsim collect.
#include "sim/results/sweep.h"
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include "sim/cli/commands.h"
#include "sim/config/text.h"
#include "sim/results/plot.h"
#include "sim/results/results.h"

namespace sim {

using models::param_desc;
using models::param_kind;

const char* const k_examples_sweep =
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=50ms --vary l2.size=256KiB,512KiB,1MiB --name l2-size\n"
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=20ms --vary "
    "l2.maint_line_cycles=40..120/20 --vary scenario.seed=1..3 -j 2\n"
    "  fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=20ms --vary stress.enabled=false,true --name stress "
    "--emit-jobs\n"
    "  fecsim collect results/imx6q-copybreak-stock-idle/sweep-stress\n";

bool vary_key::numeric() const { return desc && desc->kind != param_kind::choice && desc->kind != param_kind::boolean; }

bool vary_parse(const std::string& spec, const units_context& ctx, vary_key* out, std::string* err)
{
    *out = vary_key();
    const size_t eq = spec.find('=');
    const std::string key = trim(spec.substr(0, eq));
    const size_t dot = key.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == key.size()) {
        *err = "--vary '" + spec + "': expected group.key=v1,v2,... or group.key=lo..hi/step";
        return false;
    }
    const std::string gname = key.substr(0, dot), kname = key.substr(dot + 1);
    const group_entry* g = registry_find(gname);
    if (!g) {
        std::vector<std::string> all;
        for (const auto& x : registry_groups())
            all.push_back(x.name);
        const std::string c = closest_name(gname, all, "[", "]");
        *err = "--vary " + key + ": unknown group [" + gname + "]" + (c.empty() ? "" : "; did you mean " + c + "?");
        return false;
    }
    const param_desc* d = g->find_param(kname);
    const string_key* sk = g->find_string(kname);
    if (!d && !sk) {
        const std::string c = closest_name(kname, g->keys(false));
        *err = "--vary " + key + ": unknown key '" + kname + "' in [" + gname + "]" +
               (c.empty() ? "" : "; did you mean " + c + "?");
        return false;
    }
    if (sk && (sk->load_only || key == "scenario.id")) {
        *err = "--vary " + key + ": this key cannot be varied";
        return false;
    }
    out->name = key;
    out->desc = d;
    const std::string rhs = trim(spec.substr(eq + 1));
    const size_t dd = rhs.find("..");
    if (dd != std::string::npos) {
        if (!out->numeric()) {
            *err = "--vary " + key + ": a lo..hi/step range needs a numeric key; list the values instead";
            return false;
        }
        const size_t sl = rhs.find('/', dd);
        const std::string lo_t = rhs.substr(0, dd);
        const std::string hi_t = rhs.substr(dd + 2, sl == std::string::npos ? std::string::npos : sl - dd - 2);
        std::string step_t = sl == std::string::npos ? "" : rhs.substr(sl + 1);
        double lo, hi, step = 1;
        std::string why;
        if (!units_parse(*d, lo_t, &lo, &why, ctx) || !units_parse(*d, hi_t, &hi, &why, ctx)) {
            *err = "--vary " + key + ": " + why;
            return false;
        }
        if (step_t.empty() && d->kind != param_kind::count && d->kind != param_kind::cycles) {
            *err = "--vary " + key + ": '" + rhs + "' needs a step, e.g. " + units_format(*d, lo) + ".." +
                   units_format(*d, hi) + "/" + units_format(*d, lo > 0 ? lo : 1);
            return false;
        }
        if (!step_t.empty() && !units_parse(*d, step_t, &step, &why, ctx)) {
            *err = "--vary " + key + ": step: " + why;
            return false;
        }
        if (!(step > 0) || hi < lo) {
            *err = "--vary " + key + ": '" + rhs + "' needs lo <= hi and a positive step";
            return false;
        }
        const double n = std::floor((hi - lo) / step * (1 + 1e-12)) + 1;
        if (n > 10000) {
            *err =
                "--vary " + key + ": '" + rhs + "' gives " + std::to_string((long long)n) + " values (at most 10000)";
            return false;
        }
        for (long long i = 0; i < (long long)n; i++) {
            const double v = lo + (double)i * step;
            out->base.push_back(v);
            out->values.push_back(units_format(*d, v));
        }
    } else {
        std::string item;
        std::vector<std::string> items;
        size_t pos = 0;
        for (;;) {
            const size_t c = rhs.find(',', pos);
            items.push_back(trim(rhs.substr(pos, c == std::string::npos ? std::string::npos : c - pos)));
            if (c == std::string::npos)
                break;
            pos = c + 1;
        }
        for (const auto& it : items) {
            if (it.empty()) {
                *err = "--vary " + key + ": empty value in '" + rhs + "'";
                return false;
            }
            if (d) {
                double v;
                std::string why;
                if (!units_parse(*d, it, &v, &why, ctx)) {
                    *err = "--vary " + key + ": " + why;
                    return false;
                }
                out->base.push_back(v);
                out->values.push_back(units_format(*d, v));
            } else {
                // Paths become absolute, so that job lines work from any directory.
                std::string v = it;
                if (sk->kind == str_kind::path || sk->kind == str_kind::path_list) {
                    v.clear();
                    std::string part;
                    std::istringstream ps(it);
                    while (std::getline(ps, part, ';'))
                        v += (v.empty() ? "" : ";") + abs_path(trim(part));
                }
                out->base.push_back(NAN);
                out->values.push_back(v);
            }
        }
    }
    for (size_t i = 0; i < out->values.size(); i++) {
        if (d && !(out->base[i] >= d->min && out->base[i] <= d->max)) {
            *err = "--vary " + key + ": " + out->values[i] + " is out of range: allowed " + units_format(*d, d->min) +
                   " .. " + units_format(*d, d->max);
            return false;
        }
        for (size_t j = 0; j < i; j++)
            if (out->values[j] == out->values[i]) {
                *err = "--vary " + key + ": " + out->values[i] + " is listed twice";
                return false;
            }
    }
    return true;
}

static std::string safe_component(const std::string& s)
{
    std::string r;
    for (char c : s)
        r += (g_ascii_isalnum(c) || c == '.' || c == '_' || c == '-' || c == '=' || c == '+') ? c : '_';
    if (r.size() > 40)
        r.resize(40);
    return r;
}

std::vector<sweep_point> sweep_points(const std::vector<vary_key>& keys)
{
    std::vector<sweep_point> pts;
    size_t total = 1;
    for (const auto& k : keys)
        total *= k.values.size();
    const int width = total > 1000 ? (int)std::to_string(total - 1).size() : 3;
    for (size_t i = 0; i < total; i++) {
        sweep_point p;
        char idx[32];
        std::snprintf(idx, sizeof idx, "p%0*zu", width, i);
        p.name = idx;
        size_t rest = i;
        for (const auto& k : keys) {  // first key fastest
            const std::string& v = k.values[rest % k.values.size()];
            rest /= k.values.size();
            p.overrides.push_back(k.name + "=" + v);
            p.name += "-" + safe_component(k.name + "=" + v);
        }
        pts.push_back(p);
    }
    return pts;
}

// ---------------------------------------------------------------- plan and jobs

static JsonNode* plan_node(const std::string& name, const std::string& hash, const std::string& scenario,
                           const std::vector<vary_key>& keys, const std::vector<sweep_point>& pts)
{
    JsonBuilder* b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "format");
    json_builder_add_string_value(b, "fecsim-sweep-1");
    json_builder_set_member_name(b, "sweep");
    json_builder_add_string_value(b, name.c_str());
    json_builder_set_member_name(b, "hash");
    json_builder_add_string_value(b, hash.c_str());
    json_builder_set_member_name(b, "scenario");
    json_builder_add_string_value(b, scenario.c_str());
    json_builder_set_member_name(b, "varied");
    json_builder_begin_array(b);
    for (const auto& k : keys) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "key");
        json_builder_add_string_value(b, k.name.c_str());
        json_builder_set_member_name(b, "kind");
        json_builder_add_string_value(b, k.desc ? units_kind_name(k.desc->kind) : "text");
        json_builder_set_member_name(b, "unit");
        json_builder_add_string_value(b, k.desc && k.desc->kind != param_kind::choice ? k.desc->unit : "");
        json_builder_set_member_name(b, "numeric");
        json_builder_add_boolean_value(b, k.numeric());
        json_builder_set_member_name(b, "values");
        json_builder_begin_array(b);
        for (const auto& v : k.values)
            json_builder_add_string_value(b, v.c_str());
        json_builder_end_array(b);
        json_builder_set_member_name(b, "base");
        json_builder_begin_array(b);
        for (double v : k.base)
            if (std::isnan(v) || !k.numeric())
                json_builder_add_null_value(b);
            else
                json_builder_add_double_value(b, v);
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "points");
    json_builder_begin_array(b);
    for (const auto& p : pts) {
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "name");
        json_builder_add_string_value(b, p.name.c_str());
        json_builder_set_member_name(b, "overrides");
        json_builder_begin_array(b);
        for (const auto& o : p.overrides)
            json_builder_add_string_value(b, o.c_str());
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    JsonNode* n = json_builder_get_root(b);
    g_object_unref(b);
    return n;
}

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

// ---------------------------------------------------------------- local runner

namespace {
volatile sig_atomic_t g_stop_signal = 0;
void on_stop(int sig) { g_stop_signal = sig; }
} // namespace

struct running {
    pid_t pid;
    size_t point;
    std::chrono::steady_clock::time_point start;
};

pid_t spawn_child(const std::vector<std::string>& argv, const std::string& log)
{
    std::vector<char*> a;
    for (const auto& s : argv)
        a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        const int null = open("/dev/null", O_RDWR);
        const int lf = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
        }
        if (lf >= 0)
            dup2(lf, STDERR_FILENO);
        execv(a[0], a.data());
        std::fprintf(stderr, "cannot run %s: %s\n", a[0], std::strerror(errno));
        _exit(127);
    }
    return pid;
}

static std::string file_text(const std::string& path)
{
    gchar* d = nullptr;
    std::string s;
    if (g_file_get_contents(path.c_str(), &d, nullptr, nullptr))
        s = d;
    g_free(d);
    return s;
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
    if (jobs < 0 || jobs > 1024) {
        std::fprintf(stderr, "error: -j %d: expected 1 .. 1024\n", jobs);
        return EXIT_BAD_INPUT;
    }
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
    JsonNode* plan = plan_node(sname, hash, base.cfg.scenario.id, keys, pts);
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
        !write_file_atomic(dir + "/plan.json", json_to_string(plan, true), &err) ||
        !write_file_atomic(dir + "/jobs.txt", jobs_txt, &err)) {
        json_node_unref(plan);
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return EXIT_RUN_FAILED;
    }
    json_node_unref(plan);

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
    const size_t n_jobs = jobs > 0 ? (size_t)jobs : std::max(1u, std::thread::hardware_concurrency());
    std::vector<size_t> todo;
    size_t done_before = 0;
    for (size_t i = 0; i < pts.size(); i++) {
        if (run_dir_complete(dir + "/" + pts[i].name))
            done_before++;
        else
            todo.push_back(i);
    }
    if (!quiet)
        std::fprintf(stderr, "fecsim sweep: %s\n  %zu points, %zu already finished, %zu to run, %zu at a time\n",
                     dir.c_str(), pts.size(), done_before, todo.size(), std::min(n_jobs, todo.size()));
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    std::vector<running> live;
    size_t next = 0, ran = 0, failed = 0;
    std::vector<std::string> failed_names;
    while ((next < todo.size() || !live.empty()) && !g_stop_signal) {
        while (next < todo.size() && live.size() < n_jobs) {
            const sweep_point& p = pts[todo[next]];
            const pid_t pid = spawn_child(point_argv(c.exe, dir, p), dir + "/logs/" + p.name + ".log");
            if (pid < 0) {
                std::fprintf(stderr, "error: cannot start a process: %s\n", std::strerror(errno));
                g_stop_signal = SIGTERM;
                break;
            }
            live.push_back({pid, todo[next], std::chrono::steady_clock::now()});
            next++;
        }
        int st = 0;
        const pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        auto it = std::find_if(live.begin(), live.end(), [&](const running& r) { return r.pid == pid; });
        if (it == live.end())
            continue;
        const sweep_point& p = pts[it->point];
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - it->start).count();
        live.erase(it);
        ran++;
        const bool ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && run_dir_complete(dir + "/" + p.name);
        if (!ok) {
            failed++;
            failed_names.push_back(p.name);
            std::fprintf(stderr, "fecsim sweep: point %s failed (%s %d); its log, %s/logs/%s.log:\n%s", p.name.c_str(),
                         WIFEXITED(st) ? "exit status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
                         dir.c_str(), p.name.c_str(), file_text(dir + "/logs/" + p.name + ".log").c_str());
        } else if (!quiet) {
            std::fprintf(stderr, "  [%zu/%zu] %s done in %.1f s\n", done_before + ran - failed, pts.size(),
                         p.name.c_str(), secs);
        }
    }
    if (g_stop_signal) {
        for (const auto& r : live)
            kill(r.pid, SIGTERM);
        for (const auto& r : live)
            waitpid(r.pid, nullptr, 0);
        std::fprintf(stderr, "fecsim sweep: interrupted; finished points are kept, run the same command to go on\n");
        signal(g_stop_signal, SIG_DFL);
        raise(g_stop_signal);
        return 128 + g_stop_signal;
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

static std::string csv_cell(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string r = "\"";
    for (char c : s)
        r += c == '"' ? std::string("\"\"") : std::string(1, c);
    return r + "\"";
}

bool sweep_collect(const std::string& dir, size_t* finished, std::vector<std::string>* missing, std::string* err)
{
    JsonParser* parser = json_parser_new();
    GError* e = nullptr;
    if (!json_parser_load_from_file(parser, (dir + "/plan.json").c_str(), &e)) {
        *err = dir + " is not a sweep directory (" + e->message + ")";
        g_error_free(e);
        g_object_unref(parser);
        return false;
    }
    JsonObject* plan = json_node_get_object(json_parser_get_root(parser));
    if (!plan || !json_object_has_member(plan, "points") || !json_object_has_member(plan, "varied")) {
        *err = dir + "/plan.json is not a fecsim sweep plan";
        g_object_unref(parser);
        return false;
    }
    JsonArray* varied = json_object_get_array_member(plan, "varied");
    JsonArray* points = json_object_get_array_member(plan, "points");
    std::vector<std::string> vkeys;
    std::vector<std::vector<std::string>> vvals;
    std::vector<std::vector<std::string>> vbase;
    for (guint i = 0; i < json_array_get_length(varied); i++) {
        JsonObject* v = json_array_get_object_element(varied, i);
        vkeys.push_back(json_object_get_string_member(v, "key"));
        std::vector<std::string> vals, bases;
        JsonArray* va = json_object_get_array_member(v, "values");
        JsonArray* ba = json_object_get_array_member(v, "base");
        for (guint j = 0; j < json_array_get_length(va); j++) {
            vals.push_back(json_array_get_string_element(va, j));
            JsonNode* bn = json_array_get_element(ba, j);
            if (JSON_NODE_HOLDS_NULL(bn)) {
                bases.push_back(vals.back());
            } else {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.17g", json_node_get_double(bn));
                bases.push_back(buf);
            }
        }
        vvals.push_back(vals);
        vbase.push_back(bases);
    }
    struct row {
        std::string name;
        std::vector<std::string> varied_base, varied_text;
        std::vector<std::pair<std::string, std::string>> summary;
    };
    std::vector<row> rows;
    std::vector<std::string> columns;
    *finished = 0;
    missing->clear();
    JsonArray* out_points = json_array_new();
    for (guint i = 0; i < json_array_get_length(points); i++) {
        JsonObject* p = json_array_get_object_element(points, i);
        const std::string pname = json_object_get_string_member(p, "name");
        JsonArray* ov = json_object_get_array_member(p, "overrides");
        row r;
        r.name = pname;
        JsonObject* vals = json_object_new();
        for (guint j = 0; j < json_array_get_length(ov) && j < vkeys.size(); j++) {
            const std::string o = json_array_get_string_element(ov, j);
            const std::string text = o.substr(o.find('=') + 1);
            r.varied_text.push_back(text);
            const auto& vv = vvals[j];
            const size_t at = (size_t)(std::find(vv.begin(), vv.end(), text) - vv.begin());
            r.varied_base.push_back(at < vv.size() ? vbase[j][at] : text);
            json_object_set_string_member(vals, vkeys[j].c_str(), text.c_str());
        }
        JsonObject* po = json_object_new();
        json_object_set_string_member(po, "name", pname.c_str());
        json_object_set_object_member(po, "values", vals);
        const std::string pdir = dir + "/" + pname;
        if (run_dir_complete(pdir)) {
            std::string why;
            JsonParser* sp = json_parser_new();
            if (json_parser_load_from_file(sp, (pdir + "/summary.json").c_str(), nullptr) &&
                json_flatten_file(pdir + "/summary.json", &r.summary, &why)) {
                json_object_set_string_member(po, "status", "finished");
                json_object_set_member(po, "summary", json_node_copy(json_parser_get_root(sp)));
                for (const auto& kv : r.summary)
                    if (std::find(columns.begin(), columns.end(), kv.first) == columns.end())
                        columns.push_back(kv.first);
                rows.push_back(r);
                ++*finished;
            } else {
                json_object_set_string_member(po, "status", "unreadable");
                missing->push_back(pname);
            }
            g_object_unref(sp);
        } else {
            json_object_set_string_member(po, "status", "missing");
            missing->push_back(pname);
        }
        json_array_add_object_element(out_points, po);
    }
    // sweep.csv: point, varied keys (base units; names for choices and text), summary keys.
    std::string csv = "point";
    for (const auto& k : vkeys)
        csv += "," + csv_cell(k);
    for (const auto& c : columns)
        csv += "," + csv_cell(c);
    csv += "\n";
    for (const auto& r : rows) {
        csv += csv_cell(r.name);
        for (const auto& v : r.varied_base)
            csv += "," + csv_cell(v);
        std::map<std::string, std::string> m(r.summary.begin(), r.summary.end());
        for (const auto& c : columns)
            csv += "," + csv_cell(m.count(c) ? m[c] : "");
        csv += "\n";
    }
    JsonObject* root = json_object_new();
    json_object_set_string_member(root, "format", "fecsim-sweep-results-1");
    json_object_set_string_member(root, "sweep", json_object_get_string_member(plan, "sweep"));
    json_object_set_string_member(root, "scenario", json_object_get_string_member(plan, "scenario"));
    json_object_set_member(root, "varied", json_node_copy(json_object_get_member(plan, "varied")));
    json_object_set_int_member(root, "points", json_array_get_length(points));
    json_object_set_int_member(root, "finished", (gint64)*finished);
    json_object_set_boolean_member(root, "complete", missing->empty());
    JsonArray* miss = json_array_new();
    for (const auto& m : *missing)
        json_array_add_string_element(miss, m.c_str());
    json_object_set_array_member(root, "missing", miss);
    json_object_set_array_member(root, "results", out_points);
    JsonNode* n = json_node_init_object(json_node_alloc(), root);
    json_object_unref(root);
    const bool ok = write_file_atomic(dir + "/sweep.csv", csv, err) &&
                    write_file_atomic(dir + "/sweep.json", json_to_string(n, true), err);
    json_node_unref(n);
    g_object_unref(parser);
    return ok;
}

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
