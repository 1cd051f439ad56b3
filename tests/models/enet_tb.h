// Testbench for the ENET MAC: DRAM + interconnect + MAC + link partner, a
// register-level initiator (like a qtest), and driver-like ring helpers.
#pragma once
#include <cstdlib>
#include <cstring>
#include <vector>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include "common/log.h"
#include "enet/enet.h"
#include "mem/dram.h"
#include "mem/noc.h"
#include "mem/phys_mem.h"
#include "traffic/traffic.h"

namespace enet_tb {

using namespace models;
using namespace models::enet;

constexpr uint64_t RX_RING = 0x10100000;
constexpr uint64_t TX_RING = 0x10108000;
constexpr uint64_t RX_BUF = 0x10200000;  // + i * BUF_STRIDE
constexpr uint64_t TX_BUF = 0x10400000;
constexpr uint32_t BUF_STRIDE = 2048;
constexpr uint32_t MRBR = 1984;
// Station address 02:00:00:00:00:01 (the traffic source's default destination).
constexpr uint32_t PALR = 0x02000000;
constexpr uint32_t PAUR = 0x00010000;

// MMIO master: one 32-bit access per call, issued between sc_start() steps.
struct tb_cpu : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<tb_cpu> sock;
    explicit tb_cpu(sc_core::sc_module_name n) : sc_module(n), sock("sock") {}
    uint32_t access(bool rd, uint32_t off, uint32_t v)
    {
        tlm::tlm_generic_payload gp;
        gp.set_command(rd ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        gp.set_address(off);
        gp.set_data_ptr((unsigned char*)&v);
        gp.set_data_length(4);
        gp.set_streaming_width(4);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        sock->b_transport(gp, d);
        return v;
    }
    uint32_t rd(uint32_t off) { return access(true, off, 0); }
    void wr(uint32_t off, uint32_t v) { access(false, off, v); }
};

// Link tap: records frame start times, forwards to the MAC.
struct tb_tap : sc_core::sc_module, frame_sink_if {
    sc_core::sc_export<frame_sink_if> in;
    sc_core::sc_port<frame_sink_if> out;
    std::vector<tick_t> starts;
    explicit tb_tap(sc_core::sc_module_name n) : sc_module(n), in("in"), out("out") { in.bind(*this); }
    void frame_start(const eth_frame& f) override
    {
        starts.push_back(f.start_ps);
        out->frame_start(f);
    }
};

struct captured {
    std::vector<uint8_t> data;
    tick_t start;
};

inline mem::dram_config dram_cfg()
{
    mem::dram_config c;
    c.backed = 16ull << 20;
    return c;
}

struct time_init {
    time_init() { time_setup(); }
};

struct bench {
    time_init ti;  // first: the time resolution is fixed before any sc_time exists
    mem::dram_config dc = dram_cfg();
    mem::phys_mem pm{dc.phys()};
    mem::dram dram{"dram", dc, pm};
    mem::noc noc{"noc", mem::noc_config{}};
    models::enet::enet mac;
    tb_cpu cpu{"cpu"};
    traffic::traffic_sink sink{"sink"};
    sc_core::sc_signal<bool> irq{"irq_sig"};
    std::vector<captured> tx_frames;

    explicit bench(const enet_config& cfg = enet_config()) : mac("mac", cfg)
    {
        if (const char* t = std::getenv("FEC_TRACE"))  // debugging aid: FEC_TRACE=mac,desc,dma
            trace_parse(t, &g_trace_flags, nullptr);
        pm.map_uncached(RX_RING, 64 << 10);
        mac.dma.bind(noc.masters);
        noc.mem_side.bind(dram.bus);
        cpu.sock.bind(mac.regs);
        mac.irq.bind(irq);
        mac.phy_tx.bind(sink.in);
        sink.set_observer([this](const eth_frame& f) {
            tx_frames.push_back({std::vector<uint8_t>(f.data, f.data + f.len), f.start_ps});
        });
    }

    void run_until(tick_t t)
    {
        const tick_t now = now_ps();
        sc_core::sc_start(from_ps(t > now ? t - now : 0));
        // sc_start(d) stops before the events due at the end time; run them too.
        while (sc_core::sc_pending_activity_at_current_time())
            sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }

    // Driver-like setup: station address, ring bases, BD format, enable.
    void start(uint32_t eimr = 0, uint32_t racc = 0, bool enhanced = true, bool le = true, uint32_t ecr_extra = 0)
    {
        cpu.wr(REG_PALR, PALR);
        cpu.wr(REG_PAUR, PAUR);
        cpu.wr(REG_MRBR, MRBR);
        cpu.wr(REG_RDSR, (uint32_t)RX_RING);
        cpu.wr(REG_TDSR, (uint32_t)TX_RING);
        cpu.wr(REG_RACC, racc);
        cpu.wr(REG_TFWR, TFWR_STRFWD);
        cpu.wr(REG_MIBC, 0);
        cpu.wr(REG_EIMR, eimr);
        cpu.wr(REG_ECR, ECR_ETHEREN | ecr_extra | (enhanced ? (uint32_t)ECR_EN1588 : 0u) | (le ? (uint32_t)ECR_DBSWP : 0u));
    }

    uint64_t rx_bd_addr(unsigned i) { return RX_RING + (uint64_t)i * mac.bd_bytes(); }
    uint64_t tx_bd_addr(unsigned i) { return TX_RING + (uint64_t)i * mac.bd_bytes(); }
    uint64_t rx_buf(unsigned i) { return RX_BUF + (uint64_t)i * BUF_STRIDE; }
    uint64_t tx_buf(unsigned i) { return TX_BUF + (uint64_t)i * BUF_STRIDE; }

    // Give RX BD i to the MAC (as the driver does: status cleared, E set, esc = INT).
    void arm_rx(unsigned i, bool wrap)
    {
        bd b;
        b.sc = (uint16_t)(RXBD_E | (wrap ? RXBD_W : 0));
        b.bufaddr = (uint32_t)rx_buf(i);
        b.esc = RXESC_INT;
        mac.encode_bd(b, pm.cpu_view(rx_bd_addr(i)));
    }
    void arm_rx_ring(unsigned n, unsigned armed)
    {
        for (unsigned i = 0; i < n; i++) {
            if (i < armed)
                arm_rx(i, i + 1 == n);
            else {  // present but owned by the CPU
                bd b;
                b.sc = (uint16_t)((i + 1 == n) ? RXBD_W : 0);
                b.bufaddr = (uint32_t)rx_buf(i);
                b.esc = RXESC_INT;
                mac.encode_bd(b, pm.cpu_view(rx_bd_addr(i)));
            }
        }
    }
    bd rx_bd(unsigned i) { return mac.decode_bd(pm.dram_view(rx_bd_addr(i))); }
    bd tx_bd(unsigned i) { return mac.decode_bd(pm.dram_view(tx_bd_addr(i))); }

    // Queue frame bytes (without FCS) in TX BD i.
    void put_tx(unsigned i, const uint8_t* data, uint16_t len, uint16_t flags)
    {
        std::memcpy(pm.dram_view(tx_buf(i)), data, len);
        bd b;
        b.sc = flags;
        b.datlen = len;
        b.bufaddr = (uint32_t)tx_buf(i);
        b.esc = TXESC_INT;
        mac.encode_bd(b, pm.cpu_view(tx_bd_addr(i)));
    }
};

// The bytes the traffic source sends as frame `seq` (incl. FCS).
inline std::vector<uint8_t> expected_frame(const traffic::traffic_config& tc, uint32_t len, uint32_t seq)
{
    traffic_flow fl{};
    for (int i = 0; i < 6; i++) {
        fl.dst_mac[i] = (uint8_t)(tc.dst_mac >> (8 * (5 - i)));
        fl.src_mac[i] = (uint8_t)(tc.src_mac >> (8 * (5 - i)));
    }
    fl.src_ip = tc.src_ip;
    fl.dst_ip = tc.dst_ip;
    fl.src_port = (uint16_t)tc.src_port;
    fl.dst_port = (uint16_t)tc.dst_port;
    std::vector<uint8_t> f(len);
    traffic_build_frame(f.data(), len, &fl, seq);
    return f;
}

// Sequence number of the test frame in a received buffer (-1 if it does not verify).
inline long buffer_seq(const uint8_t* frame, uint32_t len_with_fcs)
{
    const uint8_t* p;
    size_t n;
    uint32_t seq;
    if (traffic_udp_payload(frame, len_with_fcs - 4, &p, &n) != 0 || traffic_verify_payload(p, n, &seq) != TRAFFIC_OK)
        return -1;
    return (long)seq;
}

} // namespace enet_tb
