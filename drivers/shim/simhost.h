/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drivers/shim/simhost.h: the only interface between the kernel-API shim
 * (C, no SystemC) and the simulator (sim/, C++). The shim implements the
 * kernel API on top of these calls; sim/ implements them on the models.
 *
 * Addresses: "pa" is a simulated physical address; host pointers into
 * simulated memory are CPU-view pointers (see models/mem/phys_mem.h).
 * Times are charged to the core that runs the calling code.
 */
#ifndef FECSIM_SIMHOST_H
#define FECSIM_SIMHOST_H

/* The shim's 6.x level is built with -nostdinc: its <linux/types.h> gives
 * size_t and the fixed-width types. */
#if !(defined(_LINUX_TYPES_H) && defined(FECSIM_API_LEVEL))
#include <stddef.h>
#include <stdint.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Cost categories of CPU time, for the cycles-per-frame breakdown. */
enum simhost_cat {
	SIMHOST_CAT_DRIVER = 0,	/* driver code, cached data accesses */
	SIMHOST_CAT_DESC,	/* uncached descriptor accesses */
	SIMHOST_CAT_MMIO,	/* device register accesses and their barriers */
	SIMHOST_CAT_DMA_SYNC,	/* dma_map/unmap/sync cache maintenance */
	SIMHOST_CAT_COPY,	/* memcpy/memset of packet data */
	SIMHOST_CAT_STACK,	/* network stack above the driver */
	SIMHOST_CAT_ALLOC,	/* skb and buffer allocation/free */
	SIMHOST_CAT_COUNT
};

/* Simulated memory. */
void *simhost_alloc(size_t size, size_t align, int uncached);	/* contents undefined; NULL if exhausted */
void simhost_free(void *p);
/* Allocations of kernel code, checked (use after free, double free, bounds,
 * leaks): size is the size asked for (the redzone starts there); site is the
 * code address that asked (the caller of kmalloc, netdev_alloc_skb...).
 * simhost_alloc/simhost_free are the host's own (application buffers): they
 * are never reported and count as roots of the leak scan. */
enum simhost_mem_kind {
	SIMHOST_MEM_HOST = 0,	/* simhost_alloc */
	SIMHOST_MEM_KMALLOC,	/* kmalloc and friends */
	SIMHOST_MEM_SKB,	/* struct sk_buff */
	SIMHOST_MEM_SKB_DATA,	/* an skb's data buffer and shared info */
	SIMHOST_MEM_COHERENT,	/* dma_alloc_coherent (uncached pool) */
};
void *simhost_kalloc(size_t size, size_t align, int kind, const void *site);
void simhost_kfree(const void *p, int kind, const void *site);
/* An skb data buffer (kind SIMHOST_MEM_SKB_DATA) from one of the running
 * core's page-fragment caches (page_frag_alloc: kernel.page_frag_bytes);
 * napi: napi_alloc_cache (napi_alloc_skb) rather than netdev_alloc_cache
 * (netdev_alloc_skb). Freed with simhost_kfree; size is rounded up to whole
 * 64-B lines. */
void *simhost_frag_alloc(size_t size, int napi, const void *site);
uint64_t simhost_pa(const void *p);		/* ~0 if not simulated memory */
void *simhost_va(uint64_t pa);			/* CPU-view pointer of a pa */

/* Memory accesses of instrumented code and of the shim's own helpers. */
void simhost_access(const void *p, size_t size, int is_write);
void simhost_copy(void *dst, const void *src, size_t n);	/* memcpy through the caches */
void simhost_fill(void *dst, int c, size_t n);			/* memset through the caches */
void simhost_prefetch(const void *p);
/* Reads every line of [p, p+n), costing only what each read takes beyond an
 * L1 hit: memory whose instructions are in the caller's cycle charge. */
void simhost_touch(const void *p, size_t n);

/* Device registers (32-bit). pa is the register's physical address. */
uint32_t simhost_mmio_read32(uint64_t pa);
void simhost_mmio_write32(uint64_t pa, uint32_t v);

/* Barriers as on ARMv7 with an outer PL310 (docs/sources.md §4.5). */
enum simhost_barrier {
	SIMHOST_DSB = 0,	/* rmb(), dsb */
	SIMHOST_DSB_OUTER_SYNC,	/* wmb()/mb(): dsb + PL310 CACHE_SYNC */
	SIMHOST_DMB,		/* dma_rmb()/dma_wmb(), smp_*mb() */
};
void simhost_barrier(int kind);

/* Streaming DMA maintenance; dir as enum dma_data_direction. MAP of
 * SIMHOST_DMA_BAD_ADDR (memory that is not DMA-able) records nothing;
 * MAPPING_ERROR is dma_mapping_error() on pa (size, dir unused). */
enum simhost_dma_op {
	SIMHOST_DMA_MAP = 0, SIMHOST_DMA_UNMAP, SIMHOST_DMA_SYNC_CPU, SIMHOST_DMA_SYNC_DEVICE,
	SIMHOST_DMA_MAPPING_ERROR,
};
#define SIMHOST_DMA_BAD_ADDR 0xffffffffull	/* DMA_MAPPING_ERROR of the 32-bit dma_addr_t */
/* Or'ed into SIMHOST_DMA_MAP/UNMAP: DMA_ATTR_SKIP_CPU_SYNC (a page pool's
 * long-lived mapping). No cache maintenance; a map leaves the lines with
 * the CPU until a sync_for_device hands them over, an unmap takes them back
 * without invalidating. */
#define SIMHOST_DMA_ATTR_SKIP_CPU_SYNC 0x100
void simhost_dma(int op, uint64_t pa, size_t size, int dir, const void *caller);
/* The DMA address of [p, p+size) for dma_map_single: its pa, or, if p is not
 * simulated kernel memory (host stack, driver data or rodata, host heap),
 * SIMHOST_DMA_BAD_ADDR after reporting it. */
uint64_t simhost_dma_pa(const void *p, size_t size, const void *caller);
/* dma_alloc_coherent (after the allocation: handle, size asked) and
 * dma_free_coherent (checked against the allocation, then freed). */
void simhost_dma_coherent_alloc(uint64_t handle, const void *cpu, size_t size, const void *caller);
void simhost_dma_coherent_free(uint64_t handle, const void *cpu, size_t size, const void *caller);

/* Time. */
void simhost_charge(uint64_t cycles, int cat);	/* plain CPU work */
int simhost_cat_enter(int cat);			/* returns the previous category */
/* Critical section (spinlock held): the core does not yield to other agents inside. */
void simhost_atomic_enter(void);
void simhost_atomic_leave(void);
void simhost_cat_leave(int prev);
void simhost_delay_ns(uint64_t ns);		/* busy wait (udelay) */
/* One poll of a spinlock another core holds: its cost, then the other cores
 * catch up to this core's time (so that the holder can release it). */
void simhost_spin_poll(void);
void simhost_sleep_ns(uint64_t ns);		/* the task sleeps (msleep) */
uint64_t simhost_time_ns(void);			/* the core's current time */
/* The run's timeline (--trace-events): whether it is recorded; the core's
 * time in ps to start a span at; the span [since, now] named name on the
 * core's track, with one numeric argument (arg_name NULL: none). */
int simhost_tracing(void);
uint64_t simhost_trace_mark(void);
void simhost_trace_span(const char *name, uint64_t since, const char *arg_name, long arg);
unsigned long simhost_jiffies(void);
unsigned int simhost_hz(void);
int simhost_cpu(void);				/* core running the caller */

/* Interrupts, NAPI, softirq. */
typedef int (*simhost_irq_fn)(int irq, void *dev_id);
int simhost_request_irq(unsigned int irq, simhost_irq_fn fn, void *dev_id);
void simhost_free_irq(unsigned int irq, void *dev_id);
void simhost_raise_net_rx(void);	/* raise NET_RX_SOFTIRQ on this core */
int simhost_in_softirq(void);
void simhost_preempt_point(void);	/* pending hardirqs may run here */

/* Deferred work of a kernel tree driver's shim (timers, work queues, PHY
 * polling; drivers/shim/v6/time.c): fn runs in process context on the RX
 * interrupt core (a kernel worker task) once the simulated time reaches the
 * earliest time asked for with simhost_kworker_at. */
void simhost_kworker(void (*fn)(void));
void simhost_kworker_at(uint64_t at_ns);

/* The receiving socket's reader (the application task) has data. */
void simhost_socket_wake(void);
/* A TCP or ICMP datagram for the board (ip: its IPv4 header, len: bytes
 * from there, checked by ip_rcv_core): the kernel host's endpoints take it
 * (1: consumed, the caller frees the skb) or not (0). Runs in the NET_RX
 * softirq; may transmit (an ACK-clocked TCP send, an echo reply). */
int simhost_l4_receive(const void *ip, size_t len);
/* GRO at the 6.x level (napi_gro_receive): a frame of the board's
 * receiving TCP stream (ip: its IPv4 header, len bytes from there, truesize
 * its skb's, csum_ok: the device vouched for its checksums) that the
 * kernel host takes (1; the skb is then the host's until it calls
 * fecsim_v6_skb_consume) or not (0: GRO_NORMAL). napi: the instance, whose
 * held segments simhost_gro_flush hands up (napi_gro_flush). Run in the
 * NET_RX softirq. */
int simhost_gro_receive(void *napi, void *skb, const void *ip, size_t len, unsigned truesize, int csum_ok);
void simhost_gro_flush(void *napi);
/* Whether the UDP checksum of the IPv4 datagram at ip (header first; udp_avail
 * bytes of UDP header and payload there) is right (a zero checksum field:
 * none sent, right; a UDP length beyond udp_avail: wrong), as the bytes are
 * in the CPU's view; no simulated cost (the kernel folds it into the copy to
 * user). */
int simhost_udp4_csum_ok(const void *ip, size_t udp_avail);
/* 1 if the IPv4 header of ihl bytes at ip has the right header checksum
 * (ip_fast_csum); no simulated cost (part of the stack's charge). */
int simhost_ipv4_hdr_ok(const void *ip, size_t ihl);

/* Fatal: stop the run with a message naming the cause (never returns). */
void simhost_stop(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* A kernel function the shim does not carry out was called (a stop-on-call
 * stub): stop the run as a driver fault (exit 3) naming the function and
 * the call site (caller: the return address into the calling code). */
void simhost_stop_on_call(const char *name, const void *caller) __attribute__((noreturn));
void simhost_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void simhost_trace(const char *func);

#ifdef __cplusplus
}
#endif
#endif
