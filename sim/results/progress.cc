#include "sim/results/progress.h"
#include <algorithm>
#include <string>

namespace sim {

using clk = std::chrono::steady_clock;
using models::tick_t;

progress::progress(sc_core::sc_module_name nm, tick_t warmup_ps, tick_t duration_ps, FILE* out, bool tty,
                   counter_fn frames)
    : sc_module(nm), m_warmup(warmup_ps), m_total(warmup_ps + duration_ps), m_out(out), m_tty(tty),
      m_frames(std::move(frames))
{
    m_start = m_last_draw = m_last_wake = clk::now();
    SC_THREAD(thread);
}

static std::string fmt_time(double s)
{
    char b[32];
    if (s >= 1)
        std::snprintf(b, sizeof b, "%.2f s", s);
    else if (s >= 1e-3)
        std::snprintf(b, sizeof b, "%.2f ms", s * 1e3);
    else
        std::snprintf(b, sizeof b, "%.1f us", s * 1e6);
    return b;
}

void progress::draw(bool final)
{
    const tick_t now = models::now_ps();
    const double wall = std::chrono::duration<double>(clk::now() - m_start).count();
    const double sim_s = (double)now / 1e12;
    const double rtf = wall > 0 ? sim_s / wall : 0;
    const double pct = m_total ? 100.0 * (double)now / (double)m_total : 100;
    char line[256];
    int n = std::snprintf(line, sizeof line, "sim %s / %s (%.0f %%)%s  %.3gx real time", fmt_time(sim_s).c_str(),
                          fmt_time((double)m_total / 1e12).c_str(), pct, now < m_warmup ? "  warm-up" : "", rtf);
    uint64_t v;
    const char* label;
    if (m_frames && m_frames(&v, &label) && n > 0 && n < (int)sizeof line)
        n += std::snprintf(line + n, sizeof line - n, "  %s %llu", label, (unsigned long long)v);
    if (rtf > 0 && now < m_total && n > 0 && n < (int)sizeof line) {
        const double eta = (double)(m_total - now) / 1e12 / rtf;
        std::snprintf(line + n, sizeof line - n, "  ETA %.0f s", eta);
    }
    if (m_tty)
        std::fprintf(m_out, "\r%s\033[K", line);
    else
        std::fprintf(m_out, "%s\n", line);
    std::fflush(m_out);
    m_drawn = !final;
}

void progress::thread()
{
    // Start with a small step and double or halve it so that a wake-up costs
    // about 50 ms of wall time apart.
    tick_t step = models::PS_PER_US;
    const double redraw = m_tty ? 0.5 : 2.0;  // seconds between lines
    for (;;) {
        sc_core::wait(models::from_ps(step));
        const auto t = clk::now();
        const double since_wake = std::chrono::duration<double>(t - m_last_wake).count();
        m_last_wake = t;
        if (since_wake < 0.025)
            step = std::min<tick_t>(step * 2, std::max<tick_t>(m_total / 4, models::PS_PER_US));
        else if (since_wake > 0.1 && step > 1000)
            step /= 2;
        if (std::chrono::duration<double>(t - m_last_draw).count() >= redraw) {
            m_last_draw = t;
            draw(false);
        }
    }
}

void progress::finish()
{
    if (m_tty && m_drawn) {
        std::fprintf(m_out, "\r\033[K");
        std::fflush(m_out);
    }
    m_drawn = false;
}

} // namespace sim
