// drivers/khost/simhost.cc: the C entry points of drivers/shim/simhost.h,
// each a call of the kernel host (khost.h) on the core running the code.
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include "common/log.h"
#include "common/trace_events.h"
#include "net/frame_format.h"
#include "drivers/khost/fault.h"
#include "drivers/khost/kworker.h"
#include "drivers/khost/boot.h"
#include "drivers/khost/khost.h"
#include <string>
#include "drivers/shim/simhost.h"

using khost::kernel;
using models::cpu::core;

extern "C" {

void* simhost_alloc(size_t size, size_t align, int uncached) { return kernel::instance()->alloc(size, align, uncached); }
void simhost_free(void* p) { kernel::instance()->free(p); }
void* simhost_kalloc(size_t size, size_t align, int kind, const void* site)
{
    return kernel::instance()->alloc(size, align, kind == SIMHOST_MEM_COHERENT, kind, site);
}
void simhost_kfree(const void* p, int kind, const void* site) { kernel::instance()->free(p, kind, site); }
void* simhost_frag_alloc(size_t size, int napi, const void* site)
{
    return kernel::instance()->alloc_frag(size, napi != 0, site);
}
uint64_t simhost_dma_pa(const void* p, size_t size, const void* caller)
{
    kernel* k = kernel::instance();
    const uint64_t pa = k->pa_of(p);
    if (pa != ~0ull)
        return pa;
    k->checker().on_not_dmaable(p, size, caller);
    return SIMHOST_DMA_BAD_ADDR;
}
void simhost_dma_coherent_alloc(uint64_t handle, const void* cpu, size_t size, const void* caller)
{
    kernel* k = kernel::instance();
    k->checker().on_coherent_alloc(handle, k->pa_of(cpu), size, caller);
}
void simhost_dma_coherent_free(uint64_t handle, const void* cpu, size_t size, const void* caller)
{
    kernel::instance()->dma_coherent_free(handle, cpu, size, caller);
}
uint64_t simhost_pa(const void* p) { return kernel::instance()->pa_of(p); }
void* simhost_va(uint64_t pa) { return kernel::instance()->mem().mem.cpu_view(pa); }

void simhost_access(const void* p, size_t size, int is_write)
{
    kernel* k = kernel::instance();
    core* c = core::current();
    const uint64_t pa = k->pa_of(p);
    if (c && pa != ~0ull)
        k->access(*c, pa, size, is_write, __builtin_return_address(0));
}
void simhost_copy(void* dst, const void* src, size_t n)
{
    kernel::instance()->copy(dst, src, n, __builtin_return_address(0));
}
void simhost_fill(void* dst, int c, size_t n) { kernel::instance()->fill(dst, c, n, __builtin_return_address(0)); }
void simhost_touch(const void* p, size_t n) { kernel::instance()->touch(p, n, __builtin_return_address(0)); }
void simhost_prefetch(const void* p) { kernel::instance()->prefetch(p); }
uint32_t simhost_mmio_read32(uint64_t pa) { return kernel::instance()->mmio_read(pa); }
void simhost_mmio_write32(uint64_t pa, uint32_t v) { kernel::instance()->mmio_write(pa, v); }
void simhost_barrier(int kind) { kernel::instance()->barrier(kind); }
void simhost_dma(int op, uint64_t pa, size_t size, int dir, const void* caller)
{
    kernel::instance()->dma(op, pa, size, dir, caller);
}

void simhost_charge(uint64_t cycles, int cat)
{
    if (core* c = core::current())
        c->charge(cycles, (models::cpu::cat)cat);
}
int simhost_cat_enter(int cat)
{
    core* c = core::current();
    return c ? c->set_cat((models::cpu::cat)cat) : cat;
}
void simhost_cat_leave(int prev)
{
    if (core* c = core::current())
        c->set_cat((models::cpu::cat)prev);
}
void simhost_atomic_enter(void)
{
    if (core* c = core::current())
        c->atomic_enter();
}
void simhost_atomic_leave(void)
{
    if (core* c = core::current())
        c->atomic_leave();
}
void simhost_delay_ns(uint64_t ns)
{
    if (core* c = core::current())
        c->charge_ps(ns * models::PS_PER_NS, c->current_cat());
}
void simhost_sleep_ns(uint64_t ns) { simhost_delay_ns(ns); }
// ASSUMPTION: one poll of a contended lock costs 100 core cycles (the
// holder's line comes over the SCU: a coherent c2c transfer, 50-150 cycles
// on a Cortex-A9 MPCore); the waiting core's time is the current category's.
static const uint64_t k_spin_poll_cycles = 100;
void simhost_spin_poll(void)
{
    core* c = core::current();
    if (!c)
        simhost_stop("a spinlock is held by a core while code outside the cores takes it");
    c->charge(k_spin_poll_cycles, c->current_cat());
    c->sync();
}
uint64_t simhost_time_ns(void)
{
    core* c = core::current();
    return (c ? c->now() : models::now_ps()) / models::PS_PER_NS;
}
int simhost_tracing(void) { return models::g_trace != nullptr; }
uint64_t simhost_trace_mark(void)
{
    core* c = core::current();
    return c ? c->now() : models::now_ps();
}
void simhost_trace_span(const char* name, uint64_t since, const char* arg_name, long arg)
{
    models::trace_recorder* t = models::g_trace;
    core* c = core::current();
    if (!t || !c)
        return;
    t->span(models::te_track::cpu, c->id(), since, c->now(), t->intern(name), arg_name ? t->intern(arg_name) : 0,
            arg);
}
unsigned long simhost_jiffies(void)
{
    core* c = core::current();
    const kernel* k = kernel::instance();
    const unsigned hz = c && k ? k->config().hz : 100;
    return (unsigned long)((c ? c->now() : models::now_ps()) / (models::PS_PER_S / hz));
}
unsigned int simhost_hz(void) { return 100; }
int simhost_cpu(void)
{
    core* c = core::current();
    return c ? (int)c->id() : 0;
}
int simhost_request_irq(unsigned int irq, simhost_irq_fn fn, void* dev_id)
{
    return kernel::instance()->request_irq(irq, fn, dev_id);
}
void simhost_free_irq(unsigned int irq, void*) { kernel::instance()->free_irq(irq); }
void simhost_raise_net_rx(void)
{
    if (core* c = core::current())
        c->raise_softirq(3);  // NET_RX_SOFTIRQ
}
int simhost_in_softirq(void)
{
    core* c = core::current();
    return c && c->in_softirq();
}
void simhost_preempt_point(void)
{
    if (core* c = core::current())
        c->preempt_point();
}
void simhost_socket_wake(void) { kernel::instance()->socket_wake(); }
int simhost_udp4_csum_ok(const void* ip, size_t udp_avail)
{
    return traffic_udp4_checksum_ok((const uint8_t*)ip, udp_avail);
}
int simhost_ipv4_hdr_ok(const void* ip, size_t ihl)
{
    return traffic_inet_checksum((const uint8_t*)ip, ihl) == 0;
}

void simhost_stop(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "fecsim: driver stopped the run: ");
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    std::fflush(stderr);
    _exit(2);
}

void simhost_kworker(void (*fn)(void))
{
    if (khost::kworker_task* k = khost::kworker_task::instance())
        k->set_runner(fn);
}
void simhost_kworker_at(uint64_t at_ns)
{
    if (khost::kworker_task* k = khost::kworker_task::instance())
        k->run_at(at_ns);
}

void simhost_stop_on_call(const char* name, const void* caller)
{
    khost::fault_stop(caller, "stop on call",
                      std::string(name) + " is not carried out by the shim (drivers/shim/v6/stop_on_call.list)");
}

void simhost_log(int level, const char* fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const size_t n = std::strlen(buf);
    if (n && buf[n - 1] == '\n')  // kernel messages end their line themselves
        buf[n - 1] = 0;
    khost::kernel_log_add(level, buf);
    models::sim_log(level <= 4 ? models::log_level::warn : models::log_level::info, "driver", "%s", buf);
}

void simhost_trace(const char* func) { SIM_TRACE(models::TRACE_SHIM, "shim", "%s", func); }

} // extern "C"
