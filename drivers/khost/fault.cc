#include "drivers/khost/fault.h"
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <memory>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <ucontext.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif
#include <unistd.h>
#include "common/time.h"
#include "drivers/khost/symbolize.h"

namespace khost {

using models::cpu::core;
using models::tick_t;

std::string fault_report::text() const
{
    std::string s = kind + (detail.empty() ? "" : ": " + detail) + " in " + (where.empty() ? "(unknown site)" : where);
    if (core >= 0)
        s += " on CPU" + std::to_string(core);
    char t[64];
    std::snprintf(t, sizeof t, " at %.6f s", (double)sim_time_ps / 1e12);
    s += t;
    for (const auto& c : chain)
        s += "\n  called from " + c;
    return s;
}

static std::unique_ptr<fault_report> g_last;

const fault_report* last_fault() { return g_last.get(); }

#if defined(__SANITIZE_ADDRESS__)
void stack_unwound_here()
{
    char here;
    const size_t below = 1 << 20;  // bytes of the main stack under this frame
    __asan_unpoison_memory_region(&here - below, below);
}
#else
void stack_unwound_here() {}
#endif

fault_report fault_here(const core* c, const void* pc, const std::string& kind, const std::string& detail,
                        bool return_address)
{
    fault_report r;
    r.kind = kind;
    r.detail = detail;
    r.core = c ? (int)c->id() : -1;
    r.sim_time_ps = c ? c->now() : models::now_ps();
    if (!c) {
        if (pc)
            r.where = code_site(pc, return_address);
        return r;
    }
    const core::code_trace& t = const_cast<core*>(c)->trace();
    r.where = code_site(pc ? pc : t.pc, pc == nullptr || return_address);
    // Frames are addresses just after each function's entry hook: they name
    // the function (and its first line); the innermost is the one `where` is in.
    auto function_of = [](const std::string& site) {
        const size_t paren = site.find(" (");
        return paren == std::string::npos ? site : site.substr(0, paren);
    };
    const unsigned n = t.depth < core::code_trace::max_depth ? t.depth : core::code_trace::max_depth;
    for (unsigned i = n; i-- > 0;) {
        const std::string f = function_of(code_site(t.frames[i], true));
        if (i + 1 == n && f == function_of(r.where))
            continue;  // the function `where` already names
        r.chain.push_back(f);
    }
    if (t.depth > core::code_trace::max_depth)
        r.chain.push_back("(" + std::to_string(t.depth - core::code_trace::max_depth) + " outer frames not kept)");
    return r;
}

void watch_cores(const std::vector<core*>& cores)
{
    for (core* c : cores)
        c->set_lockup_handler([](core& k, tick_t stuck) {
            char d[96];
            std::snprintf(d, sizeof d, "stuck for %.3f ms of simulated time without returning to the scheduler",
                          (double)stuck / 1e9);
            g_last.reset(new fault_report(fault_here(&k, nullptr, "soft lockup", d)));
            throw driver_fault(*g_last);
        });
}

namespace {

const int k_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGUSR2};
std::function<void(const fault_report&)> g_on_fatal;
fault_guard* g_guard = nullptr;
std::atomic<bool> g_in_fatal{false};
char g_altstack[1 << 16];

void say(const char* s) { (void)!write(2, s, std::strlen(s)); }

const char* signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "no progress";
    }
}

void restore_defaults()
{
    for (int s : k_signals)
        std::signal(s, SIG_DFL);
}

// Wall-clock watchdog: SIGUSR2 to the simulating thread when SystemC time
// stood still for the timeout.
struct progress_watch {
    std::thread th;
    std::mutex mu;
    std::condition_variable cv;
    bool stop = false;
    double timeout_s = 0;
    double stalled_s = 0;
    pthread_t sim_thread{};
};
progress_watch* g_watch = nullptr;

void on_signal(int sig, siginfo_t* si, void* ucv)
{
    if (g_in_fatal.exchange(true)) {
        restore_defaults();
        raise(sig);
        return;
    }
    restore_defaults();
    say("fecsim: fatal signal in kernel code; finding the driver line...\n");
    const void* pc = nullptr;
#if defined(__x86_64__)
    pc = (const void*)((ucontext_t*)ucv)->uc_mcontext.gregs[REG_RIP];
#endif
    std::string detail;
    char buf[96];
    if (sig == SIGSEGV || sig == SIGBUS) {
        std::snprintf(buf, sizeof buf, "access to address %p", si->si_addr);
        detail = buf;
    } else if (sig == SIGUSR2 && g_watch) {
        std::snprintf(buf, sizeof buf, "simulated time stood still for %.0f s of wall time", g_watch->stalled_s);
        detail = buf;
    }
    // A stall interrupts whatever host code the core was in (its cost model,
    // say): the site is the kernel code it last ran.
    if (sig == SIGUSR2)
        pc = nullptr;
    g_last.reset(new fault_report(fault_here(core::current(), pc, signal_name(sig), detail)));
    core::clear_current();
    if (g_on_fatal) {
        g_on_fatal(*g_last);  // reports it with the results
    } else {
        const std::string t = "fecsim: driver fault: " + g_last->text() + "\n";
        say(t.c_str());
    }
    _exit(3);
}

} // namespace

void fault_stop(const void* caller, const std::string& kind, const std::string& detail)
{
    if (g_in_fatal.exchange(true))
        _exit(3);
    g_last.reset(new fault_report(fault_here(core::current(), caller, kind, detail, true)));
    core::clear_current();
    if (g_on_fatal) {
        g_on_fatal(*g_last);
    } else {
        const std::string t = "fecsim: driver fault: " + g_last->text() + "\n";
        say(t.c_str());
    }
    _exit(3);
}

fault_guard::fault_guard(double wall_timeout_s, std::function<void(const fault_report&)> on_fatal)
{
    if (g_guard)
        throw std::logic_error("fault_guard: one at a time");
    g_guard = this;
    g_on_fatal = std::move(on_fatal);
    g_in_fatal = false;
    stack_t ss{};
    ss.ss_sp = g_altstack;
    ss.ss_size = sizeof g_altstack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int s : k_signals)
        sigaction(s, &sa, nullptr);
    if (wall_timeout_s > 0) {
        g_watch = new progress_watch;
        g_watch->timeout_s = wall_timeout_s;
        g_watch->sim_thread = pthread_self();
        g_watch->th = std::thread([w = g_watch] {
            using clk = std::chrono::steady_clock;
            tick_t last = models::now_ps();
            auto since = clk::now();
            std::unique_lock<std::mutex> lk(w->mu);
            while (!w->stop) {
                w->cv.wait_for(lk, std::chrono::milliseconds(250));
                if (w->stop)
                    break;
                const tick_t t = models::now_ps();
                if (t != last) {
                    last = t;
                    since = clk::now();
                    continue;
                }
                w->stalled_s = std::chrono::duration<double>(clk::now() - since).count();
                if (w->stalled_s >= w->timeout_s) {
                    pthread_kill(w->sim_thread, SIGUSR2);
                    return;
                }
            }
        });
    }
}

fault_guard::~fault_guard()
{
    if (g_watch) {
        {
            std::lock_guard<std::mutex> lk(g_watch->mu);
            g_watch->stop = true;
        }
        g_watch->cv.notify_all();
        g_watch->th.join();
        delete g_watch;
        g_watch = nullptr;
    }
    restore_defaults();
    g_on_fatal = nullptr;
    g_guard = nullptr;
}

} // namespace khost
