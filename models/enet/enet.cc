#include "enet/enet.h"
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include "common/log.h"
#include "common/trace_events.h"
#include "net/frame_format.h"

namespace models::enet {

static const param_desc k_enet_rows[] = {
#define P(...) FEC_PARAM_TABLE_ROW(enet_config, __VA_ARGS__)
#include "enet/enet_params.def"
#undef P
};
const param_table enet_param_table = {"enet", "i.MX6Q ENET MAC: registers, RX/TX FIFOs, uDMA, MDIO, MIB",
                                      k_enet_rows, sizeof k_enet_rows / sizeof k_enet_rows[0]};

const stat_desc enet_stat_rows[] = {
#define S(...) FEC_STAT_ROW(enet_stats, __VA_ARGS__)
#include "enet/enet_stats.def"
#undef S
};
const size_t enet_stat_count = sizeof enet_stat_rows / sizeof enet_stat_rows[0];

namespace {
inline uint16_t ld16(const uint8_t* p, bool le) { return le ? (uint16_t)(p[0] | p[1] << 8) : (uint16_t)(p[0] << 8 | p[1]); }
inline uint32_t ld32(const uint8_t* p, bool le)
{
    return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
              : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
inline void st16(uint8_t* p, uint16_t v, bool le)
{
    if (le) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
    else { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
}
inline void st32(uint8_t* p, uint32_t v, bool le)
{
    if (le) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }
    else { p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v; }
}
inline uint32_t round_up(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

// The i.MX6Q PHY as the driver sees it over MDIO: link up, autonegotiation
// complete, 100BASE-TX/1000BASE-T full duplex advertised.
enum : unsigned { PHY_BMCR = 0, PHY_BMSR = 1, PHY_ID1 = 2, PHY_ID2 = 3, PHY_ANAR = 4, PHY_ANLPAR = 5,
                  PHY_GBCR = 9, PHY_GBSR = 10, PHY_ESTATUS = 15 };
} // namespace

enet::enet(sc_core::sc_module_name nm, const enet_config& cfg)
    : sc_module(nm), regs("regs"), dma("dma"), irq("irq"), phy_rx("phy_rx"), phy_tx("phy_tx"),
      phy_pause("phy_pause"), m_cfg(cfg), m_clk(cfg.clock_hz), m_byte_ps(byte_time_ps(cfg.link_speed))
{
    if (cfg.rx_fifo_bytes % cfg.bus_bytes || cfg.burst_bytes % cfg.bus_bytes)
        throw std::invalid_argument("enet.rx_fifo_bytes and enet.burst_bytes must be multiples of enet.bus_bytes");
    regs.register_b_transport(this, &enet::b_transport);
    phy_rx.bind(*static_cast<frame_sink_if*>(this));
    irq.initialize(false);
    for (auto* t : {&m_rx_txn, &m_tx_txn, &m_txwb_txn}) {
        t->ext.master = mem::MASTER_ENET;
        t->ext.uncached = true;  // the uDMA is not behind the CPU caches
    }
    // Every frame in the FIFO holds at least one word: this many slots never run out.
    m_rx_slots.resize(cfg.rx_fifo_bytes / cfg.bus_bytes + 2);
    m_tx_slots.resize(cfg.tx_fifo_bytes / MIN_FRAME_BYTES + 2);
    m_burst.resize(cfg.burst_bytes);
    if (cfg.bus_limit > 0) {
        m_bus_ps_per_byte = 8e12 / cfg.bus_limit;
        m_bus_tol_ps = (tick_t)std::llround(cfg.bus_limit_burst * m_bus_ps_per_byte);
    }
    reset_regs();

    SC_METHOD(irq_method);
    sensitive << m_irq_evq;
    dont_initialize();
    SC_METHOD(mdio_method);
    sensitive << m_mdio_ev;
    dont_initialize();
    SC_METHOD(rx_coal_method);
    sensitive << m_rxic.timer;
    dont_initialize();
    SC_METHOD(tx_coal_method);
    sensitive << m_txic.timer;
    dont_initialize();
    SC_METHOD(pause_check_method);
    sensitive << m_pause_check_ev;
    dont_initialize();
    SC_THREAD(rx_dma_thread);
    SC_THREAD(tx_dma_thread);
    SC_THREAD(tx_mac_thread);
}

void enet::reset_stats()
{
    late_catch_up(false);
    m_stats = {};
    m_rxf_masked_from = now_ps();
}

void enet::visit_stats(const std::string& prefix, const stat_visitor& v) const
{
    late_catch_up(false);
    enet_stats s = m_stats;
    if (m_rxf_masked)
        s.rx_irq_masked_ps += now_ps() - m_rxf_masked_from;
    stats_visit(&s, enet_stat_rows, enet_stat_count, prefix, v);
}

void enet::note_rxf_mask()
{
    const bool masked = (m_ecr & ECR_ETHEREN) && !(m_eimr & EIR_RXF);
    if (masked == m_rxf_masked)
        return;
    const tick_t t = now_ps();
    if (m_rxf_masked)
        m_stats.rx_irq_masked_ps += t - m_rxf_masked_from;
    m_rxf_masked = masked;
    m_rxf_masked_from = t;
}

// ---------------------------------------------------------------- registers

void enet::reset_regs()
{
    m_eir = m_eimr = m_mmfr = m_mscr = m_tcr = 0;
    m_ecr = ECR_RESET_VALUE;
    note_rxf_mask();
    m_mibc = MIBC_RESET_VALUE;
    m_rcr = RCR_RESET_VALUE;
    m_palr = m_paur = 0;
    m_opd = OPD_RESET_VALUE;
    m_iaur = m_ialr = m_gaur = m_galr = m_tfwr = 0;
    m_rdsr = m_tdsr = m_mrbr = 0;
    m_rsfl = m_rsem = m_tsem = 0;
    m_raem = RAEM_RESET_VALUE;
    m_rafl = RAFL_RESET_VALUE;
    m_taem = TAEM_RESET_VALUE;
    m_tafl = TAFL_RESET_VALUE;
    m_tipg = TIPG_RESET_VALUE;
    m_ftrl = FTRL_RESET_VALUE;
    m_tacc = m_racc = 0;
    for (unsigned i = 0; i < 2; i++) {
        m_ring_rdsr[i] = m_ring_tdsr[i] = m_ring_mrbr[i] = m_rcmr[i] = m_dmacfg[i] = 0;
        m_ring_rxic[i] = m_ring_txic[i] = 0;
        m_ring_rdar[i] = m_ring_tdar[i] = false;
    }
    m_qos = 0;
    std::memset(m_mib, 0, sizeof m_mib);
    m_rxic.reg = m_txic.reg = 0;
    m_rxic.frames = m_txic.frames = 0;
    m_rxic.timer.cancel();
    m_txic.timer.cancel();
    std::memset(m_phy_regs, 0, sizeof m_phy_regs);
    const bool gig = m_cfg.link_speed >= 1e9;
    m_phy_regs[PHY_BMCR] = 0x1140;  // autoneg enabled, full duplex, 1000 Mbit/s select
    m_phy_regs[PHY_BMSR] = 0x796D;  // 100BASE-TX/10 capable, link up, autoneg complete
    m_phy_regs[PHY_ID1] = 0x0022;
    m_phy_regs[PHY_ID2] = 0x1622;
    m_phy_regs[PHY_ANAR] = 0x05E1;
    m_phy_regs[PHY_ANLPAR] = m_cfg.link_speed >= 100e6 ? 0xC5E1 : 0xC461;  // partner: pause + speeds
    m_phy_regs[PHY_GBCR] = 0x0300;
    m_phy_regs[PHY_GBSR] = gig ? 0x3C00 : 0x3000;
    m_phy_regs[PHY_ESTATUS] = 0x3000;  // 1000BASE-T full and half duplex capable
    m_atcr = m_atvr = m_atoff = m_atper = m_atcor = m_atinc = 0;
    m_at_base = 0;
    m_at_t0 = sc_core::sc_time_stamp().value();
    stop_datapath();
    m_eir = 0;
    update_irq();
}

void enet::stop_datapath()
{
    m_gen++;
    m_rdar = m_tdar = false;
    for (unsigned i = 0; i < 2; i++)
        m_ring_rdar[i] = m_ring_tdar[i] = false;
    for (unsigned i = 0; i < m_rx_count; i++)
        if (!rx_at(i).ov && !rx_at(i).written && !rx_at(i).writing)  // a frame whose last BD is in memory is the ring's
            m_stats.rx_flushed++;
    m_rx_head = m_rx_count = 0;
    m_rx_occ = 0;
    m_tx_head = m_tx_count = 0;
    m_tx_fifo_used = 0;
    m_rx_cur = m_rdsr;
    m_tx_cur = m_tdsr;
    m_tx_notready_seen = m_tdar_repoll = false;
    m_pause_req = -1;
    m_xoff = false;
    if (sc_core::sc_get_status() == sc_core::SC_ELABORATION)
        return;
    // Wake every uDMA process so it sees the new generation and drops its work.
    m_rx_ev.notify(sc_core::SC_ZERO_TIME);
    m_tx_ev.notify(sc_core::SC_ZERO_TIME);
    m_tx_mac_ev.notify(sc_core::SC_ZERO_TIME);
    m_tx_space_ev.notify(sc_core::SC_ZERO_TIME);
    m_tx_done_ev.notify(sc_core::SC_ZERO_TIME);
}

void enet::mib_inc(uint32_t off, uint64_t n)
{
    if (m_mibc & MIBC_DIS)
        return;
    m_mib[(off - REG_MIB_FIRST) / 4] += (uint32_t)n;
}

uint32_t enet::reg_read(uint32_t off)
{
    late_catch_up(false);
    if (off >= REG_MIB_FIRST && off <= REG_MIB_LAST) {
        rx_settle();  // overflow of the arriving frame is found lazily
        return m_mib[(off - REG_MIB_FIRST) / 4];
    }
    if (const unsigned r = ring_of(off))
        return ring_read(off, r - 1);
    switch (off) {
    case REG_EIR: return m_eir;
    case REG_EIMR: return m_eimr;
    case REG_RDAR: return m_rdar ? RDAR_ACTIVE : 0;
    case REG_TDAR: return m_tdar ? TDAR_ACTIVE : 0;
    case REG_ECR: return m_ecr;
    case REG_MMFR: return m_mmfr;
    case REG_MSCR: return m_mscr;
    case REG_MIBC: return (m_mibc & (MIBC_DIS | MIBC_CLEAR)) | MIBC_IDLE;
    case REG_RCR: return m_rcr;
    case REG_TCR: return m_tcr | (sc_core::sc_time_stamp().value() < m_tx_paused_until ? (uint32_t)TCR_RFC_PAUSE : 0u);
    case REG_PALR: return m_palr;
    case REG_PAUR: return (m_paur & 0xFFFF0000u) | 0x8808;
    case REG_OPD: return m_opd;
    case REG_IAUR: return m_iaur;
    case REG_IALR: return m_ialr;
    case REG_GAUR: return m_gaur;
    case REG_GALR: return m_galr;
    case REG_TFWR: return m_tfwr;
    case REG_RDSR: return m_rdsr;
    case REG_TDSR: return m_tdsr;
    case REG_MRBR: return m_mrbr;
    case REG_RSFL: return m_rsfl;
    case REG_RSEM: return m_rsem;
    case REG_RAEM: return m_raem;
    case REG_RAFL: return m_rafl;
    case REG_TSEM: return m_tsem;
    case REG_TAEM: return m_taem;
    case REG_TAFL: return m_tafl;
    case REG_TIPG: return m_tipg;
    case REG_FTRL: return m_ftrl;
    case REG_TACC: return m_tacc;
    case REG_RACC: return m_racc;
    case REG_RXIC0:
    case REG_TXIC0:
        if (m_cfg.has_coalesce)
            return off == REG_RXIC0 ? m_rxic.reg : m_txic.reg;
        break;
    case REG_QOS:
        if (m_cfg.queues > 1)
            return m_qos;
        break;
    case REG_ATCR: return m_atcr;
    case REG_ATVR: return m_atvr;
    case REG_ATOFF: return m_atoff;
    case REG_ATPER: return m_atper;
    case REG_ATCOR: return m_atcor;
    case REG_ATINC: return m_atinc;
    default: break;
    }
    sim_log(log_level::unimp, name(), "read of unimplemented register 0x%03x (reads 0)", off);
    return 0;
}

unsigned enet::ring_of(uint32_t off) const
{
    unsigned r = 0;
    switch (off) {
    case REG_RDSR1: case REG_TDSR1: case REG_MRBR1: case REG_RCMR1: case REG_DMA1CFG: case REG_RDAR1: case REG_TDAR1:
    case REG_RXIC1: case REG_TXIC1:
        r = 1;
        break;
    case REG_RDSR2: case REG_TDSR2: case REG_MRBR2: case REG_RCMR2: case REG_DMA2CFG: case REG_RDAR2: case REG_TDAR2:
    case REG_RXIC2: case REG_TXIC2:
        r = 2;
        break;
    default: return 0;
    }
    const bool coal = off == REG_RXIC1 || off == REG_RXIC2 || off == REG_TXIC1 || off == REG_TXIC2;
    return r < m_cfg.queues && (!coal || m_cfg.has_coalesce) ? r : 0;
}

uint32_t enet::ring_read(uint32_t off, unsigned i) const
{
    switch (off) {
    case REG_RDSR1: case REG_RDSR2: return m_ring_rdsr[i];
    case REG_TDSR1: case REG_TDSR2: return m_ring_tdsr[i];
    case REG_MRBR1: case REG_MRBR2: return m_ring_mrbr[i];
    case REG_RCMR1: case REG_RCMR2: return m_rcmr[i];
    case REG_DMA1CFG: case REG_DMA2CFG: return m_dmacfg[i];
    case REG_RDAR1: case REG_RDAR2: return m_ring_rdar[i] ? RDAR_ACTIVE : 0;
    case REG_TDAR1: case REG_TDAR2: return m_ring_tdar[i] ? TDAR_ACTIVE : 0;
    case REG_RXIC1: case REG_RXIC2: return m_ring_rxic[i];
    default: return m_ring_txic[i];
    }
}

void enet::ring_write(uint32_t off, unsigned i, uint32_t v)
{
    switch (off) {
    case REG_RDSR1: case REG_RDSR2: m_ring_rdsr[i] = v & ~7u; return;
    case REG_TDSR1: case REG_TDSR2: m_ring_tdsr[i] = v & ~7u; return;
    case REG_MRBR1: case REG_MRBR2: m_ring_mrbr[i] = v & 0x3FF0; return;
    case REG_RCMR1: case REG_RCMR2: m_rcmr[i] = v & 0x00017777u; return;
    case REG_DMA1CFG: case REG_DMA2CFG: m_dmacfg[i] = v & 0x0001FFFFu; return;
    case REG_RXIC1: case REG_RXIC2: m_ring_rxic[i] = v & (IC_EN | IC_CS | IC_FT_MASK | IC_TT_MASK); return;
    case REG_TXIC1: case REG_TXIC2: m_ring_txic[i] = v & (IC_EN | IC_CS | IC_FT_MASK | IC_TT_MASK); return;
    case REG_RDAR1: case REG_RDAR2:
        // Untagged frames are ring 0's (RCMR matches VLAN priorities): the ring waits.
        if (m_ecr & ECR_ETHEREN)
            m_ring_rdar[i] = true;
        return;
    default:  // TDAR1/2
        if (!(m_ecr & ECR_ETHEREN))
            return;
        m_ring_tdar[i] = true;
        if (!m_ring_tx_warned) {
            m_ring_tx_warned = true;
            sim_log(log_level::unimp, name(),
                    "TDAR%u written: transmission from rings 1 and 2 is not modelled (frames stay in the ring)", i + 1);
        }
        return;
    }
}

uint32_t enet::at_counter() const
{
    uint64_t c = m_at_base;
    if (m_atcr & ATCR_EN) {
        const uint64_t ticks =
            (uint64_t)((double)(sc_core::sc_time_stamp().value() - m_at_t0) * m_cfg.ts_clock_hz / 1e12);
        c += ticks * (m_atinc & 0x7Fu);
    }
    return (uint32_t)(m_atper ? c % m_atper : c);
}

void enet::at_rebase()
{
    m_at_base = at_counter();
    m_at_t0 = sc_core::sc_time_stamp().value();
}

void enet::reg_write(uint32_t off, uint32_t v)
{
    late_catch_up(true);
    SIM_TRACE(TRACE_MAC, name(), "write 0x%03x = 0x%08x", off, v);
    if (const unsigned r = ring_of(off)) {
        ring_write(off, r - 1, v);
        return;
    }
    switch (off) {
    case REG_ATCR:
        at_rebase();  // the counter so far counts with the old enable
        if (v & ATCR_RESTART)
            m_at_base = 0;
        if (v & ATCR_CAPTURE)
            m_atvr = at_counter();
        m_atcr = v & ~(ATCR_RESTART | ATCR_CAPTURE);
        return;
    case REG_ATVR:
        m_at_base = v;
        m_at_t0 = sc_core::sc_time_stamp().value();
        return;
    case REG_ATINC:
        at_rebase();
        m_atinc = v & 0x7F7Fu;
        return;
    case REG_ATPER:
        at_rebase();
        m_atper = v;
        return;
    case REG_ATOFF:
        m_atoff = v;
        return;
    case REG_ATCOR:
        m_atcor = v;
        if (v && !m_atcor_warned) {
            m_atcor_warned = true;
            sim_log(log_level::unimp, name(), "1588 timer correction (ATCOR %u) not modelled: the counter runs at INC",
                    v);
        }
        return;
    case REG_EIR:
        m_eir &= ~v;
        update_irq();
        return;
    case REG_EIMR:
        m_eimr = v & (EIR_IMPL_MASK | (m_cfg.queues > 1 ? (uint32_t)EIR_RING_MASK : 0u));
        note_rxf_mask();
        update_irq();
        return;
    case REG_RDAR:
        if (!(m_ecr & ECR_ETHEREN)) {
            sim_log(log_level::guest_error, name(), "RDAR written while ECR.ETHEREN is clear (ignored)");
            return;
        }
        m_rdar = true;
        m_rx_ev.notify(sc_core::SC_ZERO_TIME);
        return;
    case REG_TDAR:
        if (!(m_ecr & ECR_ETHEREN)) {
            sim_log(log_level::guest_error, name(), "TDAR written while ECR.ETHEREN is clear (ignored)");
            return;
        }
        if (m_tdar && m_tx_notready_seen) {
            // The walk has met a non-ready BD and will clear TDAR when TX drains.
            if (m_cfg.err006358) {
                m_stats.tx_tdar_lost++;
                SIM_TRACE(TRACE_MAC, name(), "TDAR write lost (ERR006358)");
            } else {
                m_tdar_repoll = true;
            }
        }
        m_tdar = true;
        m_tx_ev.notify(sc_core::SC_ZERO_TIME);
        return;
    case REG_ECR: {
        if (v & ECR_RESET) {
            note_ring_discard();
            reset_regs();
            return;
        }
        const uint32_t old = m_ecr;
        if ((old & ECR_ETHEREN) && !(v & ECR_ETHEREN))
            note_ring_discard();
        m_ecr = ECR_RESET_VALUE | (v & ECR_WRITABLE);
        if ((old & ECR_ETHEREN) && !(m_ecr & ECR_ETHEREN))
            stop_datapath();
        if (!(old & ECR_ETHEREN) && (m_ecr & ECR_ETHEREN)) {
            m_rx_cur = m_rdsr;
            m_tx_cur = m_tdsr;
        }
        if ((m_ecr & ECR_EN1588) && !m_cfg.enhanced_bd)
            sim_log(log_level::unimp, name(), "ECR.EN1588 set on a profile without enhanced BDs (legacy BDs used)");
        note_rxf_mask();
        return;
    }
    case REG_MMFR:
        m_mmfr = v;
        m_mdio_ev.notify(from_ps(m_clk.cycles(m_cfg.mdio_cycles)));
        return;
    case REG_MSCR: m_mscr = v & 0x7FE; return;
    case REG_MIBC:
        m_mibc = v & (MIBC_DIS | MIBC_CLEAR);
        if (v & MIBC_CLEAR)
            std::memset(m_mib, 0, sizeof m_mib);
        return;
    case REG_RCR: m_rcr = v & 0x7FFFF37Fu; return;
    case REG_TCR:
        m_tcr = v & 0x3EDu;
        if (v & (TCR_GTS | TCR_TFC_PAUSE))
            sim_log(log_level::unimp, name(), "TCR.GTS/TFC_PAUSE not modelled");
        return;
    case REG_PALR: m_palr = v; return;
    case REG_PAUR: m_paur = v & 0xFFFF0000u; return;
    case REG_OPD: m_opd = (m_opd & 0xFFFF0000u) | (v & 0xFFFF); return;
    case REG_IAUR: m_iaur = v; return;
    case REG_IALR: m_ialr = v; return;
    case REG_GAUR: m_gaur = v; return;
    case REG_GALR: m_galr = v; return;
    case REG_TFWR:
        m_tfwr = v & 0x13F;
        if (!(m_tfwr & TFWR_STRFWD) && !m_tfwr_warned) {
            m_tfwr_warned = true;
            sim_log(log_level::unimp, name(), "TX watermark (TFWR without STRFWD) not modelled: store and forward used");
        }
        return;
    case REG_RDSR:
    case REG_TDSR:
        if (v & 7)
            sim_log(log_level::guest_error, name(), "%s = 0x%08x is not 8-byte aligned (low bits ignored)",
                    off == REG_RDSR ? "RDSR" : "TDSR", v);
        if (off == REG_RDSR)
            m_rdsr = m_rx_cur = v & ~7u;
        else
            m_tdsr = m_tx_cur = v & ~7u;
        return;
    case REG_MRBR: m_mrbr = v & 0x3FF0; return;
    case REG_RSFL: m_rsfl = v & 0x1FF; return;
    case REG_RSEM: m_rsem = v & 0x1FF; return;
    case REG_RAEM: m_raem = v & 0x1FF; return;
    case REG_RAFL: m_rafl = v & 0x1FF; return;
    case REG_TSEM: m_tsem = v & 0x1FF; return;
    case REG_TAEM: m_taem = v & 0x1FF; return;
    case REG_TAFL: m_tafl = v & 0x1FF; return;
    case REG_TIPG: m_tipg = v & 0x1F; return;
    case REG_FTRL: m_ftrl = v & 0x3FFF; return;
    case REG_TACC:
        m_tacc = v & 0x19;
        return;
    case REG_RACC:
        m_racc = v & 0xC7;
        if (v & RACC_PADREM)
            sim_log(log_level::unimp, name(), "RACC.PADREM (padding removal) not modelled");
        return;
    case REG_QOS:
        if (m_cfg.queues > 1) {
            m_qos = v & 0x3;
            return;
        }
        break;
    case REG_RXIC0:
    case REG_TXIC0:
        if (m_cfg.has_coalesce) {
            coalescer& c = off == REG_RXIC0 ? m_rxic : m_txic;
            c.reg = v & (IC_EN | IC_CS | IC_FT_MASK | IC_TT_MASK);
            c.frames = 0;
            c.timer.cancel();
            return;
        }
        break;
    default:
        if (off >= REG_MIB_FIRST && off <= REG_MIB_LAST) {
            sim_log(log_level::guest_error, name(), "write to MIB counter 0x%03x ignored", off);
            return;
        }
        break;
    }
    sim_log(log_level::unimp, name(), "write of unimplemented register 0x%03x = 0x%08x (ignored)", off, v);
}

void enet::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&)
{
    const uint64_t off = gp.get_address();
    if (gp.get_data_length() != 4 || (off & 3) || gp.get_byte_enable_ptr()) {
        sim_log(log_level::guest_error, name(), "%u-byte access at 0x%03llx: only aligned 32-bit accesses",
                gp.get_data_length(), (unsigned long long)off);
        gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    uint32_t v;
    if (gp.is_read()) {
        v = reg_read((uint32_t)off);
        std::memcpy(gp.get_data_ptr(), &v, 4);
    } else {
        std::memcpy(&v, gp.get_data_ptr(), 4);
        reg_write((uint32_t)off, v);
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// ---------------------------------------------------------------- interrupts

void enet::raise(uint32_t bits)
{
    m_eir |= bits;
    update_irq();
}

void enet::frame_event(bool rx)
{
    coalescer& c = rx ? m_rxic : m_txic;
    const uint32_t bit = rx ? EIR_RXF : EIR_TXF;
    if (!m_cfg.has_coalesce || !(c.reg & IC_EN)) {
        raise(bit);
        return;
    }
    // Interrupt after ICFT frames, or ICTT*64 clocks after the first uncounted frame.
    const uint32_t ft = (c.reg & IC_FT_MASK) >> IC_FT_SHIFT;
    const uint32_t tt = c.reg & IC_TT_MASK;
    if (++c.frames == 1 && tt)
        c.timer.notify(from_ps(m_clk.cycles(64ull * tt)));
    if (ft && c.frames >= ft) {
        c.frames = 0;
        c.timer.cancel();
        raise(bit);
    }
}

void enet::rx_coal_method()
{
    if (m_rxic.frames) {
        m_rxic.frames = 0;
        raise(EIR_RXF);
    }
}

void enet::tx_coal_method()
{
    if (m_txic.frames) {
        m_txic.frames = 0;
        raise(EIR_TXF);
    }
}

void enet::update_irq()
{
    const bool lvl = (m_eir & m_eimr) != 0;
    if (lvl == m_irq_level)
        return;
    m_irq_level = lvl;
    m_irq_q.push_back(lvl);
    m_irq_evq.notify(from_ps(m_clk.cycles(m_cfg.irq_latency_cycles)));
}

void enet::irq_method()
{
    if (m_irq_q.empty())
        return;
    const bool lvl = m_irq_q.front();
    m_irq_q.pop_front();
    if (lvl && !m_irq_out)
        m_stats.irq_assertions++;
    if (g_trace && lvl != m_irq_out)
        g_trace->instant(te_track::mac, 2, now_ps(), g_trace->intern(lvl ? "IRQ asserted" : "IRQ deasserted"));
    m_irq_out = lvl;
    irq.write(lvl);
}

void enet::mdio_method()
{
    const unsigned st = (m_mmfr >> MMFR_ST_SHIFT) & 3, op = (m_mmfr >> MMFR_OP_SHIFT) & 3;
    const unsigned ra = (m_mmfr >> MMFR_RA_SHIFT) & 31, pa = (m_mmfr >> MMFR_PA_SHIFT) & 31;
    if (st != 1) {
        sim_log(log_level::unimp, name(), "MDIO clause-45 frame (MMFR 0x%08x): no effect", m_mmfr);
    } else if (pa != m_cfg.phy_addr) {
        // Nobody answers: a read returns the MDIO line's pull-up, a write is lost.
        if (op == 2 || op == 3)
            m_mmfr |= 0xFFFFu;
    } else if (op == 2 || op == 3) {
        m_mmfr = (m_mmfr & ~0xFFFFu) | m_phy_regs[ra];
    } else {
        uint16_t d = m_mmfr & MMFR_DATA_MASK;
        if (ra == PHY_BMCR)
            d &= (uint16_t)~0x8000;  // reset bit self-clears
        if (ra != PHY_BMSR && ra != PHY_ID1 && ra != PHY_ID2 && ra != PHY_ANLPAR && ra != PHY_GBSR &&
            ra != PHY_ESTATUS)
            m_phy_regs[ra] = d;
    }
    m_stats.mdio_frames++;
    raise(EIR_MII);
}

// ---------------------------------------------------------------- descriptors

bool enet::enhanced() const { return m_cfg.enhanced_bd && (m_ecr & ECR_EN1588); }
unsigned enet::bd_bytes() const { return enhanced() ? BD_ENHANCED_BYTES : BD_LEGACY_BYTES; }

void enet::encode_bd(const bd& b, uint8_t* o) const
{
    const bool le = le_bds();
    // With DBSWP the first word is datlen then sc (little-endian halves); without
    // it the big-endian word puts sc first (ColdFire order, docs/sources.md §1.3).
    st16(o + 0, le ? b.datlen : b.sc, le);
    st16(o + 2, le ? b.sc : b.datlen, le);
    st32(o + 4, b.bufaddr, le);
    if (enhanced()) {
        st32(o + 8, b.esc, le);
        st32(o + 12, b.prot, le);
        st32(o + 16, b.bdu, le);
        st32(o + 20, b.ts, le);
        std::memset(o + 24, 0, 8);
    }
}

bd enet::decode_bd(const uint8_t* in) const
{
    const bool le = le_bds();
    bd b;
    b.datlen = ld16(in + (le ? 0 : 2), le);
    b.sc = ld16(in + (le ? 2 : 0), le);
    b.bufaddr = ld32(in + 4, le);
    if (enhanced()) {
        b.esc = ld32(in + 8, le);
        b.prot = ld32(in + 12, le);
        b.bdu = ld32(in + 16, le);
        b.ts = ld32(in + 20, le);
    }
    return b;
}

bool enet::dma_xfer(tlm::tlm_command cmd, uint64_t addr, uint8_t* p, unsigned len, mem::mem_txn& t, tick_t then_ps)
{
    t.set(cmd, addr, p, len);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    dma->b_transport(t.gp, d);
    if (cmd == tlm::TLM_READ_COMMAND) {
        m_stats.dma_reads++;
        m_stats.dma_bytes_read += len;
    } else {
        m_stats.dma_writes++;
        m_stats.dma_bytes_written += len;
    }
    SIM_TRACE(TRACE_DMA, name(), "%s 0x%08llx len %u, %llu ps", cmd == tlm::TLM_READ_COMMAND ? "rd" : "wr",
              (unsigned long long)addr, len, (unsigned long long)to_ps(d));
    if (t.gp.get_response_status() == tlm::TLM_OK_RESPONSE) {
        wait(d + from_ps(then_ps));  // nothing happens at the end of the transfer itself
        return true;
    }
    wait(d);
    m_stats.dma_errors++;
    sim_log(log_level::guest_error, name(), "uDMA %s at 0x%08llx failed (EIR.EBERR)",
            cmd == tlm::TLM_READ_COMMAND ? "read" : "write", (unsigned long long)addr);
    raise(EIR_EBERR);
    if (then_ps)
        wait(from_ps(then_ps));
    return false;
}

// Generic cell rate algorithm, the virtual-scheduling form of a token
// bucket: m_bus_tat is when the path will have worked off the bytes granted
// so far; a burst may start once that backlog, with its own bytes added, fits
// in the tolerance (the bucket's depth). Shared by the RX and TX uDMA.
void enet::bus_pace(uint32_t n)
{
    if (!m_bus_tol_ps)
        return;
    const tick_t now = now_ps();
    if (n != m_bus_n) {  // nearly every call moves a burst of the same length
        m_bus_n = n;
        m_bus_cost = (tick_t)std::llround(n * m_bus_ps_per_byte);
    }
    const tick_t cost = m_bus_cost;
    const tick_t tat = std::max(m_bus_tat, now);
    const tick_t start = tat + cost > now + m_bus_tol_ps ? tat + cost - m_bus_tol_ps : now;
    m_bus_tat = tat + cost;
    if (start > now) {
        m_stats.bus_waits++;
        m_stats.bus_wait_ps += start - now;
        wait(from_ps(start - now));
    }
}

bool enet::read_bd(uint32_t addr, bd& b, mem::mem_txn& t)
{
    uint8_t raw[BD_ENHANCED_BYTES];
    const unsigned n = bd_bytes();
    m_stats.bd_fetches++;
    const tick_t fetch = m_clk.cycles(m_cfg.bd_fetch_cycles);
    bool ok = dma_xfer(tlm::TLM_READ_COMMAND, addr, raw, n, t, fetch);
    if (!fetch)
        wait(sc_core::SC_ZERO_TIME);  // the delta cycle of a zero-length wait
    b = decode_bd(raw);
    SIM_TRACE(TRACE_DESC, name(), "fetch BD 0x%08x: sc 0x%04x len %u buf 0x%08x esc 0x%08x", addr, b.sc,
              b.datlen, b.bufaddr, b.esc);
    return ok;
}

bool enet::write_bd(uint32_t addr, const bd& b, mem::mem_txn& t)
{
    uint8_t raw[BD_ENHANCED_BYTES];
    encode_bd(b, raw);
    m_stats.bd_writebacks++;
    wait(from_ps(m_clk.cycles(m_cfg.bd_writeback_cycles)));
    bool ok = true;
    // Enhanced words first; the word holding E/R last, so ownership passes last.
    if (enhanced())
        ok = dma_xfer(tlm::TLM_WRITE_COMMAND, addr + 8, raw + 8, 12, t);
    ok = dma_xfer(tlm::TLM_WRITE_COMMAND, addr, raw, 4, t) && ok;
    SIM_TRACE(TRACE_DESC, name(), "write back BD 0x%08x: sc 0x%04x len %u esc 0x%08x", addr, b.sc, b.datlen, b.esc);
    return ok;
}

uint32_t enet::ring_next(uint32_t cur, const bd& b, uint32_t ring_start) const
{
    return (b.sc & RXBD_W) ? ring_start : cur + bd_bytes();  // W is bit 13 in RX and TX BDs
}

// ---------------------------------------------------------------- RX: link side

bool enet::rx_accept(const uint8_t* d, uint32_t len, uint16_t& sc, uint32_t& esc) const
{
    if (len < 6)
        return false;
    static const uint8_t bcast[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const bool prom = (m_rcr & RCR_PROM) != 0;
    bool match;
    if (std::memcmp(d, bcast, 6) == 0) {
        sc |= RXBD_BC;
        match = !(m_rcr & RCR_BC_REJ);
    } else {
        // Hash filters: the top 6 bits of the CRC-32 of the address select a bit
        // of GAUR:GALR (group) or IAUR:IALR (individual) [recall]; computed
        // only where the result is looked at (not for the own address).
        auto idx = [d]() -> unsigned { return (~traffic_crc32(d, 6) >> 26) & 0x3F; };  // register before the final inversion
        if (d[0] & 1) {
            sc |= RXBD_MC;
            const unsigned i = idx();
            match = i >= 32 ? (m_gaur >> (i - 32)) & 1 : (m_galr >> i) & 1;
        } else {
            esc |= RXESC_UC;
            const uint8_t own[6] = {(uint8_t)(m_palr >> 24), (uint8_t)(m_palr >> 16), (uint8_t)(m_palr >> 8),
                                    (uint8_t)m_palr, (uint8_t)(m_paur >> 24), (uint8_t)(m_paur >> 16)};
            match = std::memcmp(d, own, 6) == 0;
            if (!match) {
                const unsigned i = idx();
                match = i >= 32 ? (m_iaur >> (i - 32)) & 1 : (m_ialr >> i) & 1;
            }
        }
    }
    if (!match && prom)
        sc |= RXBD_M;
    return match || prom;
}

void enet::frame_start(const eth_frame& f)
{
    m_rx_seen = true;
    rx_frame(f, now_ps(), false);
}

// Refused whatever the frame holds until a register write (ECR, RDAR, RCR:
// each calls the late sender back first): the MAC is off, or the uDMA has
// stopped on a full ring (RDAR clear) with the FIFO full and no flow control
// (RCR.FCE) that a frame could act on. The occupancy is the last settled one,
// which only grows while the uDMA stands. Not while tracing: trace records
// go out in time order. Not before the first frame came through frame_start
// (its link-speed check logs at its time).
bool enet::refuses_all() const
{
    if (!m_rx_seen || g_trace || trace_on(TRACE_MAC))
        return false;
    if (!(m_ecr & ECR_ETHEREN))
        return true;
    if ((m_rcr & RCR_FCE) || m_rdar)
        return false;
    return rx_fifo_full();
}

void enet::frame_refused(const eth_frame& f)
{
    rx_frame(f, f.start_ps, true);
}

// n refused frames in one call: what n rx_frame(late) calls count, the
// arriving frame settled once as of the last start (settling is cumulative:
// nothing drains the FIFO while the uDMA stands).
bool enet::frames_refused(const eth_frame& f, uint64_t n, tick_t step_ps)
{
    if (f.byte_ps != m_byte_ps || !f.fcs_known_good || pause_header(f))
        return false;
    if (!(m_ecr & ECR_ETHEREN)) {
        m_stats.rx_disabled += n;
        return true;
    }
    check_speed("arrived");
    rx_settle_at(f.start_ps + (n - 1) * step_ps);
    rx_count_arrivals(f, true, n);
    uint16_t sc = 0;
    uint32_t esc = 0;
    if (!rx_accept(f.data, f.len, sc, esc)) {
        m_stats.rx_filtered += n;
        return true;
    }
    if (!rx_fifo_full())
        throw std::logic_error(std::string(name()) + ": frames handed over late found room in the RX FIFO");
    rx_fifo_drop(n);
    return true;
}

void enet::rx_count_arrivals(const eth_frame& f, bool crc_ok, uint64_t n)
{
    const uint32_t max_fl = (m_rcr & RCR_MAX_FL_MASK) >> RCR_MAX_FL_SHIFT;
    m_stats.rx_frames += n;
    m_stats.rx_bytes += n * f.len;
    mib_inc(RMON_R_PACKETS, n);
    mib_inc(RMON_R_OCTETS, n * f.len);
    if (f.len >= 6 && (f.data[0] & 1))
        mib_inc((f.data[0] & f.data[1] & f.data[2] & f.data[3] & f.data[4] & f.data[5]) == 0xFF ? RMON_R_BC_PKT
                                                                                                   : RMON_R_MC_PKT,
                n);
    mib_inc(f.len <= 64 ? RMON_R_P64 : f.len <= 127 ? RMON_R_P65TO127 : f.len <= 255 ? RMON_R_P128TO255
            : f.len <= 511 ? RMON_R_P256TO511 : f.len <= 1023 ? RMON_R_P512TO1023
            : f.len <= 2047 ? RMON_R_P1024TO2047 : RMON_R_P_GTE2048,
            n);
    if (!crc_ok) {
        m_stats.rx_crc_errors += n;
        mib_inc(RMON_R_CRC_ALIGN, n);
        mib_inc(IEEE_R_CRC, n);
    }
    if (f.len < 64)
        mib_inc(crc_ok ? RMON_R_UNDERSIZE : RMON_R_FRAG, n);
    else if (f.len > max_fl)
        mib_inc(crc_ok ? RMON_R_OVERSIZE : RMON_R_JAB, n);
}

bool enet::pause_header(const eth_frame& f)
{
    return f.len >= 20 && f.data[0] == 0x01 && f.data[1] == 0x80 && f.data[2] == 0xC2 && f.data[3] == 0 &&
           f.data[4] == 0 && f.data[5] == 0x01 && f.data[12] == 0x88 && f.data[13] == 0x08;
}

void enet::rx_fifo_drop(uint64_t n)
{
    m_stats.rx_fifo_drops += n;
    mib_inc(IEEE_R_MACERR, n);
}

// A frame crosses the MAC while ECR.SPEED says another speed than the link's:
// a guest error, once. Not at ETHEREN: drivers enable the MAC before the PHY
// has told them the speed (the Linux fec driver restarts it at open, then
// again from adjust_link), and no frame is harmed before one moves.
void enet::check_speed(const char* dir)
{
    const bool mac_gig = (m_ecr & ECR_SPEED) != 0;
    if (mac_gig == (m_cfg.link_speed >= 1e9) || m_speed_warned)
        return;
    m_speed_warned = true;
    sim_log(log_level::guest_error, name(), "a frame %s while ECR.SPEED (%s) does not match the link (%.0f Mbit/s)",
            dir, mac_gig ? "1000" : "10/100", m_cfg.link_speed / 1e6);
}

void enet::rx_frame(const eth_frame& f, tick_t t, bool late)
{
    if (f.byte_ps != m_byte_ps && !m_link_warned) {
        m_link_warned = true;
        sim_log(log_level::error, name(), "link partner sends at %llu ps/byte, the MAC expects %llu (link_speed)",
                (unsigned long long)f.byte_ps, (unsigned long long)m_byte_ps);
    }
    if (!(m_ecr & ECR_ETHEREN)) {
        m_stats.rx_disabled++;
        return;
    }
    check_speed("arrived");
    if (g_trace)
        g_trace->instant(te_track::mac, 0, t, g_trace->intern("RX frame starts"), g_trace->intern("bytes"), f.len);
    rx_settle_at(t);

    // Until the frame is accepted only its header is read (f.complete()).
    const bool crc_ok = f.fcs_known_good || (f.complete(), traffic_fcs_ok(f.data, f.len) != 0);
    const uint32_t max_fl = (m_rcr & RCR_MAX_FL_MASK) >> RCR_MAX_FL_SHIFT;
    rx_count_arrivals(f, crc_ok, 1);

    // 802.3x pause frame addressed to the reserved multicast address.
    if (pause_header(f) && (f.complete(), true) && f.data[14] == 0 && f.data[15] == 1 && crc_ok) {
        m_stats.rx_pause_frames++;
        mib_inc(IEEE_R_FDXFC);
        if (m_rcr & RCR_FCE) {
            const tick_t end = f.start_ps + (PREAMBLE_BYTES + f.len) * f.byte_ps;
            const uint32_t q = (uint32_t)f.data[16] << 8 | f.data[17];
            m_tx_paused_until = end + (tick_t)q * PAUSE_QUANTUM_BITS / 8 * m_byte_ps;
            m_tx_mac_ev.notify(sc_core::SC_ZERO_TIME);
        }
        if (!(m_rcr & RCR_PAUFWD)) {
            m_stats.rx_pause_consumed++;
            return;
        }
    }

    uint16_t sc = 0;
    uint32_t esc = 0;
    if (!rx_accept(f.data, f.len, sc, esc)) {
        m_stats.rx_filtered++;
        return;
    }
    if (rx_fifo_full()) {
        rx_fifo_drop(1);
        if (g_trace)
            g_trace->instant(te_track::mac, 0, t, g_trace->intern("RX FIFO full: dropped (IEEE_rx_macerr)"));
        SIM_TRACE(TRACE_MAC, name(), "RX FIFO full: frame of %u B dropped", f.len);
        return;
    }
    if (late)
        throw std::logic_error(std::string(name()) + ": a frame handed over late found room in the RX FIFO");
    f.complete();
    rx_slot& s = rx_at(m_rx_count++);
    s.wire_len = f.len;
    s.keep_len = std::min<uint32_t>(f.len, m_ftrl ? m_ftrl : f.len);
    if (s.data.size() < s.keep_len)
        s.data.resize(s.keep_len);
    std::memcpy(s.data.data(), f.data, s.keep_len);
    s.stored = s.drained = 0;
    s.final = s.ov = s.ok_counted = s.written = s.writing = false;
    s.byte_ps = f.byte_ps;
    s.t_first = f.start_ps + PREAMBLE_BYTES * f.byte_ps;
    s.t_end = f.start_ps + (PREAMBLE_BYTES + f.len) * f.byte_ps;
    if (!crc_ok)
        sc |= RXBD_CR;
    if (f.len > max_fl)
        sc |= RXBD_LG;
    if (s.keep_len < f.len)
        sc |= RXBD_TR | RXBD_LG;
    if ((enhanced() || (m_racc & (RACC_IPDIS | RACC_PRODIS))) && f.len > 18) {
        int ip_ok, l4_ok;
        const uint8_t* d = f.data;
        uint32_t n = f.len - FCS_BYTES;
        if (d[12] == 0x81 && d[13] == 0x00)
            esc |= RXESC_VLAN;
        else if (d[12] == 0x86 && d[13] == 0xDD)
            esc |= RXESC_IPV6;
        else if (traffic_ipv4_checks(d, n, &ip_ok, &l4_ok) == 0) {
            if (!ip_ok)
                esc |= RXESC_ICE;
            if (!l4_ok)
                esc |= RXESC_PCR;
            if (((uint32_t)d[20] << 8 | d[21]) & 0x3FFF)
                esc |= RXESC_FRAG;
        }
    }
    s.sc = sc;
    s.esc = esc;
    SIM_TRACE(TRACE_MAC, name(), "RX frame %u B accepted, FIFO %u B", f.len, (unsigned)rx_occupancy(nullptr));
    // Flow control: find when this frame alone would take the FIFO to RSEM.
    if ((m_rcr & RCR_FCE) && m_rsem) {
        const uint64_t lvl = (uint64_t)m_rsem * 8, occ = rx_occupancy(nullptr);
        if (occ < lvl && lvl - occ < s.keep_len)
            m_pause_check_ev.notify(from_ps(s.t_first + (lvl - occ + 1) * s.byte_ps - now_ps()));
        else
            m_pause_check_ev.notify(from_ps(s.t_end - now_ps()));
    }
    m_rx_ev.notify(sc_core::SC_ZERO_TIME);
}

unsigned enet::rx_fifo_frames(bool ov) const
{
    late_catch_up(false);
    unsigned n = 0;
    for (unsigned i = 0; i < m_rx_count; i++) {
        const rx_slot& s = m_rx_slots[(m_rx_head + i) % m_rx_slots.size()];
        n += !s.written && !s.writing && s.ov == ov;
    }
    return n;
}

// A reset or disable of the MAC: the frames written to the ring and not yet
// taken by the driver are the driver's to lose, and fec loses them (fec_restart
// and fec_stop re-initialise the ring, fec_enet_bd_init). Counted while the
// ring registers still hold it.
void enet::note_ring_discard()
{
    m_stats.rx_ring_discarded += rx_ring_frames(false);
}

unsigned enet::rx_ring_frames(bool ov) const
{
    late_catch_up(false);
    if (!(m_ecr & ECR_ETHEREN) || !m_rdsr || !m_ring_peek)
        return 0;
    unsigned n = 0;
    uint32_t a = m_rdsr;
    for (unsigned i = 0; i < 65536; i++) {  // a ring without W ends where memory does
        const uint8_t* p = m_ring_peek(a);
        if (!p)
            break;
        const bd b = decode_bd(p);
        if (!(b.sc & RXBD_E) && (b.sc & RXBD_L) && ((b.sc & RXBD_OV) != 0) == ov)
            n++;
        if (b.sc & RXBD_W)
            break;
        a += bd_bytes();
    }
    return n;
}

uint64_t enet::rx_slot_occ(const rx_slot& s) const { return round_up(s.stored - s.drained, m_cfg.bus_bytes); }

// m_rx_occ is kept equal to the sum of rx_slot_occ over the live slots: it
// changes only where a slot's stored or drained count changes, or a slot
// leaves (the head, popped) or starts (stored = drained = 0).
uint64_t enet::rx_occupancy(const rx_slot* skip) const { return m_rx_occ - (skip ? rx_slot_occ(*skip) : 0); }

uint32_t enet::rx_fifo_level()
{
    late_catch_up(false);
    rx_settle();
    return (uint32_t)rx_occupancy(nullptr);
}

// Bring the arriving frame up to now. Between two calls nothing drains the
// FIFO (every drain settles first), so the first byte that does not fit is
// found exactly, however late the call.
void enet::rx_settle_at(tick_t now)
{
    if (!m_rx_count)
        return;
    rx_slot& a = rx_at(m_rx_count - 1);
    if (a.final)
        return;
    uint64_t arrived = now <= a.t_first ? 0 : (now - a.t_first) / a.byte_ps;
    arrived = std::min<uint64_t>(arrived, a.keep_len);
    if (!a.ov && arrived > a.stored) {
        const uint64_t others = rx_occupancy(&a);
        const uint64_t room = m_cfg.rx_fifo_bytes > others ? m_cfg.rx_fifo_bytes - others : 0;
        const uint64_t max_stored = a.drained + room;
        const uint64_t before = rx_slot_occ(a);
        if (arrived > max_stored) {
            a.stored = (uint32_t)max_stored;
            a.ov = true;
            m_stats.rx_truncated++;
            mib_inc(IEEE_R_MACERR);
            SIM_TRACE(TRACE_MAC, name(), "RX FIFO overflow: frame truncated at %u of %u B", a.stored, a.wire_len);
        } else {
            a.stored = (uint32_t)arrived;
        }
        m_rx_occ += rx_slot_occ(a) - before;
    }
    if (now >= a.t_end) {
        a.final = true;
        if (!a.ov && !(a.sc & (RXBD_CR | RXBD_LG | RXBD_TR))) {
            mib_inc(IEEE_R_FRAME_OK);
            mib_inc(IEEE_R_OCTETS_OK, a.wire_len);
        }
    }
    m_stats.rx_fifo_hwm_bytes = std::max<uint64_t>(m_stats.rx_fifo_hwm_bytes, rx_occupancy(nullptr));
}

void enet::rx_pause_eval()
{
    if (!(m_rcr & RCR_FCE) || !m_rsem)
        return;
    const uint64_t occ = rx_occupancy(nullptr), lvl = (uint64_t)m_rsem * 8;
    const tick_t now = now_ps();
    if (occ >= lvl && (!m_xoff || now >= m_xoff_until)) {
        m_xoff = true;
        const uint32_t q = m_opd & 0xFFFF;
        m_xoff_until = now + (tick_t)q * PAUSE_QUANTUM_BITS / 8 * m_byte_ps;
        m_pause_req = (int)q;
        m_tx_mac_ev.notify(sc_core::SC_ZERO_TIME);
        m_pause_check_ev.notify(from_ps(m_xoff_until - now + 1));  // refresh if still full then
    } else if (occ < lvl && m_xoff) {
        m_xoff = false;
        m_pause_req = 0;
        m_tx_mac_ev.notify(sc_core::SC_ZERO_TIME);
    }
}

void enet::pause_check_method()
{
    rx_settle();
    rx_pause_eval();
}

// ---------------------------------------------------------------- RX: uDMA

bool enet::rx_wait_bytes(rx_slot& f, uint32_t k, unsigned gen)
{
    for (;;) {
        rx_settle();
        if (f.ov || f.stored >= k || f.final)
            return true;
        const tick_t t = f.t_first + (tick_t)k * f.byte_ps;
        wait(from_ps(t - now_ps()));
        if (gen != m_gen)
            return false;
    }
}

bool enet::rx_fetch_bd(uint32_t& addr, bd& b, unsigned gen)
{
    for (;;) {
        addr = m_rx_cur;
        read_bd(addr, b, m_rx_txn);
        if (gen != m_gen)
            return false;
        if (b.sc & RXBD_E)
            return true;
        // No empty descriptor: the uDMA stops and RDAR reads 0 until written.
        m_rdar = false;
        m_stats.rx_stalls++;
        const tick_t t0 = now_ps();
        SIM_TRACE(TRACE_MAC, name(), "RX ring full at BD 0x%08x: uDMA stopped", addr);
        while (!m_rdar) {
            wait(m_rx_ev);
            if (gen != m_gen)
                return false;
        }
        m_stats.rx_stall_ps += now_ps() - t0;
    }
}

void enet::rx_dma_thread()
{
    for (;;) {
        while (!m_rx_count || !m_rdar || !(m_ecr & ECR_ETHEREN))
            wait(m_rx_ev);
        const unsigned gen = m_gen;
        rx_slot& f = rx_at(0);
        // RSFL = 0: store and forward, the frame is taken once it is wholly in
        // the FIFO (its status known); otherwise cut-through, once RSFL words
        // are in.
        if (m_rsfl) {
            if (!rx_wait_bytes(f, std::min<uint32_t>(m_rsfl * 8, f.keep_len), gen))
                continue;
        } else {
            if (now_ps() < f.t_end)
                wait(from_ps(f.t_end - now_ps()));
            if (gen != m_gen)
                continue;
            rx_settle();
            if (rx_accel_discards(f)) {
                m_stats.rx_accel_discards++;
                SIM_TRACE(TRACE_MAC, name(), "RX frame of %u B discarded by the receive accelerator (RACC 0x%02x)",
                          f.wire_len, m_racc);
                rx_pop();
                continue;
            }
        }
        if (m_mrbr < 16 && !m_mrbr_warned) {
            m_mrbr_warned = true;
            sim_log(log_level::guest_error, name(), "MRBR = %u: receive buffers need at least 16 B (using 16)", m_mrbr);
        }
        const uint32_t mrbr = std::max<uint32_t>(m_mrbr, 16);
        uint32_t junk = (m_racc & RACC_SHIFT16) ? 2 : 0;
        const uint32_t shift = junk;
        uint32_t fpos = 0;
        bool aborted = false;
        for (;;) {  // one descriptor per pass
            uint32_t bd_addr;
            bd b;
            if (!rx_fetch_bd(bd_addr, b, gen)) {
                aborted = true;
                break;
            }
            uint32_t bpos = 0;
            bool data_done = false;
            for (;;) {  // bursts into this buffer
                rx_settle();
                const uint32_t limit = f.ov ? f.stored : f.keep_len;
                if (fpos == limit && !junk) {
                    data_done = true;
                    break;
                }
                if (bpos == mrbr)
                    break;
                const uint64_t addr = (uint64_t)b.bufaddr + bpos;
                uint32_t n = m_cfg.burst_bytes - (uint32_t)(addr % m_cfg.burst_bytes);
                n = std::min(n, mrbr - bpos);
                n = std::min(n, junk + (limit - fpos));
                uint32_t m = n - junk;
                if (m && !rx_wait_bytes(f, fpos + m, gen)) {
                    aborted = true;
                    break;
                }
                if (f.ov && fpos + m > f.stored) {
                    m = f.stored - fpos;
                    n = junk + m;
                    if (!n)
                        continue;
                }
                // The bytes leave the FIFO once the path takes them (ERR004512).
                bus_pace(n);
                if (gen != m_gen) {
                    aborted = true;
                    break;
                }
                std::memset(m_burst.data(), 0, junk);
                std::memcpy(m_burst.data() + junk, f.data.data() + fpos, m);
                rx_settle();
                {
                    const uint64_t before = rx_slot_occ(f);
                    f.drained += m;
                    m_rx_occ -= before - rx_slot_occ(f);
                }
                fpos += m;
                junk = 0;
                bpos += n;
                rx_pause_eval();
                dma_xfer(tlm::TLM_WRITE_COMMAND, addr, m_burst.data(), n, m_rx_txn);
                if (gen != m_gen) {
                    aborted = true;
                    break;
                }
            }
            if (aborted)
                break;
            const bool last = data_done;
            if (last) {
                // Status (FCS, length) is known once the whole frame has arrived.
                if (now_ps() < f.t_end)
                    wait(from_ps(f.t_end - now_ps()));
                if (gen != m_gen) {
                    aborted = true;
                    break;
                }
                rx_settle();
            }
            bd w = b;
            w.sc = (uint16_t)(b.sc & (RXBD_W | RXBD_RO1 | RXBD_RO2));
            if (last) {
                w.sc |= RXBD_L | f.sc | (f.ov ? RXBD_OV : 0);
                w.datlen = (uint16_t)(shift + fpos);
            } else {
                w.datlen = (uint16_t)bpos;
            }
            if (enhanced()) {
                w.esc = (b.esc & RXESC_INT) | (last ? f.esc : (f.esc & RXESC_UC));
                if (last && (w.sc & (RXBD_CR | RXBD_OV | RXBD_LG | RXBD_TR)))
                    w.esc |= RXESC_ME;
                w.prot = 0;
                w.bdu = BDU_BIT;
                w.ts = 0;
            }
            f.writing = last;
            write_bd(bd_addr, w, m_rx_txn);
            f.writing = false;
            f.written = last;
            if (g_trace)
                g_trace->instant(te_track::mac, 0, now_ps(), g_trace->intern(last ? "RX BD written back (last)"
                                                                                   : "RX BD written back"),
                                 g_trace->intern("bd"), (int64_t)((bd_addr - m_rdsr) / bd_bytes()));
            if (gen != m_gen) {
                aborted = true;
                break;
            }
            m_rx_cur = ring_next(bd_addr, b, m_rdsr);
            const bool int_en = !enhanced() || (b.esc & RXESC_INT);
            if (!last) {
                if (int_en)
                    raise(EIR_RXB);
                continue;
            }
            m_stats.rx_delivered++;
            m_stats.rx_delivered_bytes += w.datlen;
            if (int_en)
                frame_event(true);
            break;
        }
        if (aborted)
            continue;
        rx_settle();
        rx_pop();
    }
}

bool enet::rx_accel_discards(const rx_slot& f) const
{
    return ((m_racc & RACC_IPDIS) && (f.esc & RXESC_ICE)) || ((m_racc & RACC_PRODIS) && (f.esc & RXESC_PCR)) ||
           ((m_racc & RACC_LINEDIS) && (f.sc & (RXBD_CR | RXBD_LG)));
}

void enet::rx_pop()
{
    m_rx_occ -= rx_slot_occ(m_rx_slots[m_rx_head]);
    m_rx_head = (m_rx_head + 1) % (unsigned)m_rx_slots.size();
    m_rx_count--;
    rx_pause_eval();
}

// ---------------------------------------------------------------- TX

void enet::tx_dma_thread()
{
    for (;;) {
        while (!m_tdar || !(m_ecr & ECR_ETHEREN))
            wait(m_tx_ev);
        const unsigned gen = m_gen;
        uint32_t addr = m_tx_cur;
        // After a wrap the walk may reach a BD whose frame is still in the FIFO.
        while (tx_in_flight(addr) && gen == m_gen)
            wait(m_tx_done_ev);
        if (gen != m_gen)
            continue;
        bd b;
        read_bd(addr, b, m_tx_txn);
        if (gen != m_gen)
            continue;
        if (!(b.sc & TXBD_R)) {
            // TDAR clears once what was fetched has gone out (the ERR006358 window).
            m_tx_notready_seen = true;
            m_tdar_repoll = false;
            while (m_tx_count && !m_tdar_repoll && gen == m_gen)
                wait(m_tx_done_ev | m_tx_ev);
            if (gen != m_gen)
                continue;
            m_tx_notready_seen = false;
            if (m_tdar_repoll) {
                m_tdar_repoll = false;
                continue;
            }
            m_tdar = false;
            SIM_TRACE(TRACE_MAC, name(), "TX walk ends at BD 0x%08x: TDAR cleared", addr);
            continue;
        }
        // Gather one frame into the TX FIFO, descriptor by descriptor.
        while (m_tx_count == m_tx_slots.size() && gen == m_gen)
            wait(m_tx_space_ev);
        if (gen != m_gen)
            continue;
        tx_slot& s = m_tx_slots[(m_tx_head + m_tx_count) % m_tx_slots.size()];
        s.len = 0;
        s.fifo_bytes = 0;
        s.bds.clear();
        bool first = true, aborted = false;
        for (;;) {
            uint32_t skip = (first && (m_tacc & TACC_SHIFT16)) ? std::min<uint32_t>(2, b.datlen) : 0;
            const uint32_t n = b.datlen;
            if (n > m_cfg.tx_fifo_bytes && !m_txbig_warned) {
                m_txbig_warned = true;
                sim_log(log_level::unimp, name(), "TX buffer of %u B exceeds the TX FIFO: cut-through not modelled", n);
            }
            const uint32_t need = std::min(n, m_cfg.tx_fifo_bytes);
            while (m_tx_fifo_used + need > m_cfg.tx_fifo_bytes && m_tx_fifo_used && gen == m_gen)
                wait(m_tx_space_ev);
            if (gen != m_gen) {
                aborted = true;
                break;
            }
            m_tx_fifo_used += need;
            s.fifo_bytes += need;
            if (s.data.size() < s.len + n + FCS_BYTES + MIN_FRAME_BYTES)
                s.data.resize(s.len + n + FCS_BYTES + MIN_FRAME_BYTES);
            uint8_t* dst = s.data.data() + s.len;
            for (uint32_t off = 0; off < n;) {
                const uint64_t a = (uint64_t)b.bufaddr + off;
                const uint32_t c = std::min(n - off, m_cfg.burst_bytes - (uint32_t)(a % m_cfg.burst_bytes));
                bus_pace(c);
                dma_xfer(tlm::TLM_READ_COMMAND, a, dst + off, c, m_tx_txn);
                off += c;
            }
            if (gen != m_gen) {
                aborted = true;
                break;
            }
            if (skip)
                std::memmove(dst, dst + skip, n - skip);
            s.len += n - skip;
            s.bds.emplace_back(addr, b);
            addr = ring_next(addr, b, m_tdsr);
            first = false;
            if (b.sc & TXBD_L)
                break;
            while (tx_in_flight(addr) && gen == m_gen)
                wait(m_tx_done_ev);
            read_bd(addr, b, m_tx_txn);
            if (gen != m_gen || !(b.sc & TXBD_R)) {
                if (gen == m_gen)
                    sim_log(log_level::guest_error, name(),
                            "TX frame continues into a non-ready BD at 0x%08x: frame dropped, walk stopped", addr);
                aborted = true;
                break;
            }
        }
        if (aborted) {
            if (gen == m_gen) {
                m_tx_fifo_used -= s.fifo_bytes;
                m_tdar = false;
            }
            continue;
        }
        // Checksum insertion (store and forward, before padding and FCS):
        // per frame by the enhanced BD's IINS/PINS, read from the frame's last
        // BD as QEMU's imx_enet_do_tx does [qemu-imx_fec] (fec sets them on
        // every BD of a frame), or for every frame by TACC.IPCHK/PROCHK
        // (docs/sources.md §1.4).
        {
            const uint32_t esc = enhanced() ? s.bds.back().second.esc : 0;
            const int done = traffic_insert_checksums(s.data.data(), s.len,
                                                      (esc & TXESC_IINS) || (m_tacc & TACC_IPCHK),
                                                      (esc & TXESC_PINS) || (m_tacc & TACC_PROCHK));
            if (done & 1)
                m_stats.tx_ip_csum_inserted++;
            if (done & 2)
                m_stats.tx_l4_csum_inserted++;
        }
        if (s.bds.back().second.sc & TXBD_TC) {
            if (s.len < MIN_FRAME_BYTES - FCS_BYTES) {  // pad short frames (assumption: always on)
                std::memset(s.data.data() + s.len, 0, MIN_FRAME_BYTES - FCS_BYTES - s.len);
                s.len = MIN_FRAME_BYTES - FCS_BYTES;
            }
            traffic_append_fcs(s.data.data(), s.len);
            s.len += FCS_BYTES;
        }
        s.fcs_appended = (s.bds.back().second.sc & TXBD_TC) != 0;
        m_tx_cur = addr;
        m_tx_count++;
        m_tx_mac_ev.notify(sc_core::SC_ZERO_TIME);
    }
}

bool enet::tx_in_flight(uint32_t addr) const
{
    for (unsigned i = 0; i < m_tx_count; i++)
        for (const auto& x : m_tx_slots[(m_tx_head + i) % m_tx_slots.size()].bds)
            if (x.first == addr)
                return true;
    return false;
}

void enet::tx_send_pause()
{
    const uint32_t q = (uint32_t)m_pause_req;
    m_pause_req = -1;
    uint8_t* p = m_pause_frame;
    std::memset(p, 0, sizeof m_pause_frame);
    const uint8_t dst[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
    std::memcpy(p, dst, 6);
    p[6] = (uint8_t)(m_palr >> 24); p[7] = (uint8_t)(m_palr >> 16); p[8] = (uint8_t)(m_palr >> 8);
    p[9] = (uint8_t)m_palr; p[10] = (uint8_t)(m_paur >> 24); p[11] = (uint8_t)(m_paur >> 16);
    p[12] = 0x88; p[13] = 0x08; p[14] = 0x00; p[15] = 0x01;
    p[16] = (uint8_t)(q >> 8); p[17] = (uint8_t)q;
    traffic_append_fcs(p, MIN_FRAME_BYTES - FCS_BYTES);
    const tick_t start = std::max(now_ps(), m_tx_line_free);
    if (start > now_ps())
        wait(from_ps(start - now_ps()));
    eth_frame f{p, MIN_FRAME_BYTES, start, m_byte_ps, true};
    if (phy_tx.size())
        phy_tx->frame_start(f);
    const uint32_t ipg = (m_tipg >= 8 && m_tipg <= 26) ? m_tipg : TIPG_RESET_VALUE;
    m_tx_line_free = start + (PREAMBLE_BYTES + MIN_FRAME_BYTES + ipg) * m_byte_ps;
    const tick_t end = start + (PREAMBLE_BYTES + MIN_FRAME_BYTES) * m_byte_ps;
    wait(from_ps(end - now_ps()));
    mib_inc(IEEE_T_FDXFC);
    if (q)
        m_stats.pause_sent++;
    else
        m_stats.xon_sent++;
    SIM_TRACE(TRACE_MAC, name(), "sent %s (%u quanta)", q ? "XOFF" : "XON", q);
    if (phy_pause.size())
        phy_pause->pause(q, end + m_cfg.pause_reaction_ps);
}

void enet::tx_mac_thread()
{
    for (;;) {
        while (!m_tx_count && m_pause_req < 0)
            wait(m_tx_mac_ev);
        if (m_pause_req >= 0) {
            tx_send_pause();
            continue;
        }
        const unsigned gen = m_gen;
        tx_slot& s = m_tx_slots[m_tx_head];
        const tick_t start = std::max({now_ps(), m_tx_line_free, m_tx_paused_until});
        if (start > now_ps()) {
            wait(from_ps(start - now_ps()), m_tx_mac_ev);  // a pause request may overtake
            continue;
        }
        if (gen != m_gen)
            continue;
        eth_frame f{s.data.data(), s.len, start, m_byte_ps, s.fcs_appended};
        check_speed("was sent");
        if (phy_tx.size())
            phy_tx->frame_start(f);
        const uint32_t ipg = (m_tipg >= 8 && m_tipg <= 26) ? m_tipg : TIPG_RESET_VALUE;
        m_tx_line_free = start + (PREAMBLE_BYTES + s.len + ipg) * m_byte_ps;
        wait(from_ps((PREAMBLE_BYTES + s.len) * m_byte_ps));
        if (gen != m_gen)
            continue;
        m_stats.tx_frames++;
        m_stats.tx_bytes += s.len;
        mib_inc(RMON_T_PACKETS);
        mib_inc(RMON_T_OCTETS, s.len);
        mib_inc(IEEE_T_FRAME_OK);
        mib_inc(IEEE_T_OCTETS_OK, s.len);
        if (s.data[0] & 1)
            mib_inc((s.data[0] & s.data[1] & s.data[2] & s.data[3] & s.data[4] & s.data[5]) == 0xFF ? RMON_T_BC_PKT
                                                                                                       : RMON_T_MC_PKT);
        mib_inc(s.len <= 64 ? RMON_T_P64 : s.len <= 127 ? RMON_T_P65TO127 : s.len <= 255 ? RMON_T_P128TO255
                : s.len <= 511 ? RMON_T_P256TO511 : s.len <= 1023 ? RMON_T_P512TO1023
                : s.len <= 2047 ? RMON_T_P1024TO2047 : RMON_T_P_GTE2048);
        m_tx_fifo_used -= s.fifo_bytes;
        m_tx_space_ev.notify(sc_core::SC_ZERO_TIME);
        for (size_t i = 0; i < s.bds.size(); i++) {
            const bool last = i + 1 == s.bds.size();
            bd w = s.bds[i].second;
            w.sc &= (uint16_t)~TXBD_R;
            if (enhanced()) {
                w.esc &= ~(TXESC_TXE | TXESC_UE);
                w.bdu = BDU_BIT;
            }
            write_bd(s.bds[i].first, w, m_txwb_txn);
            if (g_trace)
                g_trace->instant(te_track::mac, 1, now_ps(), g_trace->intern("TX BD written back"),
                                 g_trace->intern("bd"), (int64_t)((s.bds[i].first - m_tdsr) / bd_bytes()));
            if (gen != m_gen)
                break;
            const bool int_en = !enhanced() || (w.esc & TXESC_INT);
            if (int_en) {
                if (last)
                    frame_event(false);
                else
                    raise(EIR_TXB);
            }
        }
        if (gen != m_gen)
            continue;
        m_tx_head = (m_tx_head + 1) % (unsigned)m_tx_slots.size();
        m_tx_count--;
        m_tx_done_ev.notify(sc_core::SC_ZERO_TIME);
    }
}

} // namespace models::enet
