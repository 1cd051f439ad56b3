#include "sim/results/report.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <glib.h>
#include <map>
#include "sim/config/scenario.h"
#include "sim/results/json.h"

namespace sim {

namespace {

struct run_counters {
    std::map<std::string, std::string> v;  // "counters.cpu0.irq_ps" -> "123" (stats.json, flattened)
    std::vector<std::string> order;        // names in document order
    unsigned cores = 0;
    unsigned irq_core = 0;
    double seconds = 0;                    // measured time
    std::string scenario, date;            // header of the sysstat formats
    std::vector<std::pair<std::string, std::string>> summary;  // summary.json, flattened

    double num(const std::string& name) const
    {
        auto it = v.find(name);
        return it == v.end() ? 0 : std::strtod(it->second.c_str(), nullptr);
    }
    unsigned long long count(const std::string& name) const
    {
        auto it = v.find(name);
        return it == v.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
    }
};

// kernel.irq_core of the run's resolved scenario (0 when it does not say).
unsigned resolved_irq_core(const std::string& path)
{
    GKeyFile* kf = g_key_file_new();
    unsigned core = 0;
    if (g_key_file_load_from_file(kf, path.c_str(), G_KEY_FILE_NONE, nullptr)) {
        gchar* s = g_key_file_get_value(kf, "kernel", "irq_core", nullptr);
        if (s)
            core = (unsigned)std::strtoul(s, nullptr, 10);
        g_free(s);
    }
    g_key_file_free(kf);
    return core;
}

bool load(const std::string& dir, run_counters* rc, std::string* err)
{
    if (!g_file_test(dir.c_str(), G_FILE_TEST_IS_DIR)) {
        *err = message_path(dir) + ": not a directory (give a run directory, results/<scenario>/<run-id>)";
        return false;
    }
    const std::string stats = dir + "/stats.json";
    if (!g_file_test(stats.c_str(), G_FILE_TEST_IS_REGULAR)) {
        *err = message_path(dir) + ": no stats.json: not the directory of a finished run";
        return false;
    }
    std::vector<std::pair<std::string, std::string>> flat;
    if (!json_flatten_file(stats, &flat, err)) {
        *err = message_path(stats) + ": " + *err;
        return false;
    }
    for (auto& [k, val] : flat) {
        rc->order.push_back(k);
        rc->v[k] = val;
    }
    if (rc->v.count("incomplete") && rc->v["incomplete"] == "true") {
        *err = message_path(stats) + ": the run stopped before the end (incomplete); its counters are not a measurement";
        return false;
    }
    if (!rc->v.count("duration_ps") || !rc->v.count("counters.cpu0.idle_ps")) {
        *err = message_path(stats) + ": not a fecsim stats.json (no duration_ps or counters.cpu0)";
        return false;
    }
    while (rc->v.count("counters.cpu" + std::to_string(rc->cores) + ".idle_ps"))
        rc->cores++;
    rc->seconds = rc->num("duration_ps") / 1e12;
    rc->scenario = rc->v["scenario"];
    rc->irq_core = resolved_irq_core(dir + "/scenario.resolved.ini");
    // The run id (summary.json) starts with the UTC date: 20261201T114248.919Z-...
    std::vector<std::pair<std::string, std::string>> sum;
    std::string ignored, id;
    if (json_flatten_file(dir + "/summary.json", &sum, &ignored))
        for (const auto& [k, val] : sum)
            if (k == "run_id")
                id = val;
    rc->summary = sum;
    rc->date = id.size() >= 8 && id.find_first_not_of("0123456789") >= 8
                   ? id.substr(4, 2) + "/" + id.substr(6, 2) + "/" + id.substr(2, 2)
                   : "01/01/70";
    return true;
}

std::string header(const run_counters& rc)
{
    char b[256];
    std::snprintf(b, sizeof b, "Linux 5.4.0-fecsim (%s) \t%s \t_armv7l_\t(%u CPU)\n\n", rc.scenario.c_str(),
                  rc.date.c_str(), rc.cores);
    return b;
}

std::string ethtool(const run_counters& rc)
{
    std::string o = "NIC statistics:\n";
    static const std::string pre = "counters.ethtool.";
    for (const auto& k : rc.order)
        if (k.compare(0, pre.size(), pre) == 0)
            o += "     " + k.substr(pre.size()) + ": " + rc.v.at(k) + "\n";
    return o;
}

std::string mpstat(const run_counters& rc)
{
    static const char* const cols[] = {"%usr", "%nice", "%sys", "%iowait", "%irq", "%soft",
                                       "%steal", "%guest", "%gnice", "%idle"};
    char b[256];
    std::string o = header(rc);
    std::snprintf(b, sizeof b, "%-11s%5s", "Average:", "CPU");
    o += b;
    for (const char* c : cols) {
        std::snprintf(b, sizeof b, " %7s", c);
        o += b;
    }
    o += "\n";
    // Per core: user, sys, irq, softirq, idle picoseconds as the kernel books
    // them (acct_*: what /proc/stat holds); all: their sums.
    std::vector<std::vector<double>> t;
    std::vector<double> all(5, 0);
    for (unsigned c = 0; c < rc.cores; c++) {
        const std::string p = "counters.cpu" + std::to_string(c) + ".acct_";
        t.push_back({rc.num(p + "user_ps"), rc.num(p + "sys_ps"), rc.num(p + "irq_ps"), rc.num(p + "softirq_ps"),
                     rc.num(p + "idle_ps")});
        for (int i = 0; i < 5; i++)
            all[i] += t.back()[i];
    }
    auto line = [&](const std::string& cpu, const std::vector<double>& x) {
        const double sum = x[0] + x[1] + x[2] + x[3] + x[4];
        auto pc = [&](double v) { return sum > 0 ? 100.0 * v / sum : 0.0; };
        const double vals[] = {pc(x[0]), 0, pc(x[1]), 0, pc(x[2]), pc(x[3]), 0, 0, 0, pc(x[4])};
        std::snprintf(b, sizeof b, "%-11s%5s", "Average:", cpu.c_str());
        o += b;
        for (double v : vals) {
            std::snprintf(b, sizeof b, " %7.2f", v);
            o += b;
        }
        o += "\n";
    };
    line("all", all);
    for (unsigned c = 0; c < rc.cores; c++)
        line(std::to_string(c), t[c]);
    return o;
}

// top -b's task lines, reduced to the columns a run has: %CPU (the task's
// run time over the measured time), P (its core) and COMMAND.
std::string top(const run_counters& rc)
{
    std::string o = "    %CPU   P COMMAND\n";
    char b[160];
    for (unsigned i = 0;; i++) {
        const std::string k = "tasks." + std::to_string(i) + ".";
        std::string name, core, pct;
        for (const auto& [key, val] : rc.summary) {
            if (key == k + "name")
                name = val;
            else if (key == k + "core")
                core = val;
            else if (key == k + "cpu_pct")
                pct = val;
        }
        if (name.empty())
            break;
        std::snprintf(b, sizeof b, "%8.1f %3s %s\n", std::strtod(pct.c_str(), nullptr), core.c_str(), name.c_str());
        o += b;
    }
    return o;
}

std::string sar(const run_counters& rc)
{
    char b[256];
    std::string o = header(rc);
    double irqs = 0;
    for (unsigned c = 0; c < rc.cores; c++)
        irqs += rc.num("counters.cpu" + std::to_string(c) + ".irqs");
    const double rate = rc.seconds > 0 ? irqs / rc.seconds : 0;
    std::snprintf(b, sizeof b, "%-11s %9s %9s\n%-11s %9s %9.2f\n%-11s %9s %9.2f\n", "Average:", "INTR", "intr/s",
                  "Average:", "sum", rate, "Average:", "150", rate);
    return o + b;
}

std::string softnet(const run_counters& rc)
{
    std::string o;
    char b[160];
    for (unsigned c = 0; c < rc.cores; c++) {
        const bool rx = c == rc.irq_core;
        const unsigned processed = rx ? (unsigned)rc.count("counters.softnet.processed") : 0;
        const unsigned squeeze = rx ? (unsigned)rc.count("counters.softnet.time_squeeze") : 0;
        std::snprintf(b, sizeof b, "%08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x\n", processed, 0u, squeeze,
                      0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
        o += b;
    }
    return o;
}

std::string nstat(const run_counters& rc)
{
    std::string o = "#kernel\n";
    static const std::string pre = "counters.snmp.";
    char b[160];
    for (const char* proto : {"Ip.", "Udp."})
        for (const auto& k : rc.order) {
            if (k.compare(0, pre.size() + std::strlen(proto), pre + proto) != 0)
                continue;
            std::string name = k.substr(pre.size());
            name.erase(name.find('.'), 1);  // Udp.InDatagrams -> UdpInDatagrams
            std::snprintf(b, sizeof b, "%-32s%-16llu%6.1f\n", name.c_str(), rc.count(k), 0.0);
            o += b;
        }
    return o;
}

} // namespace

const std::vector<std::string>& report_formats()
{
    static const std::vector<std::string> f = {"ethtool", "mpstat", "top", "sar", "softnet", "nstat"};
    return f;
}

bool report_text(const std::string& dir, const std::string& format, std::string* out, std::string* err)
{
    bool known = false;
    for (const auto& f : report_formats())
        known = known || f == format;
    if (!known) {
        std::string l;
        for (const auto& f : report_formats())
            l += (l.empty() ? "" : ", ") + f;
        *err = "--as " + message_quote(format) + ": unknown format; one of: " + l;
        return false;
    }
    run_counters rc;
    if (!load(dir, &rc, err))
        return false;
    if (format == "ethtool")
        *out = ethtool(rc);
    else if (format == "mpstat")
        *out = mpstat(rc);
    else if (format == "top")
        *out = top(rc);
    else if (format == "sar")
        *out = sar(rc);
    else if (format == "softnet")
        *out = softnet(rc);
    else
        *out = nstat(rc);
    return true;
}

} // namespace sim
