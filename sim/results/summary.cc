// sim/results/summary.cc: the summary table (summary_metrics.def) and what it
// drives: summary.json, the text summary, counter rows, name lookups.
#include "sim/results/summary.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <type_traits>
#include "sim/results/json.h"

namespace sim {

// ---------------------------------------------------------------- the table

namespace {

template <typename T> constexpr summary_storage storage_of()
{
    if constexpr (std::is_same_v<T, double>)
        return summary_storage::f64;
    else if constexpr (std::is_same_v<T, uint64_t>)
        return summary_storage::u64;
    else if constexpr (std::is_same_v<T, unsigned>)
        return summary_storage::u32;
    else
        return summary_storage::other;
}

#define FEC_SUMMARY_NUMBER(S, row, m, t, name, unit, worse, line, text, label, source)                          \
    {name, summary_row::row, storage_of<t>(), unit, worse_when::worse, line, text, label, source, offsetof(S, m)},
#define FEC_SUMMARY_OTHER(row, m, t, name, label) \
    {name, summary_row::row, summary_storage::other, "", worse_when::none, "", "", label, "", 0},

const summary_metric k_rows[] = {
#define SUMMARY_COUNTER(...) FEC_SUMMARY_NUMBER(run_summary, counter, __VA_ARGS__)
#define SUMMARY_FORMULA(...) FEC_SUMMARY_NUMBER(run_summary, formula, __VA_ARGS__)
#define SUMMARY_EXTRA(...) FEC_SUMMARY_NUMBER(summary_extra, extra, __VA_ARGS__)
#define SUMMARY_CORE(...) FEC_SUMMARY_NUMBER(cpu_time, core, __VA_ARGS__)
#define SUMMARY_ITEM(...) FEC_SUMMARY_OTHER(item, __VA_ARGS__)
#define SUMMARY_EXTRA_ITEM(...) FEC_SUMMARY_OTHER(extra_item, __VA_ARGS__)
#include "sim/results/summary_metrics.def"
};

// "cpu.<N>.<field>" with N of one to three digits: *core = "N", *field.
bool per_core_name(const std::string& name, std::string* core, std::string* field)
{
    if (name.compare(0, 4, "cpu.") != 0)
        return false;
    size_t i = 4;
    while (i < name.size() && g_ascii_isdigit(name[i]))
        i++;
    if (i == 4 || i - 4 > 3 || i >= name.size() || name[i] != '.')
        return false;
    *core = name.substr(4, i - 4);
    *field = name.substr(i + 1);
    return true;
}

} // namespace

uint64_t summary_metric::count(const void* obj) const
{
    const char* p = static_cast<const char*>(obj) + offset;
    switch (storage) {
    case summary_storage::u32: return *reinterpret_cast<const unsigned*>(p);
    case summary_storage::u64: return *reinterpret_cast<const uint64_t*>(p);
    case summary_storage::f64: return (uint64_t)*reinterpret_cast<const double*>(p);
    case summary_storage::other: break;
    }
    return 0;
}

double summary_metric::real(const void* obj) const
{
    if (storage == summary_storage::f64)
        return *reinterpret_cast<const double*>(static_cast<const char*>(obj) + offset);
    return (double)count(obj);
}

const summary_metric* summary_metrics(size_t* n)
{
    *n = sizeof k_rows / sizeof k_rows[0];
    return k_rows;
}

const summary_metric* summary_metric_find(const std::string& name)
{
    std::string core, field;
    const bool per_core = per_core_name(name, &core, &field);
    for (const auto& r : k_rows)
        if (per_core ? r.row == summary_row::core && field == r.name : r.row != summary_row::core && name == r.name)
            return &r;
    return nullptr;
}

std::string summary_metric_label(const std::string& name)
{
    const summary_metric* r = summary_metric_find(name);
    if (!r)
        return "";
    std::string label = r->label, core, field;
    const size_t at = label.find("core N");
    if (r->row == summary_row::core && at != std::string::npos && per_core_name(name, &core, &field))
        label.replace(at, 6, "core " + core);
    return label;
}

void summary_fill_counters(run_summary* s, const std::map<std::string, uint64_t>& counters)
{
    for (const auto& r : k_rows) {
        if (r.row != summary_row::counter)
            continue;
        uint64_t sum = 0;
        const std::string src = r.source;
        for (size_t a = 0; a < src.size();) {
            const size_t plus = src.find(" + ", a);
            const auto it = counters.find(src.substr(a, plus == std::string::npos ? std::string::npos : plus - a));
            if (it != counters.end())
                sum += it->second;
            a = plus == std::string::npos ? src.size() : plus + 3;
        }
        *reinterpret_cast<uint64_t*>(reinterpret_cast<char*>(s) + r.offset) = sum;
    }
}

// ---------------------------------------------------------------- summary.json

namespace {

// Writes members by dotted name, opening and closing the objects they nest in.
class member_writer {
public:
    explicit member_writer(JsonBuilder* b) : m_b(b) {}

    void put(const char* name, uint64_t v) { json_member_int(m_b, at(name), (int64_t)v); }
    void put(const char* name, double v) { json_member_double(m_b, at(name), v); }
    void put(const char* name, const std::string& v) { json_member_string(m_b, at(name), v); }
    void put(const char* name, const std::vector<std::string>& v) { json_member_strings(m_b, at(name), v); }
    void put(const char* name, const std::vector<cpu_time>& v);
    void put(const char* name, const std::vector<summary_site>& v);
    void put(const char* name, const std::vector<task_time>& v);
    // Close the objects still open.
    void close() { at(""); }

private:
    // The leaf of name, after closing the objects name is not in and opening the ones it is.
    const char* at(const char* name);

    JsonBuilder* m_b;
    std::vector<std::string> m_open;  // the objects open, outermost first
    std::string m_leaf;
};

const char* member_writer::at(const char* name)
{
    std::vector<std::string> parts;
    for (const char* p = name; *p;) {
        const char* dot = std::strchr(p, '.');
        parts.emplace_back(p, dot ? dot : p + std::strlen(p));
        p = dot ? dot + 1 : p + std::strlen(p);
    }
    m_leaf = parts.empty() ? "" : parts.back();
    if (!parts.empty())
        parts.pop_back();
    size_t keep = 0;
    while (keep < m_open.size() && keep < parts.size() && m_open[keep] == parts[keep])
        keep++;
    for (; m_open.size() > keep; m_open.pop_back())
        json_builder_end_object(m_b);
    for (; m_open.size() < parts.size(); m_open.push_back(parts[m_open.size()]))
        json_member_object(m_b, parts[m_open.size()].c_str());
    return m_leaf.c_str();
}

void member_writer::put(const char* name, const std::vector<cpu_time>& v)
{
    json_member_array(m_b, at(name));
    for (const auto& c : v) {
        json_builder_begin_object(m_b);
#define SUMMARY_CORE(member, ctype, field, ...)                         \
    if constexpr (std::is_floating_point_v<ctype>)                      \
        json_member_double(m_b, field, (double)c.member);               \
    else                                                                \
        json_member_int(m_b, field, (int64_t)c.member);
#include "sim/results/summary_metrics.def"
        json_builder_end_object(m_b);
    }
    json_builder_end_array(m_b);
}

void member_writer::put(const char* name, const std::vector<task_time>& v)
{
    json_member_array(m_b, at(name));
    for (const auto& t : v) {
        json_builder_begin_object(m_b);
        json_member_string(m_b, "name", t.name);
        json_member_int(m_b, "core", (int64_t)t.core);
        json_member_double(m_b, "cpu_pct", t.cpu_pct);
        json_builder_end_object(m_b);
    }
    json_builder_end_array(m_b);
}

void member_writer::put(const char* name, const std::vector<summary_site>& v)
{
    json_member_array(m_b, at(name));
    for (const auto& x : v) {
        json_builder_begin_object(m_b);
        json_member_string(m_b, "kind", x.kind);
        json_member_string(m_b, "where", x.where);
        json_member_int(m_b, "count", (int64_t)x.count);
        json_member_int(m_b, "address", (int64_t)x.pa);
        json_member_int(m_b, "buffer", (int64_t)x.buf_pa);
        json_member_int(m_b, "buffer_len", (int64_t)x.buf_len);
        json_member_string(m_b, "detail", x.detail);
        json_builder_end_object(m_b);
    }
    json_builder_end_array(m_b);
}

} // namespace

JsonNode* summary_node(const run_summary& s, const summary_extra& x)
{
    JsonBuilder* b = json_builder_new();
    json_builder_begin_object(b);
    member_writer w(b);
#define SUMMARY_ITEM(member, ctype, name, ...) w.put(name, s.member);
#define SUMMARY_COUNTER(member, ctype, name, ...) w.put(name, s.member);
#define SUMMARY_FORMULA(member, ctype, name, ...) w.put(name, s.member);
#define SUMMARY_EXTRA_ITEM(member, ctype, name, ...) w.put(name, x.member);
#define SUMMARY_EXTRA(member, ctype, name, ...) w.put(name, x.member);
#include "sim/results/summary_metrics.def"
    w.close();
    json_builder_end_object(b);
    JsonNode* n = json_builder_get_root(b);
    g_object_unref(b);
    return n;
}

// ---------------------------------------------------------------- text summary

namespace {

// "  <heading>" padded to the 16 columns of the text summary's headings.
std::string heading(const char* h)
{
    std::string s = "  " + std::string(h);
    s.resize(std::max<size_t>(s.size() + 1, 16), ' ');
    return s;
}

// The printf piece of a number row for the object holding it.
std::string piece(const summary_metric& r, const void* obj)
{
    char buf[256];
    if (r.storage == summary_storage::f64)
        std::snprintf(buf, sizeof buf, r.text, r.real(obj));
    else
        std::snprintf(buf, sizeof buf, r.text, (unsigned long long)r.count(obj));
    return buf;
}

// A text line: its heading and the pieces of its rows, without the newline.
std::string text_line(const run_summary& s, const summary_extra& x, const char* line)
{
    std::string o = heading(line);
    for (const auto& r : k_rows)
        if (r.row != summary_row::core && r.number() && !std::strcmp(r.line, line))
            o += piece(r, r.row == summary_row::extra ? static_cast<const void*>(&x) : &s);
    return o;
}

// The cpu table: a column per per-core row, headings right-aligned to the
// width of the cells, a line per core. mpstat: the rows of the kernel's own
// accounting (mpstat_*) instead of the others.
std::string cpu_table(const std::vector<cpu_time>& cpu, bool mpstat)
{
    std::string head = heading(mpstat ? "cpu (mpstat)" : "cpu");
    std::vector<std::string> lines(cpu.size(), heading(""));
    bool first = true;
    for (const auto& r : k_rows) {
        if (r.row != summary_row::core || !*r.text)
            continue;
        const bool m = !std::strncmp(r.name, "mpstat_", 7);
        if (m != mpstat && std::strcmp(r.name, "core"))
            continue;
        const char* sep = first ? "" : "  ";
        first = false;
        const size_t w = std::strtoul(r.text + 1, nullptr, 10), h = std::strlen(r.line);
        head += sep + std::string(w > h ? w - h : 0, ' ') + r.line;
        for (size_t i = 0; i < cpu.size(); i++)
            lines[i] += sep + piece(r, &cpu[i]);
    }
    std::string o = head + "\n";
    for (const auto& l : lines)
        o += l + "\n";
    return o;
}

std::string si_time(double s)
{
    char buf[64];
    if (s >= 1)
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (s >= 1e-3)
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
    return buf;
}

} // namespace

std::string summary_text(const run_summary& s, const summary_extra& x, const std::string& results_dir)
{
    char buf[512];
    std::string o;
    auto line = [&](const char* fmt, auto... a) {
        std::snprintf(buf, sizeof buf, fmt, a...);
        o += buf;
    };
    line("fecsim run: %s (seed %llu)%s%s\n", s.scenario.c_str(), (unsigned long long)s.seed,
         x.description.empty() ? "" : ": ", x.description.c_str());
    line("  simulated     %s measured after %s warm-up, in %.2f s wall (%.3gx real time)\n",
         si_time(s.sim_time_s).c_str(), si_time(x.warmup_s).c_str(), s.wall_time_s, s.realtime_factor);
    if (s.frames_offered == 0)
        line("  frames        none offered in the measured region (no RX traffic source, or it had not started)\n");
    else
        for (const char* l : {"frames", "drops", "payload", "irq", "cycles/frame"}) {
            o += text_line(s, x, l);
            // Under overload the v5.4 driver leaves the RX interrupt masked
            // and NAPI polls on: a rate that rounds to 0 is not an idle MAC.
            if (std::string(l) == "irq" && s.irq_rate_hz < 0.5 && s.napi_polls)
                line(": NAPI kept polling (interrupt masked %.1f %% of the time)", s.irq_masked_pct);
            o += "\n";
        }
    if (s.tx_sent || s.tx_refused || s.tx_on_wire)
        o += text_line(s, x, "tx") + "\n";
    if (s.txq_ring_max)
        o += text_line(s, x, "txq") + "\n";
    if (s.tcp_goodput_mbps > 0)
        o += text_line(s, x, "tcp") + "\n";
    if (s.tcp_rx_goodput_mbps > 0)
        o += text_line(s, x, "tcp_rx") + "\n";
    if (s.ping_sent)
        o += text_line(s, x, "ping") + "\n";
    o += text_line(s, x, "dma_sync") + "\n";
    o += text_line(s, x, "coherence");
    if (s.synced_bytes)
        line("; sync efficiency %.0f %% (%llu B read of %llu B synced for the CPU)",
             100.0 * (double)s.touched_bytes / (double)s.synced_bytes, (unsigned long long)s.touched_bytes,
             (unsigned long long)s.synced_bytes);
    o += "\n";
    for (const auto& v : s.violations)
        line("                %s at %s: %llu times, buffer 0x%llx+%llu%s%s\n", v.kind.c_str(), v.where.c_str(),
             (unsigned long long)v.count, (unsigned long long)v.buf_pa, (unsigned long long)v.buf_len,
             v.detail.empty() ? "" : ", ", v.detail.c_str());
    o += cpu_table(s.cpu, false);
    o += cpu_table(s.cpu, true);
    if (!s.tasks.empty()) {
        std::string t = heading("tasks (top)");
        for (size_t k = 0; k < s.tasks.size(); k++) {
            std::snprintf(buf, sizeof buf, "%s%s %.1f %% (core %u)", k ? ", " : "", s.tasks[k].name.c_str(),
                          s.tasks[k].cpu_pct, s.tasks[k].core);
            t += buf;
        }
        o += t + "\n";
    }
    if (!x.driver.empty())
        line("  driver        %s\n", x.driver.c_str());
    for (size_t k = 0; k < x.patches.size(); k++)
        line("  %s%s\n", k ? "              " : "patch         ", x.patches[k].c_str());
    line("  log           %llu guest errors, %llu unimplemented, %llu warnings, %llu errors (sim.log)\n",
         (unsigned long long)x.log_guest_errors, (unsigned long long)x.log_unimplemented,
         (unsigned long long)x.log_warnings, (unsigned long long)x.log_errors);
    if (!results_dir.empty())
        line("  results       %s\n", results_dir.c_str());
    return o;
}

} // namespace sim
