#include "sim/results/results.h"
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include "sim/config/scenario.h"

namespace sim {

// ---------------------------------------------------------------- statistics

std::vector<stat_entry> stats_collect(const soc& s)
{
    std::vector<stat_entry> v;
    s.visit_stats([&](const std::string& name, uint64_t x, const char* desc, const char* unit) {
        v.push_back({name, x, desc ? desc : "", unit ? unit : ""});
    });
    return v;
}

static void split_name(const std::string& full, std::string* inst, std::string* leaf)
{
    const size_t d = full.rfind('.');
    *inst = d == std::string::npos ? "" : full.substr(0, d);
    *leaf = d == std::string::npos ? full : full.substr(d + 1);
}

std::vector<derived_entry> stats_derive(const std::vector<stat_entry>& raw)
{
    std::map<std::string, const stat_entry*> by_name;
    for (const auto& e : raw)
        by_name[e.name] = &e;
    std::vector<derived_entry> out;
    for (const auto& e : raw) {
        std::string inst, leaf;
        split_name(e.name, &inst, &leaf);
        if (leaf.size() < 4 || leaf.compare(leaf.size() - 4, 4, "hits") != 0)
            continue;
        const std::string p = leaf.substr(0, leaf.size() - 4);
        const std::string miss = (inst.empty() ? "" : inst + ".") + p + "misses";
        auto it = by_name.find(miss);
        if (it == by_name.end())
            continue;
        const double h = (double)e.value, m = (double)it->second->value;
        derived_entry d;
        d.name = (inst.empty() ? "" : inst + ".") + p + "hit_rate";
        d.value = h + m > 0 ? h / (h + m) : NAN;
        d.desc = p + "hits / (" + p + "hits + " + p + "misses)";
        d.unit = "ratio";
        out.push_back(d);
    }
    return out;
}

// Objects nested by the dots of the instance path.
static JsonObject* nested(JsonObject* root, const std::string& inst)
{
    JsonObject* o = root;
    std::stringstream ss(inst);
    std::string part;
    while (std::getline(ss, part, '.')) {
        if (part.empty())
            continue;
        if (!json_object_has_member(o, part.c_str()))
            json_object_set_object_member(o, part.c_str(), json_object_new());
        o = json_object_get_object_member(o, part.c_str());
    }
    return o;
}

std::string json_to_string(JsonNode* node, bool pretty)
{
    JsonGenerator* g = json_generator_new();
    json_generator_set_pretty(g, pretty);
    json_generator_set_indent(g, 2);
    json_generator_set_root(g, node);
    gchar* s = json_generator_to_data(g, nullptr);
    std::string r = s;
    g_free(s);
    g_object_unref(g);
    return r + "\n";
}

std::string stats_json(const resolved_scenario& r, const std::vector<stat_entry>& raw,
                       const std::vector<derived_entry>& derived)
{
    JsonObject* root = json_object_new();
    json_object_set_string_member(root, "format", "fecsim-stats-1");
    json_object_set_string_member(root, "scenario", r.cfg.scenario.id.c_str());
    json_object_set_int_member(root, "seed", (gint64)r.cfg.scenario.seed);
    json_object_set_int_member(root, "warmup_ps", (gint64)r.cfg.scenario.warmup_ps);
    json_object_set_int_member(root, "duration_ps", (gint64)r.cfg.scenario.duration_ps);
    JsonObject* counters = json_object_new();
    JsonObject* der = json_object_new();
    JsonObject* info = json_object_new();
    for (const auto& e : raw) {
        std::string inst, leaf;
        split_name(e.name, &inst, &leaf);
        json_object_set_int_member(nested(counters, inst), leaf.c_str(), (gint64)e.value);
        JsonObject* i = json_object_new();
        json_object_set_string_member(i, "description", e.desc.c_str());
        json_object_set_string_member(i, "unit", e.unit.c_str());
        json_object_set_object_member(info, e.name.c_str(), i);
    }
    for (const auto& d : derived) {
        std::string inst, leaf;
        split_name(d.name, &inst, &leaf);
        if (std::isnan(d.value))
            json_object_set_null_member(nested(der, inst), leaf.c_str());
        else
            json_object_set_double_member(nested(der, inst), leaf.c_str(), d.value);
        JsonObject* i = json_object_new();
        json_object_set_string_member(i, "description", d.desc.c_str());
        json_object_set_string_member(i, "unit", d.unit.c_str());
        json_object_set_object_member(info, d.name.c_str(), i);
    }
    json_object_set_object_member(root, "counters", counters);
    json_object_set_object_member(root, "derived", der);
    json_object_set_object_member(root, "info", info);
    JsonNode* n = json_node_init_object(json_node_alloc(), root);
    json_object_unref(root);
    std::string s = json_to_string(n, true);
    json_node_unref(n);
    return s;
}

static std::string num(double v)
{
    if (std::isnan(v))
        return "nan";
    char buf[64];
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", v);  // whole numbers without exponent
        return buf;
    }
    for (int p = 1; p <= 17; p++) {  // shortest text that reads back as v
        std::snprintf(buf, sizeof buf, "%.*g", p, v);
        if (std::strtod(buf, nullptr) == v)
            break;
    }
    return buf;
}

std::string stats_txt(const resolved_scenario& r, const std::vector<stat_entry>& raw,
                      const std::vector<derived_entry>& derived)
{
    std::ostringstream os;
    os << "# fecsim statistics: scenario " << r.cfg.scenario.id << ", seed " << r.cfg.scenario.seed << ", measured "
       << num((double)r.cfg.scenario.duration_ps / 1e12) << " s after " << num((double)r.cfg.scenario.warmup_ps / 1e12)
       << " s of warm-up\n";
    size_t w = 0;
    for (const auto& e : raw)
        w = std::max(w, e.name.size());
    for (const auto& d : derived)
        w = std::max(w, d.name.size());
    for (const auto& e : raw) {
        os << e.name << std::string(w + 2 - e.name.size(), ' ') << e.value << " # " << e.desc;
        if (!e.unit.empty())
            os << " (" << e.unit << ")";
        os << "\n";
    }
    for (const auto& d : derived)
        os << d.name << std::string(w + 2 - d.name.size(), ' ') << num(d.value) << " # " << d.desc << " (" << d.unit
           << ")\n";
    return os.str();
}

// ---------------------------------------------------------------- summary

void json_member_int(JsonBuilder* b, const char* key, int64_t v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, (gint64)v);
}

void json_member_double(JsonBuilder* b, const char* key, double v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_double_value(b, std::isfinite(v) ? v : 0);
}

void json_member_string(JsonBuilder* b, const char* key, const std::string& v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, v.c_str());
}

void json_member_strings(JsonBuilder* b, const char* key, const std::vector<std::string>& v)
{
    json_builder_set_member_name(b, key);
    json_builder_begin_array(b);
    for (const auto& x : v)
        json_builder_add_string_value(b, x.c_str());
    json_builder_end_array(b);
}

JsonNode* summary_node(const run_summary& s, const summary_extra& x)
{
    JsonBuilder* b = json_builder_new();
    auto i = [&](const char* k, uint64_t v) { json_member_int(b, k, (int64_t)v); };
    auto d = [&](const char* k, double v) { json_member_double(b, k, v); };
    auto str = [&](const char* k, const std::string& v) { json_member_string(b, k, v); };
    auto obj = [&](const char* k) {
        json_builder_set_member_name(b, k);
        json_builder_begin_object(b);
    };
    json_builder_begin_object(b);
    str("scenario", s.scenario);
    i("seed", s.seed);
    d("sim_time_s", s.sim_time_s);
    d("wall_time_s", s.wall_time_s);
    d("realtime_factor", s.realtime_factor);
    i("frames_offered", s.frames_offered);
    i("frames_delivered", s.frames_delivered);
    d("loss_pct", s.loss_pct);
    obj("drops");
    i("mac_fifo", s.drops_mac_fifo);
    i("socket", s.drops_socket);
    i("driver", s.drops_driver);
    json_builder_end_object(b);
    obj("payload");
    i("verified", s.payload_verified);
    i("corrupted", s.payload_corrupted);
    i("duplicated", s.payload_duplicated);
    i("reordered", s.payload_reordered);
    json_builder_end_object(b);
    d("irq_rate_hz", s.irq_rate_hz);
    i("napi_polls", s.napi_polls);
    json_builder_set_member_name(b, "cpu");
    json_builder_begin_array(b);
    for (const auto& c : s.cpu) {
        json_builder_begin_object(b);
        i("core", c.core);
        d("irq_pct", c.irq_pct);
        d("softirq_pct", c.softirq_pct);
        d("sys_pct", c.sys_pct);
        d("user_pct", c.user_pct);
        d("idle_pct", c.idle_pct);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    obj("cycles_per_frame");
    d("total", s.cpf_total);
    d("dma_sync", s.cpf_dma_sync);
    d("copy", s.cpf_copy);
    d("stack", s.cpf_stack);
    d("mmio", s.cpf_mmio);
    d("descriptor", s.cpf_descriptor);
    json_builder_end_object(b);
    obj("dma_sync");
    i("calls", s.dma_sync_calls);
    i("lines", s.dma_sync_lines);
    i("cycles", s.dma_sync_cycles);
    json_builder_end_object(b);
    obj("coherence");
    i("violations", s.coherence_violations);
    i("synced_bytes", s.synced_bytes);
    i("touched_bytes", s.touched_bytes);
    // Each distinct violation: kind, driver site, occurrences, where.
    json_builder_set_member_name(b, "sites");
    json_builder_begin_array(b);
    for (const auto& v : s.violations) {
        json_builder_begin_object(b);
        str("kind", cv_kind_name(v.kind));
        str("where", v.where);
        i("count", v.count);
        i("address", v.pa);
        i("buffer", v.buf_pa);
        i("buffer_len", v.buf_len);
        str("detail", v.detail);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    // Extra keys (not in the contract).
    obj("tx");
    i("sent", s.tx_sent);
    i("refused", s.tx_refused);
    i("on_wire", s.tx_on_wire);
    i("verified", s.tx_verified);
    i("corrupted", s.tx_corrupted);
    json_builder_end_object(b);
    str("description", x.description);
    d("warmup_s", x.warmup_s);
    str("run_id", x.run_id);
    str("config_hash", x.config_hash);
    str("fecsim_version", x.version);
    json_member_strings(b, "patches", x.patches);
    obj("log");
    i("errors", x.log_errors);
    i("guest_errors", x.log_guest_errors);
    i("unimplemented", x.log_unimplemented);
    i("warnings", x.log_warnings);
    json_builder_end_object(b);
    json_builder_end_object(b);
    JsonNode* n = json_builder_get_root(b);
    g_object_unref(b);
    return n;
}

static std::string si_time(double s)
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
    if (s.frames_offered == 0) {
        line("  frames        none offered (no traffic source in this scenario)\n");
    } else {
        line("  frames        offered %llu, delivered %llu, loss %.2f %%\n", (unsigned long long)s.frames_offered,
             (unsigned long long)s.frames_delivered, s.loss_pct);
        line("  drops         mac_fifo %llu (IEEE_rx_macerr), socket %llu, driver %llu\n",
             (unsigned long long)s.drops_mac_fifo, (unsigned long long)s.drops_socket,
             (unsigned long long)s.drops_driver);
        line("  payload       verified %llu, corrupted %llu, duplicated %llu, reordered %llu\n",
             (unsigned long long)s.payload_verified, (unsigned long long)s.payload_corrupted,
             (unsigned long long)s.payload_duplicated, (unsigned long long)s.payload_reordered);
        line("  irq           %.0f /s, %llu NAPI polls\n", s.irq_rate_hz, (unsigned long long)s.napi_polls);
        line("  cycles/frame  %.0f total: dma_sync %.0f, copy %.0f, stack %.0f, mmio %.0f, descriptor %.0f\n",
             s.cpf_total, s.cpf_dma_sync, s.cpf_copy, s.cpf_stack, s.cpf_mmio, s.cpf_descriptor);
    }
    if (s.tx_sent || s.tx_refused || s.tx_on_wire)
        line("  tx            sent %llu, refused %llu; on the wire %llu, verified %llu, corrupted %llu\n",
             (unsigned long long)s.tx_sent, (unsigned long long)s.tx_refused, (unsigned long long)s.tx_on_wire,
             (unsigned long long)s.tx_verified, (unsigned long long)s.tx_corrupted);
    line("  dma_sync      %llu calls, %llu lines, %llu cycles\n", (unsigned long long)s.dma_sync_calls,
         (unsigned long long)s.dma_sync_lines, (unsigned long long)s.dma_sync_cycles);
    line("  coherence     %llu violations", (unsigned long long)s.coherence_violations);
    if (s.synced_bytes)
        line("; sync efficiency %.0f %% (%llu B read of %llu B synced for the CPU)",
             100.0 * (double)s.touched_bytes / (double)s.synced_bytes, (unsigned long long)s.touched_bytes,
             (unsigned long long)s.synced_bytes);
    o += "\n";
    for (const auto& v : s.violations)
        line("                %s at %s: %llu times, buffer 0x%llx+%llu%s%s\n", cv_kind_name(v.kind), v.where.c_str(),
             (unsigned long long)v.count, (unsigned long long)v.buf_pa, (unsigned long long)v.buf_len,
             v.detail.empty() ? "" : ", ", v.detail.c_str());
    o += "  cpu           core    irq%  softirq%   sys%  user%  idle%\n";
    for (const auto& c : s.cpu)
        line("                %4u  %6.1f  %8.1f  %5.1f  %5.1f  %5.1f\n", c.core, c.irq_pct, c.softirq_pct, c.sys_pct,
             c.user_pct, c.idle_pct);
    for (size_t k = 0; k < x.patches.size(); k++)
        line("  %s%s\n", k ? "              " : "patch         ", x.patches[k].c_str());
    line("  log           %llu guest errors, %llu unimplemented, %llu warnings, %llu errors (sim.log)\n",
         (unsigned long long)x.log_guest_errors, (unsigned long long)x.log_unimplemented,
         (unsigned long long)x.log_warnings, (unsigned long long)x.log_errors);
    if (!results_dir.empty())
        line("  results       %s\n", results_dir.c_str());
    return o;
}

std::string series_csv(const std::vector<std::string>& cols, const std::vector<std::vector<double>>& rows)
{
    if (cols.empty())
        return "";
    std::string s;
    for (size_t i = 0; i < cols.size(); i++)
        s += (i ? "," : "") + cols[i];
    s += "\n";
    for (const auto& r : rows) {
        for (size_t i = 0; i < r.size(); i++)
            s += (i ? "," : "") + num(r[i]);
        s += "\n";
    }
    return s;
}

static void flatten(JsonNode* n, const std::string& prefix, std::vector<std::pair<std::string, std::string>>* out)
{
    switch (json_node_get_node_type(n)) {
    case JSON_NODE_OBJECT: {
        JsonObject* o = json_node_get_object(n);
        GList* members = json_object_get_members(o);
        for (GList* l = members; l; l = l->next) {
            const char* k = (const char*)l->data;
            flatten(json_object_get_member(o, k), prefix.empty() ? k : prefix + "." + k, out);
        }
        g_list_free(members);
        break;
    }
    case JSON_NODE_ARRAY: {
        JsonArray* a = json_node_get_array(n);
        for (guint i = 0; i < json_array_get_length(a); i++)
            flatten(json_array_get_element(a, i), prefix + "." + std::to_string(i), out);
        break;
    }
    case JSON_NODE_VALUE: {
        const GType t = json_node_get_value_type(n);
        if (t == G_TYPE_INT64)
            out->push_back({prefix, std::to_string(json_node_get_int(n))});
        else if (t == G_TYPE_DOUBLE)
            out->push_back({prefix, num(json_node_get_double(n))});
        else if (t == G_TYPE_BOOLEAN)
            out->push_back({prefix, json_node_get_boolean(n) ? "true" : "false"});
        else
            out->push_back({prefix, json_node_get_string(n) ? json_node_get_string(n) : ""});
        break;
    }
    case JSON_NODE_NULL: out->push_back({prefix, ""}); break;
    }
}

bool json_flatten_file(const std::string& path, std::vector<std::pair<std::string, std::string>>* out, std::string* err)
{
    JsonParser* p = json_parser_new();
    GError* e = nullptr;
    if (!json_parser_load_from_file(p, path.c_str(), &e)) {
        *err = path + ": " + e->message;
        g_error_free(e);
        g_object_unref(p);
        return false;
    }
    flatten(json_parser_get_root(p), "", out);
    g_object_unref(p);
    return true;
}

// ---------------------------------------------------------------- files and directories

bool make_dirs(const std::string& path, std::vector<std::string>* created, std::string* err)
{
    if (path.empty() || g_file_test(path.c_str(), G_FILE_TEST_IS_DIR))
        return true;
    const size_t s = path.rfind('/', path.size() > 1 ? path.size() - 2 : 0);
    if (s != std::string::npos && s > 0 && !make_dirs(path.substr(0, s), created, err))
        return false;
    if (mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) {
        *err = "cannot create directory " + path + ": " + std::strerror(errno);
        return false;
    }
    if (created)
        created->push_back(path);
    return true;
}

static bool write_all(const std::string& path, const std::string& content, std::string* err)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        *err = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    if (std::fclose(f) != 0 || !ok) {
        *err = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

bool write_file_atomic(const std::string& path, const std::string& content, std::string* err)
{
    GError* e = nullptr;
    if (!g_file_set_contents(path.c_str(), content.data(), (gssize)content.size(), &e)) {
        *err = e->message;
        g_error_free(e);
        return false;
    }
    return true;
}

static void rm_tree(const std::string& path)
{
    if (DIR* d = opendir(path.c_str())) {
        while (dirent* e = readdir(d)) {
            if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, ".."))
                continue;
            const std::string p = path + "/" + e->d_name;
            struct stat st;
            if (lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
                rm_tree(p);
            else
                unlink(p.c_str());
        }
        closedir(d);
    }
    rmdir(path.c_str());
}

bool run_dir_complete(const std::string& dir)
{
    return g_file_test((dir + "/summary.json").c_str(), G_FILE_TEST_IS_REGULAR);
}

static std::string host_name()
{
    char h[256] = "localhost";
    gethostname(h, sizeof h - 1);
    return h;
}

// A process that exists and is not a zombie (a killed run whose parent died
// too may stay a zombie where nobody reaps orphans, e.g. in containers).
static bool process_alive(long pid)
{
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return false;
    const std::string stat = "/proc/" + std::to_string(pid) + "/stat";
    gchar* text = nullptr;
    if (!g_file_get_contents(stat.c_str(), &text, nullptr, nullptr))
        return true;  // no /proc: trust kill()
    const char* rp = std::strrchr(text, ')');
    const bool zombie = rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
    g_free(text);
    return !zombie;
}

// Remove ".tmp-<pid>@<host>-*" directories of dead processes on this host.
void run_dir_clean_stale(const std::string& parent)
{
    DIR* d = opendir(parent.c_str());
    if (!d)
        return;
    const std::string host = host_name();
    std::vector<std::string> dead;
    while (dirent* e = readdir(d)) {
        const std::string n = e->d_name;
        if (n.compare(0, 5, ".tmp-") != 0)
            continue;
        const size_t at = n.find('@');
        const size_t dash = n.rfind('-');
        if (at == std::string::npos || dash == std::string::npos || dash < at)
            continue;
        const long pid = std::strtol(n.substr(5, at - 5).c_str(), nullptr, 10);
        if (n.substr(at + 1, dash - at - 1) != host || pid <= 0)
            continue;
        if (!process_alive(pid))
            dead.push_back(parent + "/" + n);
    }
    closedir(d);
    for (const auto& p : dead)
        rm_tree(p);
}

bool run_dir::make_tmp(const std::string& parent, const std::string& base, std::string* err)
{
    if (!make_dirs(parent, &m_created, err))
        return false;
    run_dir_clean_stale(parent);
    std::string t = parent + "/.tmp-" + std::to_string(getpid()) + "@" + host_name() + "-XXXXXX";
    std::vector<char> buf(t.begin(), t.end());
    buf.push_back(0);
    if (!mkdtemp(buf.data())) {
        *err = "cannot create a directory in " + parent + ": " + std::strerror(errno);
        discard();
        return false;
    }
    m_tmp = buf.data();
    m_parent = parent;
    m_base = base;
    m_open = true;
    return true;
}

bool run_dir::open_auto(const std::string& root, const std::string& scenario_id, const std::string& run_id,
                        std::string* err)
{
    m_fixed = false;
    m_final = root + "/" + scenario_id + "/" + run_id;
    return make_tmp(root + "/" + scenario_id, run_id, err);
}

bool run_dir::open_fixed(const std::string& dir, std::string* err)
{
    std::string d = dir;
    while (d.size() > 1 && d.back() == '/')
        d.pop_back();
    if (g_file_test(d.c_str(), G_FILE_TEST_EXISTS)) {
        *err = d + " exists and does not hold a finished run; remove it or choose another directory";
        return false;
    }
    m_fixed = true;
    m_final = d;
    const size_t s = d.rfind('/');
    const std::string parent = s == std::string::npos ? "." : (s == 0 ? "/" : d.substr(0, s));
    return make_tmp(parent, s == std::string::npos ? d : d.substr(s + 1), err);
}

bool run_dir::write(const std::string& name, const std::string& content, std::string* err)
{
    return write_all(tmp_path(name), content, err);
}

bool run_dir::commit(std::string* final_path, bool* already_done, std::string* err)
{
    *already_done = false;
    std::string target = m_final;
    for (int n = 2;; n++) {
        if (renameat2(AT_FDCWD, m_tmp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0)
            break;
        if (errno != EEXIST && errno != ENOTEMPTY) {
            *err = "cannot rename " + m_tmp + " to " + target + ": " + std::strerror(errno);
            return false;
        }
        if (m_fixed) {
            if (run_dir_complete(target)) {
                *already_done = true;
                rm_tree(m_tmp);
                m_open = false;
                *final_path = target;
                return true;
            }
            *err = target + " appeared meanwhile and does not hold a finished run";
            return false;
        }
        target = m_final + "-" + std::to_string(n);
    }
    m_open = false;
    m_created.clear();
    *final_path = target;
    return true;
}

void run_dir::discard()
{
    if (m_open)
        rm_tree(m_tmp);
    m_open = false;
    for (size_t i = m_created.size(); i-- > 0;)
        rmdir(m_created[i].c_str());  // only if still empty
    m_created.clear();
}

run_dir::~run_dir()
{
    if (m_open)
        discard();
}

// ---------------------------------------------------------------- signals

namespace {
constexpr int k_max_paths = 24;
char g_clean_paths[k_max_paths][1024];  // files first, then directories (deepest first)
int g_n_clean = 0;

void on_signal(int sig)
{
    for (int i = 0; i < g_n_clean; i++)
        if (unlink(g_clean_paths[i]) != 0)
            rmdir(g_clean_paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}
} // namespace

void run_dir_install_signal_cleanup(const run_dir* d)
{
    static const char* files[] = {"scenario.resolved.ini", "stats.json",  "stats.txt", "summary.json", "series.csv",
                                  "cmdline.txt",           "version.txt", "sim.log"};
    g_n_clean = 0;
    auto add = [](const std::string& p) {
        if (g_n_clean < k_max_paths && p.size() < sizeof g_clean_paths[0])
            std::strcpy(g_clean_paths[g_n_clean++], p.c_str());
    };
    if (d) {
        for (const char* f : files)
            add(d->tmp_path(f));
        add(d->tmp_path(""));
        for (size_t i = d->created().size(); i-- > 0;)
            add(d->created()[i]);
    }
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
}

} // namespace sim
