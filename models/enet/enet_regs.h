// models/enet/enet_regs.h: i.MX6Q ENET (FEC, "ENET-MAC" generation) register
// offsets, register bits and buffer-descriptor bits.
//
// Offsets are byte offsets from the ENET base; every register is 32 bits wide.
// Sources: docs/sources.md §1.3 (descriptor layouts and bits), 1.4 (registers and reset
// values), 1.5 (pause). The RMON/IEEE counter offsets and the enhanced-BD esc
// bits not named there follow the public NetBSD i.MX6 ENET register
// header (facts only). Bits marked [recall] are from memory of the reference
// manual and not confirmed by a source read in this project. Not defined
// here: the 1588 timer block (0x400..) and the AVB/multi-queue registers,
// which the i.MX6Q does not have or the model does not implement.
#pragma once
#include <cstdint>

namespace models::enet {

// Register offsets (docs/sources.md §1.4).
enum reg : uint32_t {
    REG_EIR = 0x004,   // interrupt event, write 1 to clear
    REG_EIMR = 0x008,  // interrupt mask: 1 = event drives the irq line
    REG_RDAR = 0x010,  // RX descriptor active (bit 24); any write sets it
    REG_TDAR = 0x014,  // TX descriptor active (bit 24); any write sets it
    REG_ECR = 0x024,   // Ethernet control
    REG_MMFR = 0x040,  // MDIO management frame
    REG_MSCR = 0x044,  // MDIO speed control
    REG_MIBC = 0x064,  // MIB counter control
    REG_RCR = 0x084,   // receive control
    REG_TCR = 0x0C4,   // transmit control
    REG_PALR = 0x0E4,  // station address bytes 0..3 (byte 0 in bits 31:24)
    REG_PAUR = 0x0E8,  // station address bytes 4..5 (bits 31:16); type 0x8808 in 15:0
    REG_OPD = 0x0EC,   // opcode (31:16) and pause duration in quanta (15:0)
    REG_TXIC0 = 0x0F0, // TX interrupt coalescing (only with has_coalesce)
    REG_TXIC1 = 0x0F4, // ... of TX ring 1 and 2 (has_coalesce and queues >= 2, 3)
    REG_TXIC2 = 0x0F8,
    REG_RXIC0 = 0x100, // RX interrupt coalescing (only with has_coalesce)
    REG_RXIC1 = 0x104, // ... of RX ring 1 and 2 (has_coalesce and queues >= 2, 3)
    REG_RXIC2 = 0x108,
    REG_IAUR = 0x118,  // individual (unicast) hash, upper 32 bits
    REG_IALR = 0x11C,  // individual (unicast) hash, lower 32 bits
    REG_GAUR = 0x120,  // group (multicast) hash, upper 32 bits
    REG_GALR = 0x124,  // group (multicast) hash, lower 32 bits
    REG_TFWR = 0x144,  // TX FIFO watermark and store-and-forward
    // Rings 1 and 2 of the multi-queue ENET (queues >= 2, 3; docs/sources.md §1.7).
    REG_RDSR1 = 0x160, // RX descriptor ring 1 start
    REG_TDSR1 = 0x164, // TX descriptor ring 1 start
    REG_MRBR1 = 0x168, // maximum RX buffer size of ring 1
    REG_RDSR2 = 0x16C,
    REG_TDSR2 = 0x170,
    REG_MRBR2 = 0x174,
    REG_RCMR1 = 0x1C8, // RX classification match of ring 1: MATCHEN bit 16, four 3-bit VLAN priorities
    REG_RCMR2 = 0x1CC,
    REG_DMA1CFG = 0x1D8, // TX ring 1 class: DMA_CLASS_EN bit 16, IDLE_SLOPE bits 15:0
    REG_DMA2CFG = 0x1DC,
    REG_RDAR1 = 0x1E0, // RX descriptor active of ring 1 (bit 24)
    REG_TDAR1 = 0x1E4,
    REG_RDAR2 = 0x1E8,
    REG_TDAR2 = 0x1EC,
    REG_QOS = 0x1F0,   // TX scheduling scheme of the rings
    REG_RDSR = 0x180,  // RX descriptor ring start
    REG_TDSR = 0x184,  // TX descriptor ring start
    REG_MRBR = 0x188,  // maximum RX buffer size (bits 13:4)
    REG_RSFL = 0x190,  // RX FIFO section full threshold, 64-bit words (0 = store and forward)
    REG_RSEM = 0x194,  // RX FIFO section empty threshold (XOFF level), words
    REG_RAEM = 0x198,  // RX FIFO almost empty threshold, words
    REG_RAFL = 0x19C,  // RX FIFO almost full threshold, words
    REG_TSEM = 0x1A0,  // TX FIFO section empty threshold, words
    REG_TAEM = 0x1A4,  // TX FIFO almost empty threshold, words
    REG_TAFL = 0x1A8,  // TX FIFO almost full threshold, words
    REG_TIPG = 0x1AC,  // TX inter-packet gap, bytes (bits 4:0)
    REG_FTRL = 0x1B0,  // frame truncation length, bytes (bits 13:0)
    REG_TACC = 0x1C0,  // TX accelerator control
    REG_RACC = 0x1C4,  // RX accelerator control
    REG_MIB_FIRST = 0x200,  // first RMON/IEEE counter
    REG_MIB_LAST = 0x2E0,   // last RMON/IEEE counter
    // IEEE 1588 timer block.
    REG_ATCR = 0x400,   // timer control
    REG_ATVR = 0x404,   // timer value: write sets the counter, read gives the last capture
    REG_ATOFF = 0x408,  // offset (compare) value
    REG_ATPER = 0x40C,  // period: the counter wraps to 0 on reaching it
    REG_ATCOR = 0x410,  // correction counter
    REG_ATINC = 0x414,  // increment per timer clock (6:0), correction increment (14:8)
};

// ATCR bits.
enum atcr_bit : uint32_t {
    ATCR_EN = 1u << 0,        // the counter runs
    ATCR_RESTART = 1u << 9,   // reset the counter to 0 (self-clearing)
    ATCR_CAPTURE = 1u << 11,  // latch the counter into ATVR (self-clearing)
};

// RMON/IEEE statistics counters (read-only, cleared by MIBC.MIB_CLEAR).
enum mib_reg : uint32_t {
    RMON_T_DROP = 0x200,        // reserved on ENET (reads 0)
    RMON_T_PACKETS = 0x204,     // frames transmitted
    RMON_T_BC_PKT = 0x208,      // broadcast frames transmitted
    RMON_T_MC_PKT = 0x20C,      // multicast frames transmitted
    RMON_T_CRC_ALIGN = 0x210,   // frames transmitted with CRC/alignment error
    RMON_T_UNDERSIZE = 0x214,   // frames < 64 B transmitted with good CRC
    RMON_T_OVERSIZE = 0x218,    // frames > MAX_FL transmitted with good CRC
    RMON_T_FRAG = 0x21C,        // frames < 64 B transmitted with bad CRC
    RMON_T_JAB = 0x220,         // frames > MAX_FL transmitted with bad CRC
    RMON_T_COL = 0x224,         // collisions
    RMON_T_P64 = 0x228,         // frames of 64 B transmitted
    RMON_T_P65TO127 = 0x22C,    // 65..127 B
    RMON_T_P128TO255 = 0x230,   // 128..255 B
    RMON_T_P256TO511 = 0x234,   // 256..511 B
    RMON_T_P512TO1023 = 0x238,  // 512..1023 B
    RMON_T_P1024TO2047 = 0x23C, // 1024..2047 B
    RMON_T_P_GTE2048 = 0x240,   // >= 2048 B
    RMON_T_OCTETS = 0x244,      // octets transmitted
    IEEE_T_DROP = 0x248,        // reserved on ENET (reads 0)
    IEEE_T_FRAME_OK = 0x24C,    // frames transmitted OK
    IEEE_T_1COL = 0x250,        // single-collision frames
    IEEE_T_MCOL = 0x254,        // multiple-collision frames
    IEEE_T_DEF = 0x258,         // deferred frames
    IEEE_T_LCOL = 0x25C,        // late collisions
    IEEE_T_EXCOL = 0x260,       // excessive collisions
    IEEE_T_MACERR = 0x264,      // TX FIFO underrun
    IEEE_T_CSERR = 0x268,       // carrier sense errors
    IEEE_T_SQE = 0x26C,         // SQE errors (reserved)
    IEEE_T_FDXFC = 0x270,       // pause frames transmitted
    IEEE_T_OCTETS_OK = 0x274,   // octets of frames transmitted OK
    RMON_R_PACKETS = 0x284,     // frames received (all, good and bad)
    RMON_R_BC_PKT = 0x288,      // broadcast frames received
    RMON_R_MC_PKT = 0x28C,      // multicast frames received
    RMON_R_CRC_ALIGN = 0x290,   // frames received with CRC/alignment error
    RMON_R_UNDERSIZE = 0x294,   // frames < 64 B received with good CRC
    RMON_R_OVERSIZE = 0x298,    // frames > MAX_FL received with good CRC
    RMON_R_FRAG = 0x29C,        // frames < 64 B received with bad CRC
    RMON_R_JAB = 0x2A0,         // frames > MAX_FL received with bad CRC
    RMON_R_RESVD_0 = 0x2A4,     // reserved
    RMON_R_P64 = 0x2A8,         // frames of 64 B received
    RMON_R_P65TO127 = 0x2AC,    // 65..127 B
    RMON_R_P128TO255 = 0x2B0,   // 128..255 B
    RMON_R_P256TO511 = 0x2B4,   // 256..511 B
    RMON_R_P512TO1023 = 0x2B8,  // 512..1023 B
    RMON_R_P1024TO2047 = 0x2BC, // 1024..2047 B
    RMON_R_P_GTE2048 = 0x2C0,   // >= 2048 B
    RMON_R_OCTETS = 0x2C4,      // octets received
    IEEE_R_DROP = 0x2C8,        // frames not counted correctly (not modelled: 0)
    IEEE_R_FRAME_OK = 0x2CC,    // frames received OK
    IEEE_R_CRC = 0x2D0,         // frames received with CRC error
    IEEE_R_ALIGN = 0x2D4,       // frames received with alignment error
    IEEE_R_MACERR = 0x2D8,      // RX FIFO overflow count (ethtool IEEE_rx_macerr)
    IEEE_R_FDXFC = 0x2DC,       // pause frames received
    IEEE_R_OCTETS_OK = 0x2E0,   // octets of frames received OK
};
constexpr unsigned MIB_WORDS = (REG_MIB_LAST - REG_MIB_FIRST) / 4 + 1;

// EIR / EIMR bits (docs/sources.md §1.4).
enum eir_bit : uint32_t {
    EIR_HBERR = 1u << 31,    // heartbeat error
    EIR_BABR = 1u << 30,     // babbling receive error
    EIR_BABT = 1u << 29,     // babbling transmit error
    EIR_GRA = 1u << 28,      // graceful stop complete
    EIR_TXF = 1u << 27,      // transmit frame done (last BD of a frame written back)
    EIR_TXB = 1u << 26,      // transmit buffer done (a non-last BD written back)
    EIR_RXF = 1u << 25,      // receive frame done (last BD of a frame written back)
    EIR_RXB = 1u << 24,      // receive buffer done (a non-last BD written back)
    EIR_MII = 1u << 23,      // MDIO frame completed
    EIR_EBERR = 1u << 22,    // uDMA bus error
    EIR_LC = 1u << 21,       // late collision
    EIR_RL = 1u << 20,       // collision retry limit
    EIR_UN = 1u << 19,       // TX FIFO underrun
    EIR_PLR = 1u << 18,      // payload receive error
    EIR_WAKEUP = 1u << 17,   // magic packet wake-up
    EIR_TS_AVAIL = 1u << 16, // TX timestamp available
    EIR_TS_TIMER = 1u << 15, // 1588 timer wrapped
    EIR_IMPL_MASK = 0xFFFF8000u,  // bits that exist on i.MX6Q (no AVB ring bits)
    EIR_RING_MASK = 0x000000AAu,  // RXF1 bit 1, TXF1 bit 3, RXF2 bit 5, TXF2 bit 7 (queues >= 2)
};

constexpr uint32_t RDAR_ACTIVE = 1u << 24;  // RDAR/TDAR: ring active
constexpr uint32_t TDAR_ACTIVE = 1u << 24;

// ECR bits.
enum ecr_bit : uint32_t {
    ECR_RESET = 1u << 0,    // soft reset; self-clearing
    ECR_ETHEREN = 1u << 1,  // MAC and uDMA enabled
    ECR_MAGICEN = 1u << 2,  // magic packet detection (not modelled)
    ECR_SLEEP = 1u << 3,    // sleep mode (not modelled)
    ECR_EN1588 = 1u << 4,   // enhanced (32-B) descriptors and 1588 functions
    ECR_SPEED = 1u << 5,    // 1000 Mbit/s mode
    ECR_DBGEN = 1u << 6,    // freeze in debug mode (not modelled)
    ECR_STOPEN = 1u << 7,   // stop in doze mode (not modelled)
    ECR_DBSWP = 1u << 8,    // descriptors little-endian (byte swap); clear = big-endian layout
    ECR_RESET_VALUE = 0xF0000000u,  // bits 31:28 read as 1 (docs/sources.md §1.4, QEMU)
    ECR_WRITABLE = 0x000001FEu,
};

// MMFR fields (clause 22 frames).
enum mmfr_field : uint32_t {
    MMFR_ST_SHIFT = 30,     // start of frame: 01 = clause 22, 00 = clause 45
    MMFR_OP_SHIFT = 28,     // 01 write, 10 read
    MMFR_PA_SHIFT = 23,     // PHY address, 5 bits
    MMFR_RA_SHIFT = 18,     // register address, 5 bits
    MMFR_DATA_MASK = 0xFFFF,
};

// MIBC bits.
enum mibc_bit : uint32_t {
    MIBC_DIS = 1u << 31,    // counters frozen
    MIBC_IDLE = 1u << 30,   // read-only: counter block idle (always 1 in the model)
    MIBC_CLEAR = 1u << 29,  // clear all counters
    MIBC_RESET_VALUE = 0xC0000000u,
};

// RCR bits.
enum rcr_bit : uint32_t {
    RCR_LOOP = 1u << 0,      // internal loopback (not modelled)
    RCR_DRT = 1u << 1,       // disable receive on transmit (half duplex)
    RCR_MII_MODE = 1u << 2,  // MII/RMII/RGMII mode (must be 1)
    RCR_PROM = 1u << 3,      // promiscuous: no address filtering
    RCR_BC_REJ = 1u << 4,    // reject broadcast frames
    RCR_FCE = 1u << 5,       // flow control enable (honour and generate pause)
    RCR_RGMII_EN = 1u << 6,  // RGMII interface
    RCR_RMII_MODE = 1u << 8, // RMII interface
    RCR_RMII_10T = 1u << 9,  // 10 Mbit/s in RMII mode
    RCR_PADEN = 1u << 12,    // remove padding (not modelled; docs/sources.md §1.1 PADEN bug)
    RCR_PAUFWD = 1u << 13,   // forward pause frames
    RCR_CRCFWD = 1u << 14,   // strip CRC (not modelled; FCS always written)
    RCR_CFEN = 1u << 15,     // MAC control frame enable
    RCR_MAX_FL_SHIFT = 16,   // maximum frame length, bits 29:16
    RCR_MAX_FL_MASK = 0x3FFFu << 16,
    RCR_NLC = 1u << 30,      // payload length check
    RCR_GRS = 1u << 31,      // graceful receive stopped (read-only)
    RCR_RESET_VALUE = 0x05EE0001u,  // MAX_FL 1518, LOOP (docs/sources.md §1.4, QEMU)
};

// TCR bits.
enum tcr_bit : uint32_t {
    TCR_GTS = 1u << 0,       // graceful transmit stop (not modelled)
    TCR_FDEN = 1u << 2,      // full duplex
    TCR_TFC_PAUSE = 1u << 3, // transmit a pause frame (not modelled)
    TCR_RFC_PAUSE = 1u << 4, // read-only: transmission paused by a received pause
    TCR_ADDINS = 1u << 8,    // overwrite source address (not modelled)
    TCR_CRCFWD = 1u << 9,    // do not append CRC (not modelled; TC bit governs)
};

// Interrupt coalescing registers RXIC0/TXIC0 (i.MX6SX and later; docs/sources.md §1.4).
enum ic_field : uint32_t {
    IC_EN = 1u << 31,        // coalescing enabled
    IC_CS = 1u << 30,        // clock select (model: always the ENET clock)
    IC_FT_SHIFT = 20,        // ICFT frame threshold, bits 27:20
    IC_FT_MASK = 0xFFu << 20,
    IC_TT_MASK = 0xFFFFu,    // ICTT timer threshold, units of 64 clock cycles
};

// TFWR bits.
enum tfwr_bit : uint32_t {
    TFWR_WMRK_MASK = 0x3F,   // watermark in 64-B units
    TFWR_STRFWD = 1u << 8,   // store and forward
};

// TACC / RACC bits (docs/sources.md §1.4).
enum acc_bit : uint32_t {
    TACC_SHIFT16 = 1u << 0,  // TX: first 2 bytes of the first buffer are skipped
    TACC_IPCHK = 1u << 3,    // insert the IPv4 header checksum of every frame
    TACC_PROCHK = 1u << 4,   // insert the TCP/UDP checksum of every frame
    RACC_PADREM = 1u << 0,   // remove Ethernet padding (not modelled)
    RACC_IPDIS = 1u << 1,    // discard frames with a bad IPv4 header checksum (store and forward only)
    RACC_PRODIS = 1u << 2,   // discard frames with a bad protocol checksum (store and forward only)
    RACC_LINEDIS = 1u << 6,  // discard frames with MAC errors (store and forward only)
    RACC_SHIFT16 = 1u << 7,  // RX: 2 bytes written before the frame, counted in the length
};

// Reset values of the threshold registers (docs/sources.md §1.2).
constexpr uint32_t OPD_RESET_VALUE = 0x00010000u;
constexpr uint32_t FTRL_RESET_VALUE = 0x7FF;
constexpr uint32_t TIPG_RESET_VALUE = 12;
constexpr uint32_t RAEM_RESET_VALUE = 4;
constexpr uint32_t RAFL_RESET_VALUE = 4;
constexpr uint32_t TAEM_RESET_VALUE = 4;
constexpr uint32_t TAFL_RESET_VALUE = 8;

// Buffer descriptors (docs/sources.md §1.3). Legacy BD: 8 bytes; enhanced BD: 32 bytes.
constexpr unsigned BD_LEGACY_BYTES = 8;
constexpr unsigned BD_ENHANCED_BYTES = 32;

// RX cbd_sc bits.
enum rx_bd_bit : uint16_t {
    RXBD_E = 0x8000,   // empty: owned by the MAC
    RXBD_RO1 = 0x4000, // software owned, untouched
    RXBD_W = 0x2000,   // wrap: next BD is at RDSR
    RXBD_RO2 = 0x1000, // software owned, untouched
    RXBD_L = 0x0800,   // last BD of the frame
    RXBD_M = 0x0100,   // miss: accepted only because of PROM
    RXBD_BC = 0x0080,  // broadcast destination
    RXBD_MC = 0x0040,  // multicast destination
    RXBD_LG = 0x0020,  // length > MAX_FL (or truncated at FTRL)
    RXBD_NO = 0x0010,  // non-octet aligned (never in the model)
    RXBD_CR = 0x0004,  // CRC error
    RXBD_OV = 0x0002,  // FIFO overrun: the frame was truncated in the RX FIFO
    RXBD_TR = 0x0001,  // truncated at FTRL
};

// RX enhanced cbd_esc bits.
enum rx_esc_bit : uint32_t {
    RXESC_ME = 1u << 31,   // MAC error (CR/OV/LG/NO/TR)
    RXESC_PE = 1u << 26,   // PHY error
    RXESC_CE = 1u << 25,   // collision
    RXESC_UC = 1u << 24,   // unicast destination
    RXESC_INT = 1u << 23,  // driver-set: raise RXB/RXF for this BD [recall]
    RXESC_ICE = 1u << 5,   // IPv4 header checksum error
    RXESC_PCR = 1u << 4,   // protocol (UDP/TCP) checksum error
    RXESC_VLAN = 1u << 2,  // VLAN tagged
    RXESC_IPV6 = 1u << 1,  // IPv6 frame
    RXESC_FRAG = 1u << 0,  // IPv4 fragment
};

// TX cbd_sc bits.
enum tx_bd_bit : uint16_t {
    TXBD_R = 0x8000,   // ready: owned by the MAC
    TXBD_TO1 = 0x4000, // software owned
    TXBD_W = 0x2000,   // wrap: next BD is at TDSR
    TXBD_TO2 = 0x1000, // software owned
    TXBD_L = 0x0800,   // last BD of the frame
    TXBD_TC = 0x0400,  // append the FCS after the last byte
    TXBD_ABC = 0x0200, // append a bad CRC (not modelled)
};

// TX enhanced cbd_esc bits.
enum tx_esc_bit : uint32_t {
    TXESC_INT = 1u << 30,   // driver-set: raise TXB/TXF for this BD [recall]
    TXESC_TS = 1u << 29,    // timestamp the frame (not modelled)
    TXESC_PINS = 1u << 28,  // insert the TCP/UDP checksum of this frame
    TXESC_IINS = 1u << 27,  // insert the IPv4 header checksum of this frame
    TXESC_TXE = 1u << 15,   // transmit error (never set)
    TXESC_UE = 1u << 13,    // underflow (never set: store-and-forward)
};

constexpr uint32_t BDU_BIT = 1u << 31;  // cbd_bdu: the MAC has updated this BD [recall]

} // namespace models::enet
