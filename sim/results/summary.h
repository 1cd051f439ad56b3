// sim/results/summary.h: the summary of a run: the `fecsim run --json` object
// (summary.json, docs/architecture.md), the text summary, and the metrics
// fecsim regress compares. Every member is a row of summary_metrics.def.
//
// soc::run fills run_summary (counter rows from the stat tree, formula rows
// itself); the run command fills summary_extra. Plain types: no SystemC, no
// model headers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

typedef struct _JsonNode JsonNode;

namespace sim {

// Which way a number moves when things get worse; none: not compared.
enum class worse_when { higher, lower, none };

// A distinct DMA coherence violation (kind, driver site).
struct summary_site {
    std::string kind;   // khost::cv_kind_name: "cpu_access_device_owned"
    std::string where;  // "fec_enet_copybreak (fec_main.c:430)"
    std::string detail;
    uint64_t count = 0;               // occurrences
    uint64_t pa = 0;                  // first address seen
    uint64_t buf_pa = 0, buf_len = 0;  // the mapping (0 if none)
};

// A task as top shows it: its command, core and share of the measured time.
struct task_time {
    std::string name;  // top's COMMAND: "ksoftirqd/0", "iperf3", "stress", "kworker/0"
    unsigned core = 0;
    double cpu_pct = 0;  // run time (irq time taken out with kernel.irq_time_accounting) / measured time
};

// One element of the cpu array: the time split of a core, in % of its time.
struct cpu_time {
#define SUMMARY_CORE(member, ctype, ...) ctype member = 0;
#include "sim/results/summary_metrics.def"
};

struct run_summary {
#define SUMMARY_ITEM(member, ctype, ...) ctype member;
#define SUMMARY_COUNTER(member, ctype, ...) \
    ctype member = 0;                       \
    static_assert(std::is_same_v<ctype, uint64_t>, "a counter row is a uint64_t");
#define SUMMARY_FORMULA(member, ctype, ...) ctype member = 0;
#include "sim/results/summary_metrics.def"
};

struct summary_extra {
#define SUMMARY_EXTRA_ITEM(member, ctype, ...) ctype member;
#define SUMMARY_EXTRA(member, ctype, ...) ctype member = 0;
#include "sim/results/summary_metrics.def"
};

// ------------------------------------------------------------ the table

enum class summary_row : uint8_t { counter, formula, extra, core, item, extra_item };
enum class summary_storage : uint8_t { u32, u64, f64, other };

struct summary_metric {
    const char* name;  // dotted summary.json name; per-core rows: the field ("idle_pct")
    summary_row row;
    summary_storage storage;
    const char* unit;
    worse_when worse;
    const char* line;    // text summary line (cpu table column) showing it; "" if none
    const char* text;    // its printf piece there
    const char* label;   // one line: what it counts
    const char* source;  // the counters summed, the formula, or where the run command takes it
    size_t offset;       // into run_summary, summary_extra or cpu_time (numbers only)

    bool number() const { return storage != summary_storage::other; }
    // A number of a run: integer rows as uint64_t, real rows as double.
    uint64_t count(const void* obj) const;
    double real(const void* obj) const;
};

// Every row, in document order.
const summary_metric* summary_metrics(size_t* n);
// The row of a summary.json name ("loss_pct", "drops.mac_fifo", "cpu.2.idle_pct";
// a core number of at most three digits); null if there is none.
const summary_metric* summary_metric_find(const std::string& name);
// Its label, "core N" replaced by the core of a per-core name ("idle time of core 2");
// "" if there is no such row.
std::string summary_metric_label(const std::string& name);

// Counter rows: each the sum of the counters its source names, from
// counters (the stat tree by name, as soc::visit_stats gives it).
void summary_fill_counters(run_summary* s, const std::map<std::string, uint64_t>& counters);

// ------------------------------------------------------------ writers

// The summary.json object (wall time included).
JsonNode* summary_node(const run_summary& s, const summary_extra& x);
// One screen for humans (stderr); results_dir "" leaves out its line.
std::string summary_text(const run_summary& s, const summary_extra& x, const std::string& results_dir);

} // namespace sim
