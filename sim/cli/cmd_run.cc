// sim/cli/cmd_run.cc: fecsim run, check and list-params.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <memory>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <systemc>
#include <unistd.h>
#include "common/log.h"
#include "common/trace_events.h"
#include "sim/cli/commands.h"
#include "sim/cli/job_pool.h"
#include "sim/config/docs.h"
#include "sim/config/text.h"
#include "drivers/khost/boot.h"
#include "drivers/khost/coherence.h"
#include "drivers/khost/driver_build.h"
#include "drivers/khost/fault.h"
#include "drivers/khost/khost.h"
#include "sim/results/progress.h"
#include "sim/results/results.h"
#include "sim/soc.h"

namespace sim {

const char* const k_examples_run =
    "  fecsim run\n"
    "  fecsim run scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=200ms --json --quiet\n"
    "  fecsim run scenarios/imx6q/copybreak-stock-idle.ini -o stress.enabled=true -o scenario.duration=2ms\n"
    "  fecsim run scenarios/imx6q/copybreak-patched-stress.ini -o scenario.duration=20ms --seed 3 --out other-results\n";

// SystemC reports go to the model log (sim.log), never to stdout.
static void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions)
{
    if (actions & sc_core::SC_DISPLAY) {
        models::log_level lvl = models::log_level::info;
        switch (rep.get_severity()) {
        case sc_core::SC_INFO: lvl = models::log_level::info; break;
        case sc_core::SC_WARNING: lvl = models::log_level::warn; break;
        default: lvl = models::log_level::error; break;
        }
        models::sim_log(lvl, "systemc", "%s", sc_core::sc_report_compose_message(rep).c_str());
    }
    sc_core::sc_report_handler::default_handler(rep, actions & ~sc_core::SC_DISPLAY);
}

static std::string run_id_for(const resolved_scenario& r)
{
    GDateTime* now = g_date_time_new_now_utc();
    gchar* ts = g_date_time_format(now, "%Y%m%dT%H%M%S");
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s.%03dZ-s%llu-%s", ts, g_date_time_get_microsecond(now) / 1000,
                  (unsigned long long)r.cfg.scenario.seed, scenario_hash(r).c_str());
    g_free(ts);
    g_date_time_unref(now);
    return buf;
}

static std::string cmdline_text(const cli& c)
{
    std::string s;
    for (size_t i = 0; i < c.argv.size(); i++) {
        gchar* q = g_shell_quote(c.argv[i].c_str());
        s += (i ? " " : "") + std::string(q);
        g_free(q);
    }
    gchar* cwd = g_get_current_dir();
    s += std::string("\n# cwd: ") + cwd + "\n# fecsim: " + c.exe + "\n";
    g_free(cwd);
    return s;
}

static int terminal_width()
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 40)
        return ws.ws_col;
    return 0;
}

static int print_existing(const std::string& dir, bool json, bool quiet)
{
    if (!quiet)
        std::fprintf(stderr, "fecsim run: %s already holds a finished run; nothing to do\n", dir.c_str());
    if (json) {
        gchar* data = nullptr;
        if (g_file_get_contents((dir + "/summary.json").c_str(), &data, nullptr, nullptr)) {
            JsonParser* p = json_parser_new();
            if (json_parser_load_from_data(p, data, -1, nullptr)) {
                JsonNode* root = json_node_copy(json_parser_get_root(p));
                json_object_set_string_member(json_node_get_object(root), "results_dir", dir.c_str());
                std::fputs(json_to_string(root, true).c_str(), stdout);
                json_node_unref(root);
            }
            g_object_unref(p);
            g_free(data);
        }
    }
    return EXIT_OK;
}

// ---------------------------------------------------------------- run

// fecsim run's options, as given.
struct run_options {
    scenario_options so;
    gboolean json = false, quiet = false, show_progress = false, strict = false, strict_memory = false;
    gchar* out = nullptr;
    gchar* run_dir_opt = nullptr;
    gchar* trace = nullptr;
    gchar* vcd = nullptr;
    gboolean trace_events = false;
    gchar* trace_functions = nullptr;  // fnmatch globs, ','-separated
    gboolean list_all = false;
    gboolean pcap = false;           // = -o output.pcap_rx=true -o output.pcap_tx=true
    gint watchdog_s = 10;            // wall seconds without simulated progress before the run is stopped
    std::vector<std::string> files;  // the scenario files
    ~run_options() { g_free(out); g_free(run_dir_opt); g_free(trace); g_free(vcd); g_free(trace_functions); }
};

static bool run_parse_options(int argc, char** argv, run_options* o, int* status)
{
    const std::vector<GOptionEntry> e = scenario_option_entries(&o->so, {
        {"json", 0, 0, G_OPTION_ARG_NONE, &o->json,
         "Print the summary as one JSON object on stdout (everything else goes to stderr)", nullptr},
        {"out", 0, 0, G_OPTION_ARG_FILENAME, &o->out, "Results root (default ./results)", "DIR"},
        {"run-dir", 0, 0, G_OPTION_ARG_FILENAME, &o->run_dir_opt,
         "Write the results exactly to DIR instead of <out>/<id>/<run-id>. If DIR already holds a "
         "finished run, or another live run is writing it (its lock .DIR.lock next to it), do nothing "
         "(exit 0: this is what makes sweeps resumable and a point submitted twice run once)",
         "DIR"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "No summary and no progress on stderr", nullptr},
        {"watchdog", 0, 0, G_OPTION_ARG_INT, &o->watchdog_s,
         "Stop the run, naming the driver code it is in, when simulated time stands still for SECONDS of wall "
         "time (default 10; 0: never)",
         "SECONDS"},
        {"strict-coherence", 0, 0, G_OPTION_ARG_NONE, &o->strict,
         "Exit with status 1 if the DMA coherence checker reports any violation (results are kept)",
         nullptr},
        {"strict-memory", 0, 0, G_OPTION_ARG_NONE, &o->strict_memory,
         "Exit with status 1 if the memory checks report anything: heap out of bounds, use after free, double or "
         "invalid free, leak (results are kept)",
         nullptr},
        {"progress", 0, 0, G_OPTION_ARG_NONE, &o->show_progress,
         "Show progress even when stderr is not a terminal", nullptr},
        {"trace", 0, 0, G_OPTION_ARG_STRING, &o->trace,
         "Trace components into sim.log: l1,l2,dram,noc,stress,mac,desc,dma,cpu,shim,traffic or all",
         "COMPONENTS"},
        {"trace-events", 0, 0, G_OPTION_ARG_NONE, &o->trace_events,
         "Write trace.json into the results directory: what each core did (hardirq, softirq, NAPI polls, tasks, "
         "kernel functions) and the MAC's events, in the Chrome trace-event format (ui.perfetto.dev, "
         "chrome://tracing)",
         nullptr},
        {"trace-functions", 0, 0, G_OPTION_ARG_STRING, &o->trace_functions,
         "With --trace-events: the kernel-code functions to record, as ','-separated shell globs (default fec_*; "
         "'*' for all, the shim's included; '' for none)",
         "GLOBS"},
        {"vcd", 0, 0, G_OPTION_ARG_FILENAME, &o->vcd,
         "Write a VCD waveform of the signals the models register (written directly, not part of the "
         "results directory)",
         "FILE"},
        {"pcap", 0, 0, G_OPTION_ARG_NONE, &o->pcap,
         "Capture the link in the run directory: rx.pcap (what the MAC received) and tx.pcap (what it sent), "
         "for tcpdump -r or Wireshark (= -o output.pcap_rx=true -o output.pcap_tx=true)",
         nullptr},
        {"list-params", 0, 0, G_OPTION_ARG_NONE, &o->list_all, "List every scenario key and exit", nullptr},
    });
    return parse_command("run", "[SCENARIO...]",
                         "Simulate a scenario: the files are layered in order (later files override earlier ones),\n"
                         "then -o, --seed and --patch. Without a file, the built-in default scenario runs\n"
                         "(scenarios/default.ini: i.MX6Q, stock driver, copybreak, idle).\n"
                         "Results: <out>/<scenario-id>/<run-id>/ with scenario.resolved.ini, stats.json,\n"
                         "stats.txt, summary.json, series.csv, cmdline.txt, version.txt and sim.log.",
                         k_examples_run, e, argc, argv, &o->files, status);
}

// run_open(): the --run-dir is locked by a live run (run_dir.h); not an
// error, this command has nothing to do (exit status 0).
constexpr int k_run_skipped = -1;

// Open the run directory (removed again on SIGINT/SIGTERM/SIGHUP) and write
// what the run starts from: the resolved scenario, the command line, the
// version. EXIT_OK, else the exit status (rd discarded).
static int run_open(const cli& c, const run_options& o, const resolved_scenario& r, const std::string& run_id,
                    run_dir* rd)
{
    std::string err;
    const bool opened = o.run_dir_opt ? rd->open_fixed(o.run_dir_opt, &err)
                                      : rd->open_auto(o.out ? o.out : "results", r.cfg.scenario.id, run_id, &err);
    if (!opened && rd->busy()) {  // --run-dir of a live run elsewhere: that run does the work (said also with -q)
        std::fprintf(stderr, "fecsim run: %s; skipped\n", err.c_str());
        return k_run_skipped;
    }
    if (!opened) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        return o.run_dir_opt ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
    }
    run_dir_install_signal_cleanup(rd);
    const std::string header = " fecsim resolved scenario: every key of every group, defaults included.\n"
                               " Run it again with: fecsim run scenario.resolved.ini\n"
                               " Read from: " +
                               [&] {
                                   std::string f;
                                   for (const auto& x : r.files)
                                       f += (f.empty() ? "" : ", ") + x;
                                   return f.empty() ? std::string("(no file)") : f;
                               }();
    const std::string driver_text = tree_driver_text(r.cfg.driver);
    if (!rd->write("scenario.resolved.ini", scenario_dump(r, header), &err) ||
        !rd->write("cmdline.txt", cmdline_text(c), &err) || !rd->write("version.txt", version_text() + driver_text, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        rd->discard();
        return EXIT_RUN_FAILED;
    }
    // A hunk applied with fuzz matched only part of its context: say so, the
    // driver that ran may not be the one the patch meant.
    std::istringstream lines(driver_text);
    std::string patch_line;
    for (std::string l; std::getline(lines, l);) {
        if (l.rfind("  patch ", 0) == 0)
            patch_line = l.substr(8, l.find(" (") - 8);
        else if (l.rfind("    Hunk #", 0) == 0 && l.find(" with fuzz ") != std::string::npos) {
            const std::string h = l.substr(4, l.back() == '.' ? l.size() - 5 : std::string::npos);
            std::fprintf(stderr,
                         "%s%s: %s: its context differs from the driver's files; check what it changed "
                         "(version.txt)\n",
                         k_fuzz_warning_head, patch_line.c_str(), h.c_str());
        }
    }
    return EXIT_OK;
}

// Elaborate the models (*s, and *prog when progress is shown) and simulate,
// the model log going to the run directory's sim.log (left open for the
// caller). EXIT_OK, else the exit status (rd discarded).
// SystemC's text around an exception from a process ("Error: (E549)
// uncaught exception: ... In file: ... In process: ...") less the wrapping.
static std::string exception_message(const std::exception& ex)
{
    std::string m = ex.what();
    static const char k_pre[] = "uncaught exception: ";
    const size_t p = m.find(k_pre);
    if (m.compare(0, 7, "Error: ") == 0 && p != std::string::npos)
        m = m.substr(p + sizeof k_pre - 1);
    const size_t f = m.find("\nIn file: ");
    if (f != std::string::npos)
        m.resize(f);
    return m;
}

// The kernel log's last lines of level KERN_WARNING or more urgent (all
// levels: every line), as stderr shows them after a failure.
static std::string kernel_log_text(bool all)
{
    std::string t;
    for (const auto& l : khost::kernel_log_tail(20))
        if (all || l.level <= 4)
            t += "  kernel: " + message_text(l.text, 256) + "\n";
    return t;
}

// The summary.json of a run that stopped before its end: scenario, seed,
// run id, "incomplete": true (the caller adds why).
static JsonObject* stopped_summary(const resolved_scenario& r, const std::string& run_id)
{
    JsonObject* sum = json_object_new();
    json_object_set_string_member(sum, "scenario", r.cfg.scenario.id.c_str());
    json_object_set_int_member(sum, "seed", (gint64)r.cfg.scenario.seed);
    json_object_set_string_member(sum, "run_id", run_id.c_str());
    json_object_set_boolean_member(sum, "incomplete", true);
    return sum;
}

// Close the model log and put the run directory of a stopped run in place
// (wrote: its files were written). False, the error printed and the
// directory discarded, if that failed.
static bool commit_stopped(run_dir* rd, bool wrote, std::string* err, std::string* final_dir)
{
    bool already = false;
    models::log_set_file(nullptr);
    if (!wrote || !rd->commit(final_dir, &already, err)) {
        std::fprintf(stderr, "error: %s\n", err->c_str());
        rd->discard();
        return false;
    }
    run_dir_install_signal_cleanup(nullptr);
    return true;
}

// --trace-events: the recorder of the run's timeline, its threads named.
static void timeline_start(const run_options& o, const resolved_scenario& r)
{
    const size_t max_events = 4000000;  // 128 MB of events at most; later ones are counted as dropped
    auto* t = new models::trace_recorder(max_events);
    for (unsigned i = 0; i < r.cfg.cpu.cores; i++) {
        t->name_thread(models::te_track::cpu, i, "CPU" + std::to_string(i));
        t->name_thread(models::te_track::driver, i, "CPU" + std::to_string(i) + " functions");
    }
    t->name_thread(models::te_track::mac, 0, "RX");
    t->name_thread(models::te_track::mac, 1, "TX");
    t->name_thread(models::te_track::mac, 2, "IRQ line");
    models::g_trace = t;
    std::vector<std::string> globs;
    for (const auto& g : split_trimmed(o.trace_functions ? o.trace_functions : "fec_*", ','))
        if (!g.empty())
            globs.push_back(g);
    khost::trace_functions(globs);
}

// trace.json into the run directory (nothing without --trace-events).
static bool timeline_write(run_dir* rd, std::string* err)
{
    models::trace_recorder* t = models::g_trace;
    if (!t)
        return true;
    models::g_trace = nullptr;
    khost::trace_functions({});
    if (t->dropped())
        models::sim_log(models::log_level::warn, "fecsim", "trace.json: %llu events past the first %zu dropped",
                        (unsigned long long)t->dropped(), t->size());
    const bool ok = rd->write("trace.json", t->json(), err);
    delete t;
    return ok;
}

// What a driver fault leaves, the run directory put in place: sim.log, the
// counters at the stop (stats.json marked incomplete, stats.txt) and a
// summary.json that names the fault instead of the run's metrics.
// Returns EXIT_RUN_FAILED. Also called from the fault guard's signal handler.
static int run_keep_fault(const run_options& o, const resolved_scenario& r, const std::string& run_id, soc& s,
                          const khost::fault_report& f, run_dir* rd)
{
    models::sim_log(models::log_level::error, "fecsim", "driver fault: %s", f.text().c_str());
    s.faulted();
    s.flush_captures();
    const auto raw = stats_collect(s);
    const auto der = stats_derive(raw);
    JsonObject* sum = stopped_summary(r, run_id);
    JsonObject* fo = json_object_new();
    json_object_set_string_member(fo, "kind", f.kind.c_str());
    json_object_set_string_member(fo, "detail", f.detail.c_str());
    json_object_set_string_member(fo, "where", f.where.c_str());
    JsonArray* chain = json_array_new();
    for (const auto& c : f.chain)
        json_array_add_string_element(chain, c.c_str());
    json_object_set_array_member(fo, "called_from", chain);
    json_object_set_int_member(fo, "core", f.core);
    json_object_set_double_member(fo, "sim_time_s", (double)f.sim_time_ps / 1e12);
    json_object_set_object_member(sum, "fault", fo);
    const std::string summary = json_object_text(sum);
    std::string err, final_dir;
    const bool wrote = timeline_write(rd, &err) && rd->write("stats.json", stats_json(r, raw, der, f.kind + " in " + f.where), &err) &&
                       rd->write("stats.txt", stats_txt(r, raw, der), &err) &&
                       rd->write("summary.json", summary, &err);
    if (!commit_stopped(rd, wrote, &err, &final_dir))
        return EXIT_RUN_FAILED;
    std::fprintf(stderr, "fecsim run: driver fault: %s\n%sfecsim run: the run stopped; what it had is in %s\n",
                 f.text().c_str(), kernel_log_text(false).c_str(), final_dir.c_str());
    if (o.json) {
        std::fputs(summary.c_str(), stdout);
        std::fflush(stdout);
    }
    return EXIT_RUN_FAILED;
}

// The driver did not come up (init, probe or ndo_open failed): the run
// directory is put in place with what there is (sim.log with the kernel log,
// the resolved scenario, the command line) and a summary.json naming the
// failure and the driver's messages. Returns EXIT_RUN_FAILED.
static int run_keep_boot_failure(const run_options& o, const resolved_scenario& r, const std::string& run_id,
                                 const std::string& why, run_dir* rd)
{
    models::sim_log(models::log_level::error, "fecsim", "%s", why.c_str());
    JsonObject* sum = stopped_summary(r, run_id);
    JsonObject* bo = json_object_new();
    json_object_set_string_member(bo, "error", why.c_str());
    JsonArray* lines = json_array_new();
    for (const auto& l : khost::kernel_log_tail(256))
        json_array_add_string_element(lines, l.text.c_str());
    json_object_set_array_member(bo, "kernel_log", lines);
    json_object_set_object_member(sum, "boot", bo);
    const std::string summary = json_object_text(sum);
    std::string err, final_dir;
    const bool wrote = timeline_write(rd, &err) && rd->write("summary.json", summary, &err);
    if (!commit_stopped(rd, wrote, &err, &final_dir))
        return EXIT_RUN_FAILED;
    std::fprintf(stderr, "fecsim run: %s\n%sfecsim run: the driver did not come up; its kernel log is in %s/sim.log\n",
                 why.c_str(), kernel_log_text(true).c_str(), final_dir.c_str());
    if (o.json) {
        std::fputs(summary.c_str(), stdout);
        std::fflush(stdout);
    }
    return EXIT_RUN_FAILED;
}

// The message for a configuration elaboration refused: "<kind>: <what>" at
// the key set last among those the message names, else, for the driver's
// build and boot (driver), at the driver key that selects its code set last
// (a patch, a define, the tree or source); with neither set, at `file` (the
// scenario; none: no place).
static std::string refusal(const resolved_scenario& r, const std::string& file, const std::string& kind,
                           const char* what, bool driver)
{
    origin at = origin_of_named_keys(r, what);
    if (at.file.empty() && driver)
        at = origin_of_named_keys(r, "driver.patches driver.defines driver.tree driver.source driver.name");
    const std::string m = kind + ": " + what;
    if (at.file.empty() && !file.empty())
        return message_text(file, k_message_max_path_chars) + ": " + diag(at, m);
    return diag(at, m);
}

static int run_simulate(const run_options& o, const resolved_scenario& r, const std::string& run_id, uint32_t flags,
                        run_dir* rd, std::unique_ptr<soc>* s, std::unique_ptr<progress>* prog, run_summary* sum)
{
    models::log_set_file(rd->tmp_path("sim.log").c_str());
    models::g_trace_flags = flags;
    sc_core::sc_report_handler::set_handler(report_handler);
    soc_config cfg = r.cfg;
    cfg.output.pcap_rx_file = rd->tmp_path("rx.pcap");
    cfg.output.pcap_tx_file = rd->tmp_path("tx.pcap");
    if (o.trace_events)
        timeline_start(o, r);
    try {
        s->reset(new soc(cfg));
    } catch (const khost::driver_io_error& ex) {
        models::log_set_file(nullptr);
        std::fprintf(stderr, "error: driver build: %s\n", ex.what());
        rd->discard();
        return EXIT_RUN_FAILED;
    } catch (const khost::driver_error& ex) {
        models::log_set_file(nullptr);
        std::fprintf(stderr, "%s\n", refusal(r, "", "driver", ex.what(), true).c_str());
        rd->discard();
        return EXIT_BAD_INPUT;
    } catch (const std::exception& ex) {
        models::log_set_file(nullptr);
        std::fprintf(stderr, "%s\n", refusal(r, "", "the models reject this configuration", ex.what(), false).c_str());
        rd->discard();
        return EXIT_BAD_INPUT;
    }
    sc_core::sc_trace_file* tf = nullptr;
    if (o.vcd) {
        std::string base = o.vcd;
        if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
            base.resize(base.size() - 4);  // SystemC appends .vcd
        tf = sc_core::sc_create_vcd_trace_file(base.c_str());
        if (!tf) {
            std::fprintf(stderr, "error: --vcd %s: cannot create the file\n", o.vcd);
            rd->discard();
            return EXIT_BAD_INPUT;
        }
        (*s)->trace(tf);
    }
    const bool tty = isatty(STDERR_FILENO);
    if (o.show_progress || (tty && !o.quiet))
        prog->reset(
            new progress("fecsim_progress", r.cfg.scenario.warmup_ps, r.cfg.scenario.duration_ps, stderr, tty));
    try {
        khost::fault_guard guard(o.watchdog_s, [&](const khost::fault_report& f) {
            if (*prog)
                (*prog)->finish();
            run_keep_fault(o, r, run_id, **s, f, rd);
        });
        *sum = (*s)->run();
    } catch (const std::exception& ex) {
        khost::stack_unwound_here();
        if (*prog)
            (*prog)->finish();
        if (const khost::fault_report* f = khost::last_fault())
            return run_keep_fault(o, r, run_id, **s, *f, rd);
        if (const std::string* why = khost::boot_failure())
            return run_keep_boot_failure(o, r, run_id, *why, rd);
        const std::string m = exception_message(ex);
        models::sim_log(models::log_level::error, "fecsim", "simulation failed: %s", m.c_str());
        models::log_set_file(nullptr);
        std::fprintf(stderr, "error: the simulation failed: %s\n%s", m.c_str(), kernel_log_text(false).c_str());
        rd->discard();
        return EXIT_RUN_FAILED;
    }
    if (*prog)
        (*prog)->finish();
    if (tf)
        sc_core::sc_close_vcd_trace_file(tf);
    std::string err;
    if (!timeline_write(rd, &err)) {
        std::fprintf(stderr, "error: %s\n", err.c_str());
        rd->discard();
        return EXIT_RUN_FAILED;
    }
    return EXIT_OK;
}

// The summary.json keys beyond the simulation's own.
static summary_extra run_extra(const resolved_scenario& r, const std::string& run_id)
{
    summary_extra x;
    x.run_id = run_id;
    x.config_hash = scenario_hash(r);
    x.description = r.cfg.scenario.description;
    x.version = PACKAGE_VERSION;
    x.warmup_s = (double)r.cfg.scenario.warmup_ps / 1e12;
    x.driver = driver_summary_text(r.cfg.driver);
    if (auto it = r.strings.find("driver.patches"); it != r.strings.end())
        x.patches = it->second;
    x.log_errors = models::log_count(models::log_level::error);
    x.log_guest_errors = models::log_count(models::log_level::guest_error);
    x.log_unimplemented = models::log_count(models::log_level::unimp);
    x.log_warnings = models::log_count(models::log_level::warn);
    return x;
}

// Write the statistics, series and summary, close the model log and put
// the run directory in place; then the summary on stderr and (--json)
// stdout. Returns the command's exit status.
static int run_finish(const run_options& o, const resolved_scenario& r, const std::string& run_id, const soc& s,
                      const run_summary& sum, run_dir* rd)
{
    const summary_extra x = run_extra(r, run_id);
    s.flush_captures();
    const auto raw = stats_collect(s);
    const auto der = stats_derive(raw);
    JsonNode* node = summary_node(sum, x);
    std::string err;
    const bool wrote = rd->write("stats.json", stats_json(r, raw, der), &err) &&
                       rd->write("stats.txt", stats_txt(r, raw, der), &err) &&
                       rd->write("series.csv", series_csv(s.series_columns(), s.series()), &err) &&
                       rd->write("summary.json", json_to_string(node, true), &err) &&
                       (r.cfg.driver.tree.empty() || rd->write("driver.txt", s.driver_report(), &err));
    models::log_set_file(nullptr);
    std::string final_dir;
    bool already = false;
    if (!wrote || !rd->commit(&final_dir, &already, &err)) {
        json_node_unref(node);
        std::fprintf(stderr, "error: %s\n", err.c_str());
        rd->discard();
        return EXIT_RUN_FAILED;
    }
    run_dir_install_signal_cleanup(nullptr);
    if (already) {
        json_node_unref(node);
        return print_existing(final_dir, o.json, o.quiet);
    }
    if (!o.quiet) {
        std::fputs(summary_text(sum, x, final_dir).c_str(), stderr);
        std::fputs(s.driver_report().c_str(), stderr);
    }
    if (o.json) {
        json_object_set_string_member(json_node_get_object(node), "results_dir", final_dir.c_str());
        std::fputs(json_to_string(node, true).c_str(), stdout);
        std::fflush(stdout);
    }
    json_node_unref(node);
    if (o.strict_memory) {
        uint64_t n = 0;
        for (const auto& v : sum.violations)
            if (khost::cv_kind_is_memory_check(v.kind))
                n += v.count;
        if (n) {
            std::fprintf(stderr, "fecsim run: --strict-memory: %llu memory error%s\n", (unsigned long long)n,
                         n == 1 ? "" : "s");
            return EXIT_CHECK_FAILED;
        }
    }
    if (o.strict && sum.coherence_violations) {
        std::fprintf(stderr, "fecsim run: --strict-coherence: %llu DMA coherence violation%s\n",
                     (unsigned long long)sum.coherence_violations, sum.coherence_violations == 1 ? "" : "s");
        return EXIT_CHECK_FAILED;
    }
    return EXIT_OK;
}

int cmd_run(const cli& c, int argc, char** argv)
{
    run_options o;
    int status = EXIT_OK;
    if (!run_parse_options(argc, argv, &o, &status))
        return status;
    if (o.list_all) {
        std::fputs(params_text("", terminal_width()).c_str(), stdout);
        return EXIT_OK;
    }
    uint32_t flags = 0;
    if (o.trace) {
        std::string err;
        if (!models::trace_parse(o.trace, &flags, &err)) {
            std::fprintf(stderr, "error: --trace: %s\n", err.c_str());
            return EXIT_BAD_INPUT;
        }
    }
    resolved_scenario r;
    const std::vector<std::string> pcap_keys = {"output.pcap_rx=true", "output.pcap_tx=true"};
    if ((status = load_scenario(o.files, o.so, &r, o.pcap ? pcap_keys : std::vector<std::string>())) != EXIT_OK)
        return status;
    if (o.run_dir_opt && run_dir_complete(o.run_dir_opt))
        return print_existing(o.run_dir_opt, o.json, o.quiet);
    if (o.vcd && g_file_test(o.vcd, G_FILE_TEST_IS_DIR)) {
        std::fprintf(stderr, "error: --vcd %s: is a directory\n", o.vcd);
        return EXIT_BAD_INPUT;
    }
    const std::string run_id = run_id_for(r);
    run_dir rd;
    std::unique_ptr<soc> s;
    std::unique_ptr<progress> prog;
    run_summary sum;
    if ((status = run_open(c, o, r, run_id, &rd)) == k_run_skipped)
        return EXIT_OK;
    if (status != EXIT_OK ||
        (status = run_simulate(o, r, run_id, flags, &rd, &s, &prog, &sum)) != EXIT_OK)
        return status;
    return run_finish(o, r, run_id, *s, sum, &rd);
}

// ---------------------------------------------------------------- check

int cmd_check(const cli&, int argc, char** argv)
{
    scenario_options so;
    gboolean quiet = false;
    const std::vector<GOptionEntry> e = scenario_option_entries(&so, {
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print errors only", nullptr},
    });
    std::vector<std::string> files;
    int status = EXIT_OK;
    if (!parse_command("check", "SCENARIO...",
                       "Validate each scenario file on its own (with its includes and the options): every\n"
                       "group, key, value, unit and range, the cross-key rules, and that the models accept\n"
                       "the configuration (they are elaborated, not simulated). Nothing is written.",
                       "  fecsim check scenarios/imx6q/*.ini\n"
                       "  fecsim check scenarios/imx6q/copybreak-stock-idle.ini -o l1.size=64KiB\n",
                       e, argc, argv, &files, &status))
        return status;
    if (files.empty())
        return usage_error("check", "no scenario file given");
    int bad = 0, io_failed = 0;
    for (const auto& f : files) {
        resolved_scenario r;
        if (load_scenario({f}, so, &r) != EXIT_OK) {
            bad++;
            continue;
        }
        // Elaborate in a child: SystemC allows one elaboration per process.
        std::fflush(stdout);
        std::fflush(stderr);
        const pid_t pid = fork();
        if (pid == 0) {
            models::log_set_file("/dev/null");
            sc_core::sc_report_handler::set_handler(report_handler);
            try {
                soc s(r.cfg);
            } catch (const khost::driver_io_error& ex) {
                std::fprintf(stderr, "%s: error: driver build: %s\n", f.c_str(), ex.what());
                std::fflush(stderr);
                _exit(EXIT_RUN_FAILED);
            } catch (const khost::driver_error& ex) {
                std::fprintf(stderr, "%s\n", refusal(r, f, "driver", ex.what(), true).c_str());
                std::fflush(stderr);
                _exit(EXIT_BAD_INPUT);
            } catch (const std::exception& ex) {
                std::fprintf(stderr, "%s\n",
                             refusal(r, f, "the models reject this configuration", ex.what(), false).c_str());
                std::fflush(stderr);
                _exit(EXIT_BAD_INPUT);
            }
            _exit(EXIT_OK);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            if (pid < 0 || !WIFEXITED(st))
                std::fprintf(stderr, "%s: error: elaboration crashed\n", f.c_str());
            else if (WEXITSTATUS(st) == EXIT_RUN_FAILED)
                io_failed++;  // the driver could not be built: nothing was checked
            bad++;
            continue;
        }
        if (!quiet)
            std::printf("%s: ok: scenario %s, %zu keys set, %zu from defaults\n", f.c_str(), r.cfg.scenario.id.c_str(),
                        r.set_at.size(), [&] {
                            size_t n = 0;
                            for (const auto& g : registry_groups())
                                n += g.keys(false).size();
                            return n - std::min(n, r.set_at.size());
                        }());
    }
    return io_failed ? EXIT_RUN_FAILED : bad ? EXIT_BAD_INPUT : EXIT_OK;
}

// ---------------------------------------------------------------- list-params

// The derived formulas of stats.json over the counters, as the docs list them.
static std::vector<stat_entry> derived_docs(const std::vector<stat_entry>& stats)
{
    std::vector<stat_entry> out;
    for (const auto& d : stats_derive(stats))
        out.push_back({d.name, 0, d.desc, d.unit});
    return out;
}

static std::vector<stat_entry> default_stats()
{
    models::log_set_file("/dev/null");
    sc_core::sc_report_handler::set_handler(report_handler);
    soc s{soc_config()};
    auto v = stats_collect(s);
    models::log_set_file(nullptr);
    return v;
}

int cmd_list_params(const cli&, int argc, char** argv)
{
    gboolean markdown = false, names = false, keys = false;
    std::vector<GOptionEntry> e = {
        {"markdown", 0, 0, G_OPTION_ARG_NONE, &markdown,
         "Markdown: without GROUP the scenario-format document, with GROUP the docs/models page "
         "(parameters and statistics)",
         nullptr},
        {"names", 0, 0, G_OPTION_ARG_NONE, &names, "Only the group names (with --markdown: the docs/models page names)",
         nullptr},
        {"keys", 0, 0, G_OPTION_ARG_NONE, &keys,
         "Only the keys a scenario or -o may set, as GROUP.KEY, one per line (the shell completion's list)",
         nullptr},
    };
    std::vector<std::string> args;
    int status = EXIT_OK;
    if (!parse_command("list-params", "[GROUP]",
                       "List the scenario groups and their keys: type, unit, default, allowed range and meaning,\n"
                       "straight from the parameter tables.",
                       "  fecsim list-params\n"
                       "  fecsim list-params l2\n"
                       "  fecsim list-params --markdown > scenario-format.md\n",
                       e, argc, argv, &args, &status))
        return status;
    if (args.size() > 1) {
        std::fprintf(stderr, "fecsim list-params: one GROUP at most\n");
        return EXIT_BAD_INPUT;
    }
    const std::string group = args.empty() ? "" : args[0];
    std::vector<stat_entry> stats;
    if (markdown && (names || !group.empty()))
        stats = default_stats();
    if (!group.empty() && !registry_find(group)) {
        const auto pages = docs_model_pages(stats);
        if (!(markdown && std::find(pages.begin(), pages.end(), group) != pages.end())) {
            std::vector<std::string> all;
            for (const auto& g : registry_groups())
                all.push_back(g.name);
            const std::string guess = closest_name(group, all, "[", "]");
            std::fprintf(stderr, "error: unknown group [%s]%s\n", group.c_str(),
                         guess.empty() ? "" : ("; did you mean " + guess + "?").c_str());
            return EXIT_BAD_INPUT;
        }
    }
    if (keys) {
        if (markdown || names) {
            std::fprintf(stderr, "fecsim list-params: --keys goes with neither --markdown nor --names\n");
            return EXIT_BAD_INPUT;
        }
        for (const auto& g : registry_groups())
            if (group.empty() || group == g.name)
                for (const auto& k : g.keys(false))
                    std::printf("%s.%s\n", g.name, k.c_str());
        return EXIT_OK;
    }
    if (names) {
        if (markdown)
            for (const auto& p : docs_model_pages(stats))
                std::printf("%s\n", p.c_str());
        else
            for (const auto& g : registry_groups())
                std::printf("%s\n", g.name);
        return EXIT_OK;
    }
    if (markdown)
        std::fputs(group.empty() ? params_markdown_format().c_str() : params_markdown_model(group, stats, derived_docs(stats)).c_str(),
                   stdout);
    else
        std::fputs(params_text(group, terminal_width()).c_str(), stdout);
    return EXIT_OK;
}

} // namespace sim
