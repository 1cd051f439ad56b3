// sim/results/results.cc: the summary of a run (summary.json, the text summary).
#include "sim/results/results.h"
#include <cstdio>
#include <glib.h>
#include <json-glib/json-glib.h>

namespace sim {

// ---------------------------------------------------------------- summary

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

} // namespace sim
