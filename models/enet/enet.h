// models/enet/enet.h: the i.MX6Q ENET (FEC) MAC with its uDMA, RX/TX FIFOs,
// register file, MDIO and the RMON/IEEE counter block.
//
// Models (docs/sources.md §1, 2):
//  - the register file at the i.MX6Q offsets (enet_regs.h), reset values,
//    EIR write-1-to-clear, RDAR/TDAR, soft reset, MIB freeze/clear;
//  - legacy 8-B and enhanced 32-B descriptors in simulated memory, little-
//    endian with ECR.DBSWP and big-endian without; every descriptor access is
//    a TLM transaction on `dma` (uDMA is non-coherent: it bypasses the CPU
//    caches), all layout handling in read_bd()/write_bd();
//  - RX: frames arrive byte by byte at line rate into an RX FIFO of
//    rx_fifo_bytes; the uDMA fetches a BD when it takes a frame: once the
//    frame is wholly in the FIFO (store and forward, RSFL = 0), or once RSFL
//    words are in, moving data in bursts as it arrives (cut-through); honours
//    RACC.SHIFT16, MRBR (frames span BDs), MAX_FL (LG), FTRL (TR), FCS (CR),
//    the address filter (PALR/PAUR, hashes, PROM, BC_REJ), and stops with RDAR
//    clear when it meets a non-empty BD. While it is stopped the FIFO fills;
//    a frame whose start finds the FIFO full is dropped whole, a frame that
//    overflows it mid-frame is kept truncated and written with OV; both count
//    once in IEEE_R_MACERR;
//  - RX flow control: with RCR.FCE and RSEM != 0, XOFF (OPD quanta) when the
//    FIFO reaches RSEM words, XON when it falls below; received pause frames
//    hold TX;
//  - TX: a TDAR write starts a BD walk; READY frames are read into the TX FIFO
//    (store and forward), sent at line rate with TIPG, and written back after
//    their last byte; ERR006358 as a profile switch;
//  - ERR004512: RX and TX data bursts share a FIFO-to-fabric path of
//    bus_limit bit/s (token bucket of bus_limit_burst bytes, bus_pace());
//  - irq = (EIR & EIMR) != 0 after irq_latency_cycles; RXIC0/TXIC0 coalescing
//    when has_coalesce.
//  - TX checksum insertion: IPv4 header and TCP/UDP checksums by the enhanced
//    BD's IINS/PINS or TACC.IPCHK/PROCHK (over the field as the driver left it);
//  - RX accelerator discards in store and forward (RACC IPDIS, PRODIS,
//    LINEDIS): the frame leaves the FIFO without a BD;
// Does not model: 1588 timer and timestamps, RACC padding removal, collisions and half
// duplex, graceful stop, magic packet/sleep, TX cut-through (TFWR watermark),
// multi-queue/AVB rings, MMIO access latency (the CPU side charges it).
// Register effects apply at sc_time_stamp(): initiators sync before MMIO.
#pragma once
#include <functional>
#include <deque>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>
#include "enet/enet_config.h"
#include "common/params.h"
#include "common/stats.h"
#include "common/time.h"
#include "enet/enet_regs.h"
#include "net/phy_if.h"
#include "mem/mem_ext.h"

namespace models::enet {

struct enet_stats {
#define S FEC_STAT_MEMBER
#include "enet/enet_stats.def"
#undef S
};
extern const stat_desc enet_stat_rows[];
extern const size_t enet_stat_count;

// One descriptor, decoded. Layout and byte order live only in read_bd()/write_bd().
struct bd {
    uint16_t datlen = 0;   // bytes
    uint16_t sc = 0;       // status/control (RXBD_* / TXBD_*)
    uint32_t bufaddr = 0;  // physical address
    uint32_t esc = 0;      // enhanced status/control (RXESC_* / TXESC_*)
    uint32_t prot = 0;     // protocol checksum info (written 0)
    uint32_t bdu = 0;      // BDU_BIT when the MAC updated the BD
    uint32_t ts = 0;       // 1588 timestamp (written 0)
};

class enet : public sc_core::sc_module, private frame_sink_if {
public:
    tlm_utils::simple_target_socket<enet> regs;     // MMIO, 32-bit accesses at docs/sources.md §1.4 offsets
    tlm_utils::simple_initiator_socket<enet> dma;   // uDMA master; bind to noc::masters
    sc_core::sc_out<bool> irq;                      // level: (EIR & EIMR) != 0, delayed
    sc_core::sc_export<frame_sink_if> phy_rx;       // frames from the link partner
    sc_core::sc_port<frame_sink_if, 1, sc_core::SC_ZERO_OR_MORE_BOUND> phy_tx;  // frames to it
    sc_core::sc_port<pause_if, 1, sc_core::SC_ZERO_OR_MORE_BOUND> phy_pause;   // XOFF/XON to it

    enet(sc_core::sc_module_name nm, const enet_config& cfg);
    SC_HAS_PROCESS(enet);

    const enet_config& config() const { return m_cfg; }
    const enet_stats& stats() const
    {
        late_catch_up(false);
        return m_stats;
    }
    void reset_stats();
    void visit_stats(const std::string& prefix, const stat_visitor& v) const;

    // The register interface without a socket (same semantics as `regs`).
    uint32_t reg_read(uint32_t off);
    void reg_write(uint32_t off, uint32_t val);
    // RX FIFO occupancy now, bytes (whole words).
    uint32_t rx_fifo_level();
    // Received frames the MAC holds now, for the frame balance (sim/soc.cc):
    // in the RX FIFO and not yet written back with their last BD. ov: count
    // the frames an overrun truncated (drops already) instead of the others.
    unsigned rx_fifo_frames(bool ov) const;
    // Frames written to the RX ring (last BD back with E clear) that the
    // driver has not given back yet, read from the ring in memory through the
    // peek given to set_ring_peek (0 without one). ov as above. At a MAC reset
    // or ETHEREN clear the frames then in the ring count as rx_ring_discarded.
    unsigned rx_ring_frames(bool ov) const;
    // peek returns the host bytes of the BD at a physical address, or null
    // where memory holds no data (a ring walk stops there).
    void set_ring_peek(std::function<const uint8_t*(uint32_t pa)> peek) { m_ring_peek = std::move(peek); }

    // Descriptor codec, exposed for tests and for driver-side tools that build
    // rings: encode into / decode from bd_bytes() bytes of host memory.
    unsigned bd_bytes() const;
    void encode_bd(const bd& b, uint8_t* out) const;
    bd decode_bd(const uint8_t* in) const;

private:
    std::function<const uint8_t*(uint32_t pa)> m_ring_peek;
    void note_ring_discard();
    struct rx_slot {
        std::vector<uint8_t> data;  // the kept bytes of the frame (keep_len)
        uint32_t wire_len = 0;      // bytes on the wire incl. FCS
        uint32_t keep_len = 0;      // min(wire_len, FTRL)
        uint32_t stored = 0;        // bytes that entered the FIFO so far
        uint32_t drained = 0;       // bytes taken out by the uDMA
        bool final = false;         // reception over
        bool ov = false;            // truncated by FIFO overflow
        bool ok_counted = false;
        bool written = false;       // last BD written back: in the ring now, leaving the FIFO
        bool writing = false;       // its last BD is being written back (in memory already: counted in the ring)
        uint16_t sc = 0;            // status bits for the last BD
        uint32_t esc = 0;           // enhanced status bits
        tick_t t_first = 0;         // byte k is complete at t_first + (k+1)*byte_ps
        tick_t byte_ps = 0;
        tick_t t_end = 0;           // last byte of the wire frame complete
    };
    struct tx_slot {
        std::vector<uint8_t> data;  // frame incl. FCS
        uint32_t len = 0;
        uint32_t fifo_bytes = 0;    // TX FIFO space held
        bool fcs_appended = false;  // the MAC computed the FCS (TxBD TC), not the driver
        std::vector<std::pair<uint32_t, bd>> bds;  // descriptors to write back
    };
    struct coalescer {
        uint32_t reg = 0;
        uint32_t frames = 0;
        sc_core::sc_event timer;
    };

    // frame_sink_if (phy_rx)
    void frame_start(const eth_frame& f) override;
    bool refuses_all() const override;
    void frame_refused(const eth_frame& f) override;
    bool frames_refused(const eth_frame& first, uint64_t n, tick_t step_ps) override;
    void set_late_sender(late_sender_if* s) override { m_late = s; }
    // A frame starting at t (now, or before now when handed over late).
    void rx_frame(const eth_frame& f, tick_t t, bool late);
    // The RMON counts of n arriving frames alike in length and header.
    void rx_count_arrivals(const eth_frame& f, bool crc_ok, uint64_t n);
    // An 802.3x pause frame by its header (destination and EtherType).
    static bool pause_header(const eth_frame& f);
    // n frames found the RX FIFO full: dropped whole (IEEE_rx_macerr).
    void rx_fifo_drop(uint64_t n);
    // Frames a late sender still holds are handed over first (see
    // frame_sink_if::refuses_all): before every register access and every
    // look at the statistics or the RX state.
    void late_catch_up(bool wake) const
    {
        if (m_late)
            m_late->catch_up(wake);
    }

    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
    void reset_regs();
    void stop_datapath();  // ETHEREN clear / soft reset: flush FIFOs, pointers to ring start
    void mib_inc(uint32_t off, uint64_t n = 1);
    void raise(uint32_t eir_bits);
    void frame_event(bool rx);  // RXF/TXF through coalescing
    void update_irq();
    void irq_method();
    void mdio_method();
    void rx_coal_method();
    void tx_coal_method();
    void pause_check_method();

    // uDMA
    // One uDMA transaction at now; returns when it is done, then_ps later
    // (the uDMA's own work after it: one wait for both).
    bool dma_xfer(tlm::tlm_command cmd, uint64_t addr, uint8_t* p, unsigned len, mem::mem_txn& t, tick_t then_ps = 0);
    // ERR004512: a data burst of n bytes between a FIFO and the fabric waits
    // until the shared path has credit for it (token bucket of
    // bus_limit_burst bytes refilled at bus_limit; no wait while credit
    // lasts, none at all with bus_limit 0). Returns after that wait.
    void bus_pace(uint32_t n);
    tick_t m_bus_tat = 0;        // the bucket's theoretical arrival time (GCRA): empty of debt from here on
    double m_bus_ps_per_byte = 0; // path time of one byte, ps (0: no limit)
    tick_t m_bus_tol_ps = 0;      // bus_limit_burst bytes of path time
    uint32_t m_bus_n = 0;         // the latest bus_pace() length, B, and its path time, ps
    tick_t m_bus_cost = 0;
    bool read_bd(uint32_t addr, bd& b, mem::mem_txn& t);
    bool write_bd(uint32_t addr, const bd& b, mem::mem_txn& t);
    bool enhanced() const;
    bool le_bds() const { return (m_ecr & ECR_DBSWP) != 0; }
    uint32_t ring_next(uint32_t cur, const bd& b, uint32_t ring_start) const;

    // RX
    void rx_dma_thread();
    bool rx_fetch_bd(uint32_t& addr, bd& b, unsigned gen);
    bool rx_wait_bytes(rx_slot& f, uint32_t k, unsigned gen);
    void rx_settle() { rx_settle_at(now_ps()); }
    // rx_settle as of t (not before its previous call: a frame handed over late).
    void rx_settle_at(tick_t t);
    uint64_t rx_occupancy(const rx_slot* skip) const;
    // No room for an arriving frame: every frame slot taken or the FIFO's bytes.
    bool rx_fifo_full() const { return m_rx_count == m_rx_slots.size() || rx_occupancy(nullptr) >= m_cfg.rx_fifo_bytes; }
    uint64_t rx_slot_occ(const rx_slot& s) const;
    uint64_t m_rx_occ = 0;  // bytes of all live RX slots in the FIFO (whole words)
    void rx_pause_eval();
    bool rx_accept(const uint8_t* d, uint32_t len, uint16_t& sc, uint32_t& esc) const;
    rx_slot& rx_at(unsigned i) { return m_rx_slots[(m_rx_head + i) % m_rx_slots.size()]; }
    // The head frame leaves the FIFO (taken by the uDMA or discarded).
    void rx_pop();
    // Whether the receive accelerator discards the whole, settled frame f
    // (store and forward: RSFL = 0): RACC.IPDIS and ICE, PRODIS and PCR,
    // LINEDIS and a bad FCS or a too-long frame (docs/sources.md §1.2).
    bool rx_accel_discards(const rx_slot& f) const;

    // TX
    void tx_dma_thread();
    void tx_mac_thread();
    void tx_send_pause();
    bool tx_in_flight(uint32_t addr) const;  // BD of a frame still in the TX FIFO

    const enet_config m_cfg;
    clock_domain m_clk;
    tick_t m_byte_ps;
    enet_stats m_stats{};
    unsigned m_gen = 0;  // bumped by stop_datapath(); uDMA threads abandon work of an older gen

    // registers
    uint32_t m_eir = 0, m_eimr = 0, m_ecr = ECR_RESET_VALUE, m_mmfr = 0, m_mscr = 0;
    uint32_t m_mibc = MIBC_RESET_VALUE, m_rcr = RCR_RESET_VALUE, m_tcr = 0;
    uint32_t m_palr = 0, m_paur = 0, m_opd = OPD_RESET_VALUE;
    uint32_t m_iaur = 0, m_ialr = 0, m_gaur = 0, m_galr = 0, m_tfwr = 0;
    uint32_t m_rdsr = 0, m_tdsr = 0, m_mrbr = 0;
    uint32_t m_rsfl = 0, m_rsem = 0, m_raem = RAEM_RESET_VALUE, m_rafl = RAFL_RESET_VALUE;
    uint32_t m_tsem = 0, m_taem = TAEM_RESET_VALUE, m_tafl = TAFL_RESET_VALUE;
    uint32_t m_tipg = TIPG_RESET_VALUE, m_ftrl = FTRL_RESET_VALUE, m_tacc = 0, m_racc = 0;
    uint32_t m_mib[MIB_WORDS] = {};
    bool m_rdar = false, m_tdar = false;
    // Rings 1 and 2 (index 0, 1), queues >= 2: registers only; frames use ring 0.
    uint32_t m_ring_rdsr[2] = {}, m_ring_tdsr[2] = {}, m_ring_mrbr[2] = {}, m_rcmr[2] = {}, m_dmacfg[2] = {};
    uint32_t m_ring_rxic[2] = {}, m_ring_txic[2] = {}, m_qos = 0;
    bool m_ring_rdar[2] = {}, m_ring_tdar[2] = {}, m_ring_tx_warned = false;
    // The ring (1 or 2) whose register is at off, 0 if none or the ring does not exist.
    unsigned ring_of(uint32_t off) const;
    uint32_t ring_read(uint32_t off, unsigned i) const;      // i = ring - 1
    void ring_write(uint32_t off, unsigned i, uint32_t v);
    coalescer m_rxic, m_txic;

    // irq output pipeline
    // RXF masked while enabled, since m_rxf_masked_from (rx_irq_masked_ps).
    bool m_rxf_masked = false;
    tick_t m_rxf_masked_from = 0;
    void note_rxf_mask();
    bool m_irq_level = false;  // undelayed level
    bool m_irq_out = false;    // level on the pin
    std::deque<bool> m_irq_q;
    sc_core::sc_event_queue m_irq_evq;

    // MDIO
    uint16_t m_phy_regs[32] = {};
    sc_core::sc_event m_mdio_ev;

    // RX
    std::vector<rx_slot> m_rx_slots;
    unsigned m_rx_head = 0, m_rx_count = 0;
    uint32_t m_rx_cur = 0;
    sc_core::sc_event m_rx_ev;
    mem::mem_txn m_rx_txn;
    std::vector<uint8_t> m_burst;
    bool m_xoff = false;
    tick_t m_xoff_until = 0;
    sc_core::sc_event m_pause_check_ev;
    bool m_mrbr_warned = false, m_speed_warned = false, m_link_warned = false;
    void check_speed(const char* dir);  // "arrived" / "was sent": ECR.SPEED against the link
    late_sender_if* m_late = nullptr;
    bool m_rx_seen = false;  // a frame has come through frame_start()
    // 1588 timer: counter = (m_at_base + INC per timer clock since m_at_t0) mod ATPER while ATCR.EN.
    uint32_t m_atcr = 0, m_atvr = 0, m_atoff = 0, m_atper = 0, m_atcor = 0, m_atinc = 0;
    uint64_t m_at_base = 0, m_at_t0 = 0;  // counter value (ns units of INC) at SystemC time m_at_t0 (ps)
    bool m_atcor_warned = false;
    uint32_t at_counter() const;  // the 1588 counter now
    void at_rebase();             // fold the time since m_at_t0 into m_at_base

    // TX
    std::vector<tx_slot> m_tx_slots;
    unsigned m_tx_head = 0, m_tx_count = 0;
    uint32_t m_tx_cur = 0;
    uint32_t m_tx_fifo_used = 0;
    bool m_tx_notready_seen = false;  // walk met a non-ready BD; TDAR clears when TX drains
    bool m_tdar_repoll = false;       // a TDAR write arrived during that window (no erratum)
    tick_t m_tx_line_free = 0;        // earliest start of the next frame on the TX wire
    tick_t m_tx_paused_until = 0;     // link partner's XOFF
    int m_pause_req = -1;             // quanta of a pause frame to send; -1 = none
    sc_core::sc_event m_tx_ev, m_tx_mac_ev, m_tx_space_ev, m_tx_done_ev;
    mem::mem_txn m_tx_txn, m_txwb_txn;
    uint8_t m_pause_frame[MIN_FRAME_BYTES] = {};
    bool m_tfwr_warned = false, m_txbig_warned = false;
};

} // namespace models::enet
