// examples/tiny-vp/tiny_vp.cc: a small virtual platform built from fecsim's
// models as TLM-2.0 components, compiled against the installed library:
//
//   c++ -std=c++17 tiny_vp.cc $(pkg-config --cflags --libs fecsim) -o tiny-vp
//
// The platform: one Cortex-A9 core's L1 data cache (with its SCU), the PL310
// L2, the interconnect and one DRAM channel, the ENET MAC and a link partner
// that sends UDP frames at 100 Mbit/s. A testbench CPU thread does what a
// driver does, through TLM sockets: it builds an RX descriptor ring in
// uncached memory, programs and enables the MAC, and then polls the ring;
// for each received frame it invalidates the buffer's lines in the L1 and
// the L2 (as dma_unmap_single on an i.MX6Q), reads the frame through the
// L1, checks its payload and gives the descriptor back. At the end it prints
// what each model counted. Exit status 0 when every frame sent was received
// intact.
#include <cstdio>
#include <cstring>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include "cache/l1.h"
#include "cache/pl310.h"
#include "common/time.h"
#include "enet/enet.h"
#include "mem/dram.h"
#include "mem/noc.h"
#include "mem/phys_mem.h"
#include "net/frame_format.h"
#include "traffic/traffic.h"

using namespace models;
using namespace sc_core;

constexpr uint64_t RX_RING = 0x10100000;  // 64 KiB, mapped uncached (dma_alloc_coherent)
constexpr uint64_t RX_BUF = 0x10200000;   // RING_SIZE buffers of BUF_BYTES, cacheable
constexpr unsigned RING_SIZE = 8;
constexpr uint32_t BUF_BYTES = 2048;
constexpr uint32_t MRBR = 1984;
constexpr uint64_t FRAMES = 100;

// The driver-like CPU: MMIO to the MAC and the PL310's registers, loads and
// stores through its L1.
struct cpu : sc_module {
    tlm_utils::simple_initiator_socket<cpu> mmio;     // -> enet.regs
    tlm_utils::simple_initiator_socket<cpu> l2_regs;  // -> pl310.regs
    tlm_utils::simple_initiator_socket<cpu> mem;      // -> l1_cache.cpu_side
    enet::enet& mac;
    cache::l1_cache& l1;
    sc_time local = SC_ZERO_TIME;  // loosely timed: offset from sc_time_stamp()
    uint64_t received = 0, intact = 0;

    SC_HAS_PROCESS(cpu);
    cpu(sc_module_name n, enet::enet& m, cache::l1_cache& c)
        : sc_module(n), mmio("mmio"), l2_regs("l2_regs"), mem("mem"), mac(m), l1(c)
    {
        SC_THREAD(run);
    }

    void access(tlm_utils::simple_initiator_socket<cpu>& s, bool rd, uint64_t a, void* p, unsigned len)
    {
        tlm::tlm_generic_payload gp;
        gp.set_command(rd ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        gp.set_address(a);
        gp.set_data_ptr((unsigned char*)p);
        gp.set_data_length(len);
        gp.set_streaming_width(len);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        s->b_transport(gp, local);
        if (!gp.is_response_ok())
            SC_REPORT_FATAL("tiny-vp", ("access failed at 0x" + std::to_string(a)).c_str());
    }
    void wr(uint32_t off, uint32_t v) { access(mmio, false, off, &v, 4); }
    void sync() { wait(local); local = SC_ZERO_TIME; }  // MMIO acts at sc_time_stamp()

    void give(unsigned i)  // RX BD i to the MAC: empty, wrap on the last, interrupt bit
    {
        enet::bd b;
        b.sc = (uint16_t)(enet::RXBD_E | (i + 1 == RING_SIZE ? enet::RXBD_W : 0));
        b.bufaddr = (uint32_t)(RX_BUF + i * BUF_BYTES);
        b.esc = enet::RXESC_INT;
        uint8_t raw[64];
        mac.encode_bd(b, raw);
        access(mem, false, RX_RING + i * mac.bd_bytes(), raw, mac.bd_bytes());
    }

    void run()
    {
        wr(enet::REG_PALR, 0x02000000);  // 02:00:00:00:00:01, the link partner's destination
        wr(enet::REG_PAUR, 0x00010000);
        wr(enet::REG_MRBR, MRBR);
        wr(enet::REG_RDSR, (uint32_t)RX_RING);
        wr(enet::REG_ECR, enet::ECR_ETHEREN | enet::ECR_EN1588 | enet::ECR_DBSWP);
        for (unsigned i = 0; i < RING_SIZE; i++)  // in the layout ECR selects
            give(i);
        sync();
        wr(enet::REG_RDAR, 0);
        sync();
        unsigned next = 0;
        while (received < FRAMES && sc_time_stamp() < sc_time(20, SC_MS)) {
            wait(sc_time(50, SC_US));  // poll, as NAPI would after an interrupt
            for (;;) {
                uint8_t raw[64];
                access(mem, true, RX_RING + next * mac.bd_bytes(), raw, mac.bd_bytes());
                const enet::bd b = mac.decode_bd(raw);
                if (b.sc & enet::RXBD_E)
                    break;
                // dma_unmap_single(FROM_DEVICE): L1 by MVA, then the PL310 by PA.
                const unsigned lines = (b.datlen + l1.line_bytes() - 1) / l1.line_bytes();
                local += from_ps(l1.maint_lines(cache::l1_op::inv, b.bufaddr, lines, now_ps() + to_ps(local)));
                for (unsigned k = 0; k < lines; k++) {
                    uint32_t pa = b.bufaddr + k * l1.line_bytes();
                    access(l2_regs, false, cache::pl310_reg::INV_LINE_PA, &pa, 4);
                }
                uint8_t frame[BUF_BYTES];
                access(mem, true, b.bufaddr, frame, b.datlen);
                const uint8_t* payload;
                size_t plen;
                uint32_t seq;
                received++;
                if (traffic_udp_payload(frame, b.datlen - 4, &payload, &plen) == 0 &&
                    traffic_verify_payload(payload, plen, &seq) == TRAFFIC_OK)
                    intact++;
                give(next);
                next = (next + 1) % RING_SIZE;
                sync();
                wr(enet::REG_RDAR, 0);
            }
            sync();
        }
        sc_stop();
    }
};

int sc_main(int, char**)
{
    time_setup();  // 1 ps resolution, before any sc_time exists
    mem::dram_config dc;
    dc.backed = 16ull << 20;
    mem::phys_mem pm(dc.phys());
    pm.map_uncached(RX_RING, 64 << 10);
    mem::dram dram("dram", dc, pm);
    mem::noc noc("noc", mem::noc_config{});
    cache::pl310 l2("l2", cache::l2_config{}, pm);
    cache::scu scu;
    cache::l1_cache l1("l1", cache::l1_config{}, 0, pm, scu);
    enet::enet mac("mac", enet::enet_config{});
    traffic::traffic_config tc;
    tc.count = FRAMES;
    tc.rate_fps = 10000;
    tc.start_ps = 100 * PS_PER_US;
    traffic::traffic_source link("link", tc);
    cpu core("cpu", mac, l1);
    sc_signal<bool> irq("irq");

    l1.mem_side.bind(l2.cpu_side);
    l2.mem_side.bind(noc.masters);
    mac.dma.bind(noc.masters);
    noc.mem_side.bind(dram.bus);
    core.mmio.bind(mac.regs);
    core.l2_regs.bind(l2.regs);
    core.mem.bind(l1.cpu_side);
    mac.irq.bind(irq);
    link.out.bind(mac.phy_rx);

    sc_start();
    std::printf("tiny-vp: %.3f ms simulated\n", sc_time_stamp().to_seconds() * 1e3);
    std::printf("link:  %llu frames sent\n", (unsigned long long)link.next_seq());
    std::printf("enet:  %llu received, %llu delivered to memory, %llu dropped (FIFO)\n",
                (unsigned long long)mac.stats().rx_frames, (unsigned long long)mac.stats().rx_delivered,
                (unsigned long long)mac.stats().rx_fifo_drops);
    std::printf("cpu:   %llu frames read, %llu with an intact payload\n", (unsigned long long)core.received,
                (unsigned long long)core.intact);
    std::printf("l1:    %llu read hits, %llu read misses\n", (unsigned long long)l1.stats().read_hits,
                (unsigned long long)l1.stats().read_misses);
    std::printf("l2:    %llu hits, %llu misses, %llu INV_LINE_PA\n", (unsigned long long)l2.stats().hits,
                (unsigned long long)l2.stats().misses, (unsigned long long)l2.stats().inv_line_ops);
    std::printf("dram:  %llu reads, %llu writes (%llu B for the uDMA)\n", (unsigned long long)dram.stats().reads,
                (unsigned long long)dram.stats().writes, (unsigned long long)dram.stats().dma_bytes);
    return core.received == FRAMES && core.intact == FRAMES ? 0 : 1;
}
