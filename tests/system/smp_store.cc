// A store by driver code on one core while another core takes its line.
//
// Driver code's stores reach the data (W, the CPU view) after their hook
// has modelled the access through the core's L1 and charged its time; that
// charge may let other processes run. If another core takes the line in
// that window and writes it back, the store must still end in a line some
// L1 holds dirty, else the next fill brings the old bytes back (a lost
// store: two cores sharing a page pool's ring and its alloc cache lost
// ring updates so, and the pool handed out a page twice). The same holds
// for memcpy/memset from driver code (kernel::copy and kernel::fill).
//
// A memcpy's memory-fault report is one per copy and per core: another
// core's fault while the copy waits is that core's own (last test).
//
// Core 0 runs the storing code as a task of its own; the other core's part
// is a SystemC thread that, while core 0 waits in the hook's charge, does
// what core 1's code would: a store of its own to the line (or a clean by
// its maintenance) and the line's writeback. Afterwards the line is written
// back from every L1 and filled again: its bytes must be core 0's.
#include <cstring>
#include <systemc>
#include <tlm_utils/simple_target_socket.h>
#include "tests/lib.h"
#include "cache/hierarchy.h"
#include "cpu/core.h"
#include "drivers/khost/khost.h"

using namespace models;
using models::cache::hierarchy;
using models::cache::hierarchy_config;
using models::cache::l1_op;

namespace {

// The kernel's MMIO initiator needs a target: nothing is mapped here.
struct no_mmio : sc_core::sc_module {
    tlm_utils::simple_target_socket<no_mmio> regs;
    explicit no_mmio(sc_core::sc_module_name n) : sc_module(n), regs("regs")
    {
        regs.register_b_transport(this, &no_mmio::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&)
    {
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
};

// One step on its core: run `body` once.
struct once_task : models::cpu::task {
    std::function<void(models::cpu::core&)> body;
    bool done = false;
    const char* name() const override { return "test"; }
    bool runnable() const override { return !done; }
    void step(models::cpu::core& c) override
    {
        done = true;
        body(c);
    }
};

struct bench {
    hierarchy h;
    sc_core::sc_signal<bool> irq{"irq"};
    std::unique_ptr<models::cpu::core> cpu0;
    no_mmio mmio{"mmio"};
    std::unique_ptr<khost::kernel> k;
    once_task task;
    sc_core::sc_event other_core;  // notified by the task: the other core's part runs then

    static hierarchy_config cfg()
    {
        hierarchy_config c;
        c.cores = 2;
        return c;
    }
    bench() : bench(false) {}
    // Core 1 as a core of the kernel's too, running task1 (for code that
    // must run on a core: its faults are attributed to the running core).
    std::unique_ptr<models::cpu::core> cpu1;
    sc_core::sc_signal<bool> irq1{"irq1"};
    once_task task1;
    explicit bench(bool two_cores) : h(cfg())
    {
        cpu0.reset(new models::cpu::core("cpu0", models::cpu::cpu_config{}, 0, *h.l1[0]));
        cpu0->irq.bind(irq);
        std::vector<models::cpu::core*> cores{cpu0.get()};
        if (two_cores) {
            cpu1.reset(new models::cpu::core("cpu1", models::cpu::cpu_config{}, 1, *h.l1[1]));
            cpu1->irq.bind(irq1);
            cpu1->add_task(&task1);
            cores.push_back(cpu1.get());
        }
        k.reset(new khost::kernel("kernel", khost::kernel_config{}, h, cores, 0x02188000, 0x4000));
        k->mmio.bind(mmio.regs);
        cpu0->add_task(&task);
    }
    uint64_t pa(const void* p) const { return k->pa_of(p); }
    // The line's bytes once every L1 has written it back and one fills it again.
    uint64_t settled(const void* p)
    {
        const tick_t t = now_ps();
        h.l1[1]->maint(l1_op::clean_inv, pa(p), t);  // broadcast: core 0's copy too
        h.l1[1]->read(pa(p), 8, t);
        uint64_t v;
        std::memcpy(&v, p, 8);
        return v;
    }
    // Bring core c to 1 ps before its next synchronisation (the global
    // quantum's boundary) and wake the other core's part 1 ns after that:
    // c's next charge waits, and the other part runs in that wait.
    void wake_other(models::cpu::core& c)
    {
        const tick_t q = to_ps(tlm::tlm_global_quantum::instance().get());
        ck_assert_uint_gt(q, PS_PER_NS);
        c.charge_ps(q - c.now() % q - 1, models::cpu::CAT_OTHER);
        other_core.notify(from_ps(c.now() + PS_PER_NS - now_ps()));
    }
};

const uint64_t k_mine = 0x1111111111111111ull, k_other = 0x2222222222222222ull;

} // namespace

START_TEST(test_store_survives_a_taken_line)
{
    bench b;
    uint64_t* x = (uint64_t*)b.k->alloc(64, 64, false);
    ck_assert_ptr_nonnull(x);
    b.task.body = [&](models::cpu::core& c) {
        b.wake_other(c);
        b.k->access(c, b.pa(x), 8, true, nullptr);  // the store's hook: the charge waits
        *x = k_mine;                                  // the store itself
    };
    sc_core::sc_spawn([&] {
        sc_core::wait(b.other_core);
        // Core 1 stores to the line (taking it from core 0), then cleans
        // and invalidates it (its writeback to the L2).
        b.h.l1[1]->write(b.pa(x) + 8, 8, now_ps());
        std::memcpy(x + 1, &k_other, 8);
        b.h.l1[1]->maint(l1_op::clean_inv, b.pa(x), now_ps());
    });
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    ck_assert_msg(b.task.done, "the task did not run");
    ck_assert_msg(b.k->stats().stores_retaken == 1, "stores_retaken %llu, not 1",
                  (unsigned long long)b.k->stats().stores_retaken);
    const uint64_t v = b.settled(x);
    ck_assert_msg(v == k_mine, "core 0's store was lost: the line holds %#llx", (unsigned long long)v);
    uint64_t w;
    std::memcpy(&w, x + 1, 8);
    ck_assert_msg(w == k_other, "core 1's store was lost: %#llx", (unsigned long long)w);
}
END_TEST

// Without a wait in the hook's charge nothing is retaken (the count above
// is the hazard's, not every store's).
START_TEST(test_no_retake_without_another_core)
{
    bench b;
    uint64_t* x = (uint64_t*)b.k->alloc(64, 64, false);
    b.task.body = [&](models::cpu::core& c) {
        const tick_t q = to_ps(tlm::tlm_global_quantum::instance().get());
        for (int i = 0; i < 64; i++) {
            c.charge_ps(q / 3, models::cpu::CAT_OTHER);
            b.k->access(c, b.pa(x), 8, true, nullptr);
            *x = k_mine + i;
        }
    };
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    ck_assert(b.task.done);
    ck_assert_uint_gt(b.cpu0->sync_waits(), 10);  // it did wait, with nobody to take the line
    ck_assert_uint_eq(b.k->stats().stores_retaken, 0);
    ck_assert_uint_eq(b.settled(x), k_mine + 63);
}
END_TEST

// memcpy from driver code: a destination line cleaned out by another
// core's maintenance while the copy charges its lines still gets the bytes.
START_TEST(test_copy_survives_a_clean_midway)
{
    bench b;
    uint8_t* dst = (uint8_t*)b.k->alloc(256, 64, false);
    static uint8_t src[256];  // host memory: only the destination is modelled
    for (int i = 0; i < 256; i++)
        src[i] = (uint8_t)(i * 7 + 1);
    b.task.body = [&](models::cpu::core& c) {
        b.wake_other(c);
        b.k->copy(dst, src, sizeof src, nullptr);
    };
    sc_core::sc_spawn([&] {
        sc_core::wait(b.other_core);
        b.h.l1[1]->maint(l1_op::clean_inv, b.pa(dst), now_ps());
    });
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    ck_assert(b.task.done);
    b.settled(dst);
    for (unsigned l = 64; l < 256; l += 64)
        b.settled(dst + l);
    ck_assert_msg(std::memcmp(dst, src, sizeof src) == 0, "the copy's first line lost its bytes: %02x %02x", dst[0],
                  dst[1]);
}
END_TEST

// Core 0 copies 256 B out of a 64-B allocation (one report, from the
// range check; the copy's faults on the lines past it add none) and waits
// in the charge of the copy's first line; core 1 meanwhile reads a freed
// slot: its use after free is a report of its own.
START_TEST(test_fault_during_another_cores_copy)
{
    bench b(true);
    uint8_t* small = (uint8_t*)b.k->alloc(64, 64, false);
    uint64_t* gone = (uint64_t*)b.k->alloc(64, 64, false);
    b.k->free(gone);
    static uint8_t dst[256];  // host memory: only the source is modelled
    const tick_t q = to_ps(tlm::tlm_global_quantum::instance().get());
    tick_t copy_from = 0, copy_to = 0, read_at = 0;
    b.task.body = [&](models::cpu::core& c) {
        c.charge_ps(q - c.now() % q - 1, models::cpu::CAT_OTHER);
        copy_from = c.now();
        b.k->copy(dst, small, sizeof dst, nullptr);
        copy_to = c.now();
    };
    b.task1.body = [&](models::cpu::core& c) {
        c.charge_ps(q + PS_PER_NS, models::cpu::CAT_OTHER);  // into core 0's first line
        c.sync();
        read_at = c.now();
        b.k->access(c, b.pa(gone), 8, false, nullptr);
    };
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    ck_assert(b.task.done && b.task1.done);
    ck_assert_msg(read_at > copy_from && read_at < copy_to, "core 1's read at %llu ps is not inside the copy (%llu-%llu)",
                  (unsigned long long)read_at, (unsigned long long)copy_from, (unsigned long long)copy_to);
    const khost::coherence_stats& st = b.k->checker().stats();
    ck_assert_msg(st.events == 2, "%llu fault reports, not 2 (the copy's and core 1's use after free)",
                  (unsigned long long)st.events);
}
END_TEST

Suite* suite_smp_store(void)
{
    Suite* s = suite_create("smp_store");
    TCase* tc = tests_tcase("smp_store", TEST_TIMEOUT_MODEL);
    tcase_add_test(tc, test_store_survives_a_taken_line);
    tcase_add_test(tc, test_no_retake_without_another_core);
    tcase_add_test(tc, test_copy_survives_a_clean_midway);
    tcase_add_test(tc, test_fault_during_another_cores_copy);
    suite_add_tcase(s, tc);
    return s;
}
