/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fec.h: registers, buffer descriptors and driver state of fecsim's FEC/ENET
 * driver (fec_main.c). Written from scratch against the kernel API; the
 * register map and bit meanings follow the i.MX6Q ENET as documented in
 * docs/sources.md §1.3 and 1.4, the sizes and thresholds follow the Linux
 * v5.4 fec driver (docs/sources.md §2.1).
 *
 * Only what the i.MX6Q needs is here: one RX and one TX ring, enhanced
 * (32-byte) descriptors, no AVB rings, no interrupt coalescing registers.
 */
#ifndef FECSIM_FEC_H
#define FECSIM_FEC_H

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>

/******************************************************************************
 * Registers (byte offsets from the ENET base)
 *****************************************************************************/

#define FEC_EIR			0x004	/* interrupt events, write 1 to clear */
#define FEC_EIMR		0x008	/* interrupt mask, 1 = enabled */
#define FEC_RDAR		0x010	/* RX descriptors active: any write */
#define FEC_TDAR		0x014	/* TX descriptors active: any write */
#define FEC_ECR			0x024	/* Ethernet control */
#define FEC_MMFR		0x040	/* MDIO frame (unused: no MDIO here) */
#define FEC_MSCR		0x044	/* MDIO speed (unused: no MDIO here) */
#define FEC_MIBC		0x064	/* MIB control/status */
#define FEC_RCR			0x084	/* receive control */
#define FEC_TCR			0x0c4	/* transmit control */
#define FEC_PALR		0x0e4	/* MAC address bytes 0..3 */
#define FEC_PAUR		0x0e8	/* MAC address bytes 4..5, type */
#define FEC_OPD			0x0ec	/* pause duration (pause is off) */
#define FEC_IAUR		0x118	/* individual hash, upper 32 bits */
#define FEC_IALR		0x11c	/* individual hash, lower 32 bits */
#define FEC_GAUR		0x120	/* group hash, upper 32 bits */
#define FEC_GALR		0x124	/* group hash, lower 32 bits */
#define FEC_TFWR		0x144	/* TX FIFO watermark */
#define FEC_RDSR		0x180	/* RX ring start (device address) */
#define FEC_TDSR		0x184	/* TX ring start (device address) */
#define FEC_MRBR		0x188	/* maximum RX buffer size (bytes) */
#define FEC_RSFL		0x190	/* RX FIFO section full (8-B words) */
#define FEC_RSEM		0x194	/* RX FIFO section empty (8-B words) */
#define FEC_RAEM		0x198	/* RX FIFO almost empty (8-B words) */
#define FEC_RAFL		0x19c	/* RX FIFO almost full (8-B words) */
#define FEC_TSEM		0x1a0	/* TX FIFO section empty (8-B words) */
#define FEC_TAEM		0x1a4	/* TX FIFO almost empty (8-B words) */
#define FEC_TAFL		0x1a8	/* TX FIFO almost full (8-B words) */
#define FEC_TIPG		0x1ac	/* TX inter-packet gap (byte times) */
#define FEC_FTRL		0x1b0	/* RX frame truncation length (bytes) */
#define FEC_TACC		0x1c0	/* TX accelerator control */
#define FEC_RACC		0x1c4	/* RX accelerator control */

/* EIR / EIMR bits */
#define FEC_ENET_HBERR		BIT(31)	/* heartbeat error */
#define FEC_ENET_BABR		BIT(30)	/* babbling receive error */
#define FEC_ENET_BABT		BIT(29)	/* babbling transmit error */
#define FEC_ENET_GRA		BIT(28)	/* graceful stop complete */
#define FEC_ENET_TXF		BIT(27)	/* transmit frame done */
#define FEC_ENET_TXB		BIT(26)	/* transmit buffer done */
#define FEC_ENET_RXF		BIT(25)	/* receive frame done */
#define FEC_ENET_RXB		BIT(24)	/* receive buffer done */
#define FEC_ENET_MII		BIT(23)	/* MDIO transfer done */
#define FEC_ENET_EBERR		BIT(22)	/* DMA bus error */
#define FEC_ENET_WAKEUP		BIT(17)	/* magic packet wake-up */
#define FEC_ENET_TS_AVAIL	BIT(16)	/* TX timestamp available */
#define FEC_ENET_TS_TIMER	BIT(15)	/* 1588 timer wrapped */

/*
 * v5.4-era masks: MII stays enabled for MDIO completions, and while NAPI
 * runs RX and TX are masked by leaving only MII (docs/sources.md §2.4).
 */
#define FEC_DEFAULT_IMASK	(FEC_ENET_TXF | FEC_ENET_RXF | FEC_ENET_MII)
#define FEC_NAPI_IMASK		FEC_ENET_MII

/* ECR bits */
#define FEC_ECR_RESET		BIT(0)	/* soft reset, self-clearing */
#define FEC_ECR_ETHEREN		BIT(1)	/* MAC and uDMA enabled */
#define FEC_ECR_MAGICEN		BIT(2)	/* magic packet detection */
#define FEC_ECR_SLEEP		BIT(3)	/* sleep mode */
#define FEC_ECR_EN1588		BIT(4)	/* enhanced descriptors, 1588 timer */
#define FEC_ECR_SPEED		BIT(5)	/* 1000 Mbit/s (RGMII) */
#define FEC_ECR_DBSWP		BIT(8)	/* descriptors little-endian */

/* RCR bits */
#define FEC_RCR_LOOP		BIT(0)	/* internal loopback */
#define FEC_RCR_DRT		BIT(1)	/* disable receive on transmit (HD) */
#define FEC_RCR_MII_MODE	BIT(2)	/* MII/RMII/RGMII rather than 7-wire */
#define FEC_RCR_PROM		BIT(3)	/* promiscuous */
#define FEC_RCR_BC_REJ		BIT(4)	/* reject broadcast */
#define FEC_RCR_FCE		BIT(5)	/* honour received pause frames */
#define FEC_RCR_RGMII_EN	BIT(6)	/* RGMII interface */
#define FEC_RCR_RMII_MODE	BIT(8)	/* RMII interface */
#define FEC_RCR_RMII_10T	BIT(9)	/* 10 Mbit/s in RMII/RGMII mode */
#define FEC_RCR_NLC		BIT(30)	/* payload length check */
#define FEC_RCR_MAX_FL(n)	((u32)(n) << 16)	/* bits 29:16, bytes */

/* TCR bits */
#define FEC_TCR_GTS		BIT(0)	/* graceful transmit stop */
#define FEC_TCR_FDEN		BIT(2)	/* full duplex */

/* PAUR: the low half reads back the pause frame type. */
#define FEC_PAUR_TYPE		0x8808

/* TFWR bits */
#define FEC_TFWR_STRFWD		BIT(8)	/* store and forward */

/* MIBC bits */
#define FEC_MIBC_DIS		BIT(31)	/* counters stopped */
#define FEC_MIBC_IDLE		BIT(30)	/* counters idle (read only) */
#define FEC_MIBC_CLEAR		BIT(29)	/* clear all counters */

/* TACC bits */
#define FEC_TACC_SHIFT16	BIT(0)	/* TX data starts 2 bytes in */
#define FEC_TACC_IPCHK		BIT(3)	/* insert IP header checksum */
#define FEC_TACC_PROCHK		BIT(4)	/* insert protocol checksum */

/* RACC bits */
#define FEC_RACC_PADREM		BIT(0)	/* remove Ethernet padding */
#define FEC_RACC_IPDIS		BIT(1)	/* drop frames with bad IP csum */
#define FEC_RACC_PRODIS		BIT(2)	/* drop frames with bad proto csum */
#define FEC_RACC_LINEDIS	BIT(6)	/* drop frames with MAC errors */
#define FEC_RACC_SHIFT16	BIT(7)	/* 2 pad bytes before each frame */
#define FEC_RACC_CSUM		(FEC_RACC_IPDIS | FEC_RACC_PRODIS)

/*
 * MIB counters (32-bit, read only while MIBC.DIS is clear). Offsets are
 * those of the i.MX6Q ENET; names are those of the reference manual.
 */
#define RMON_T_DROP		0x200	/* TX frames dropped (not counted) */
#define RMON_T_PACKETS		0x204	/* TX frames */
#define RMON_T_BC_PKT		0x208	/* TX broadcast frames */
#define RMON_T_MC_PKT		0x20c	/* TX multicast frames */
#define RMON_T_CRC_ALIGN	0x210	/* TX frames with CRC/align error */
#define RMON_T_UNDERSIZE	0x214	/* TX frames < 64 B, good CRC */
#define RMON_T_OVERSIZE		0x218	/* TX frames > MAX_FL, good CRC */
#define RMON_T_FRAG		0x21c	/* TX frames < 64 B, bad CRC */
#define RMON_T_JAB		0x220	/* TX frames > MAX_FL, bad CRC */
#define RMON_T_COL		0x224	/* TX collisions */
#define RMON_T_P64		0x228	/* TX 64-B frames */
#define RMON_T_P65TO127		0x22c	/* TX 65..127-B frames */
#define RMON_T_P128TO255	0x230	/* TX 128..255-B frames */
#define RMON_T_P256TO511	0x234	/* TX 256..511-B frames */
#define RMON_T_P512TO1023	0x238	/* TX 512..1023-B frames */
#define RMON_T_P1024TO2047	0x23c	/* TX 1024..2047-B frames */
#define RMON_T_P_GTE2048	0x240	/* TX frames >= 2048 B */
#define RMON_T_OCTETS		0x244	/* TX octets */
#define IEEE_T_DROP		0x248	/* TX frames dropped */
#define IEEE_T_FRAME_OK		0x24c	/* TX frames sent OK */
#define IEEE_T_1COL		0x250	/* TX frames after one collision */
#define IEEE_T_MCOL		0x254	/* TX frames after >1 collisions */
#define IEEE_T_DEF		0x258	/* TX frames deferred */
#define IEEE_T_LCOL		0x25c	/* TX frames with late collision */
#define IEEE_T_EXCOL		0x260	/* TX frames, excessive collisions */
#define IEEE_T_MACERR		0x264	/* TX frames with FIFO underrun */
#define IEEE_T_CSERR		0x268	/* TX frames with carrier error */
#define IEEE_T_SQE		0x26c	/* TX frames with SQE error */
#define IEEE_T_FDXFC		0x270	/* TX pause frames */
#define IEEE_T_OCTETS_OK	0x274	/* TX octets of good frames */
#define RMON_R_PACKETS		0x284	/* RX frames */
#define RMON_R_BC_PKT		0x288	/* RX broadcast frames */
#define RMON_R_MC_PKT		0x28c	/* RX multicast frames */
#define RMON_R_CRC_ALIGN	0x290	/* RX frames with CRC/align error */
#define RMON_R_UNDERSIZE	0x294	/* RX frames < 64 B, good CRC */
#define RMON_R_OVERSIZE		0x298	/* RX frames > MAX_FL, good CRC */
#define RMON_R_FRAG		0x29c	/* RX frames < 64 B, bad CRC */
#define RMON_R_JAB		0x2a0	/* RX frames > MAX_FL, bad CRC */
#define RMON_R_P64		0x2a8	/* RX 64-B frames */
#define RMON_R_P65TO127		0x2ac	/* RX 65..127-B frames */
#define RMON_R_P128TO255	0x2b0	/* RX 128..255-B frames */
#define RMON_R_P256TO511	0x2b4	/* RX 256..511-B frames */
#define RMON_R_P512TO1023	0x2b8	/* RX 512..1023-B frames */
#define RMON_R_P1024TO2047	0x2bc	/* RX 1024..2047-B frames */
#define RMON_R_P_GTE2048	0x2c0	/* RX frames >= 2048 B */
#define RMON_R_OCTETS		0x2c4	/* RX octets */
#define IEEE_R_DROP		0x2c8	/* RX frames dropped */
#define IEEE_R_FRAME_OK		0x2cc	/* RX frames received OK */
#define IEEE_R_CRC		0x2d0	/* RX frames with CRC error */
#define IEEE_R_ALIGN		0x2d4	/* RX frames with alignment error */
#define IEEE_R_MACERR		0x2d8	/* RX FIFO overflow count */
#define IEEE_R_FDXFC		0x2dc	/* RX pause frames */
#define IEEE_R_OCTETS_OK	0x2e0	/* RX octets of good frames */

/* Number of MIB counters exported through ethtool -S (fec_main.c table). */
#define FEC_MIB_STATS_LEN	53

/******************************************************************************
 * Buffer descriptors (little-endian layout: ARM with ECR.DBSWP set)
 *****************************************************************************/

/* Legacy 8-byte descriptor. */
struct fec_bufdesc {
	__le16 cbd_datlen;	/* RX: bytes written; TX: bytes to send */
	__le16 cbd_sc;		/* status and control (BD_ENET_*, BD_SC_WRAP) */
	__le32 cbd_bufaddr;	/* buffer device address */
};

/* Enhanced 32-byte descriptor (ECR.EN1588), used on the i.MX6Q. */
struct fec_bufdesc_ex {
	struct fec_bufdesc bd;	/* cbd_datlen, cbd_sc, cbd_bufaddr */
	__le32 cbd_esc;		/* enhanced status/control */
	__le32 cbd_prot;	/* RX: protocol and checksum information */
	__le32 cbd_bdu;		/* bit 31: MAC finished updating this BD */
	__le32 ts;		/* 1588 timestamp */
	__le32 res0[2];		/* reserved, keep zero */
};

/* cbd_sc bits shared by RX and TX */
#define BD_SC_WRAP		0x2000	/* last descriptor of the ring */

/* RX cbd_sc */
#define BD_ENET_RX_EMPTY	0x8000	/* E: owned by the MAC */
#define BD_ENET_RX_RO1		0x4000	/* software use */
#define BD_ENET_RX_WRAP		BD_SC_WRAP
#define BD_ENET_RX_INTR		0x1000	/* RO2, software use */
#define BD_ENET_RX_LAST		0x0800	/* L: last buffer of the frame */
#define BD_ENET_RX_FIRST	0x0400	/* first buffer of the frame */
#define BD_ENET_RX_MISS		0x0100	/* M: promiscuous miss */
#define BD_ENET_RX_BC		0x0080	/* broadcast destination */
#define BD_ENET_RX_MC		0x0040	/* multicast destination */
#define BD_ENET_RX_LG		0x0020	/* frame longer than MAX_FL */
#define BD_ENET_RX_NO		0x0010	/* non-octet aligned frame */
#define BD_ENET_RX_SH		0x0008	/* short frame */
#define BD_ENET_RX_CR		0x0004	/* CRC error */
#define BD_ENET_RX_OV		0x0002	/* FIFO overrun */
#define BD_ENET_RX_CL		0x0001	/* collision, frame truncated */
#define BD_ENET_RX_STATS	0x013f	/* every status bit the MAC reports */

/*
 * Bits that make a received frame unusable. L is part of the set because
 * the driver flips it first: a frame that is not the last buffer is an
 * error (the ring never chains buffers, MRBR covers a whole frame).
 */
#define BD_ENET_RX_ERRORS	(BD_ENET_RX_LG | BD_ENET_RX_SH | \
				 BD_ENET_RX_NO | BD_ENET_RX_CR | \
				 BD_ENET_RX_OV | BD_ENET_RX_LAST | \
				 BD_ENET_RX_CL)

/* RX cbd_esc */
#define BD_ENET_RX_INT		0x00800000	/* RXF/RXB interrupt for it */
#define BD_ENET_RX_ICE		0x00000020	/* IP header checksum error */
#define BD_ENET_RX_PCR		0x00000010	/* protocol checksum error */
#define BD_ENET_RX_VLAN		0x00000004	/* 802.1Q tagged frame */
#define BD_ENET_RX_CSUM_ERR	(BD_ENET_RX_ICE | BD_ENET_RX_PCR)

/* TX cbd_sc */
#define BD_ENET_TX_READY	0x8000	/* R: owned by the MAC */
#define BD_ENET_TX_PAD		0x4000	/* TO1, software use */
#define BD_ENET_TX_WRAP		BD_SC_WRAP
#define BD_ENET_TX_INTR		0x1000	/* TO2, software use */
#define BD_ENET_TX_LAST		0x0800	/* L: last buffer of the frame */
#define BD_ENET_TX_TC		0x0400	/* append the CRC */
#define BD_ENET_TX_DEF		0x0200	/* deferred */
#define BD_ENET_TX_HB		0x0100	/* heartbeat error */
#define BD_ENET_TX_LC		0x0080	/* late collision */
#define BD_ENET_TX_RL		0x0040	/* retransmission limit */
#define BD_ENET_TX_RCMASK	0x003c	/* retry count */
#define BD_ENET_TX_UN		0x0002	/* FIFO underrun */
#define BD_ENET_TX_CSL		0x0001	/* carrier sense lost */
#define BD_ENET_TX_ERRORS	(BD_ENET_TX_HB | BD_ENET_TX_LC | \
				 BD_ENET_TX_RL | BD_ENET_TX_UN | \
				 BD_ENET_TX_CSL)

/* TX cbd_esc */
#define BD_ENET_TX_INT		0x40000000	/* TXF/TXB interrupt for it */
#define BD_ENET_TX_TS		0x20000000	/* take a timestamp */
#define BD_ENET_TX_PINS		0x10000000	/* insert protocol checksum */
#define BD_ENET_TX_IINS		0x08000000	/* insert IP header checksum */

/******************************************************************************
 * Sizes and defaults (Linux v5.4, docs/sources.md §2.1)
 *****************************************************************************/

#define FEC_ENET_RX_FRSIZE	2048	/* bytes per RX buffer */
#define FEC_ENET_TX_FRSIZE	2048	/* bytes per TX bounce buffer */

#define FEC_RX_RING_DEFAULT	512	/* RX descriptors (v5.4: fixed) */
#define FEC_TX_RING_DEFAULT	512	/* TX descriptors (v5.4: fixed) */
#define FEC_RX_RING_MIN		16	/* fecsim sweep limits */
#define FEC_TX_RING_MIN		16
#define FEC_RING_MAX		4096

/* DMA alignment masks on ARM: 16-byte buffers. */
#define FEC_RX_ALIGN		0xf
#define FEC_TX_ALIGN		0xf

/* Frames up to this many bytes (BD length minus FCS) are copied. */
#define COPYBREAK_DEFAULT	256

/* v5.4 frame limits: MAX_FL/FTRL and MRBR. */
#define PKT_MAXBUF_SIZE		1522	/* bytes, with VLAN tag and FCS */
#define PKT_MAXBLR_SIZE		1536	/* bytes, multiple of 16 */

/*
 * TX flow control. v5.4 stops the queue while the ring has room for less
 * than one worst-case TSO skb: 2 descriptors per segment plus one per
 * fragment, with MAX_SKB_FRAGS = 17 for 4 KiB pages.
 */
#define FEC_MAX_TSO_SEGS	100
#define FEC_MAX_SKB_FRAGS	17
#define FEC_MAX_SKB_DESCS	(FEC_MAX_TSO_SEGS * 2 + FEC_MAX_SKB_FRAGS)

/* Link speeds accepted by the link_speed parameter (Mbit/s). */
#define FEC_SPEED_10		10
#define FEC_SPEED_100		100
#define FEC_SPEED_1000		1000

/* Bit in work_rx/work_tx for the single ring pair. */
#define FEC_WORK_Q0		0

/* csum_flags */
#define FEC_CSUM_RX		BIT(0)	/* trust the MAC's RX checksum check */

/******************************************************************************
 * Driver state
 *****************************************************************************/

/*
 * One descriptor ring. Descriptors are walked by address: the ring uses
 * enhanced descriptors on the i.MX6Q but keeps dsize so that the legacy
 * layout could be used unchanged.
 */
struct fec_bd_ring {
	struct fec_bufdesc *base;	/* first descriptor (uncached) */
	struct fec_bufdesc *last;	/* last descriptor, carries W */
	struct fec_bufdesc *cur;	/* next descriptor the CPU handles */
	void __iomem *reg_active;	/* RDAR or TDAR */
	dma_addr_t dma;			/* device address of base */
	unsigned int ring_size;		/* descriptors, power of two */
	unsigned int dsize;		/* bytes per descriptor */
	unsigned int dsize_log2;
};

struct fec_rx_queue {
	struct fec_bd_ring bd;
	struct sk_buff **rx_skbuff;	/* mapped buffer of each descriptor */
};

struct fec_tx_queue {
	struct fec_bd_ring bd;
	struct fec_bufdesc *dirty_tx;	/* last descriptor reclaimed */
	struct sk_buff **tx_skbuff;	/* skb of each in-flight frame */
	void **tx_bounce;		/* FEC_ENET_TX_FRSIZE each */
	unsigned int tx_min_free;	/* drop a frame below this many free */
	unsigned int tx_stop_threshold;	/* stop at <= this many free */
	unsigned int tx_wake_threshold;	/* wake at >= this many free */
};

struct fec_enet_private {
	void __iomem *hwp;		/* register base */
	struct platform_device *pdev;	/* device for DMA and devm */
	struct net_device *netdev;
	struct napi_struct napi;

	struct fec_rx_queue *rxq;
	struct fec_tx_queue *txq;

	/* events seen by the ISR, consumed by NAPI (bit FEC_WORK_Q0) */
	unsigned long work_rx;
	unsigned long work_tx;

	unsigned int rx_copybreak;	/* bytes, ETHTOOL_RX_COPYBREAK */
	unsigned int rx_align;		/* RX buffer alignment mask */
	unsigned int tx_align;		/* TX buffer alignment mask */
	unsigned int csum_flags;	/* FEC_CSUM_* */
	bool bufdesc_ex;		/* enhanced descriptors in use */

	int irq;
	int link;			/* fixed link: up while open */
	int speed;			/* Mbit/s */
	bool full_duplex;

	/* one coherent block: RX ring, then TX ring */
	void *bd_cpu;
	dma_addr_t bd_dma;
	size_t bd_bytes;

	/* VLAN-tagged frames passed up with the tag in band */
	unsigned long rx_vlan_inband;

	/* last values read from the MIB, kept across close */
	u64 ethtool_stats[FEC_MIB_STATS_LEN];
};

#endif /* FECSIM_FEC_H */
