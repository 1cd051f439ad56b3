// SPDX-License-Identifier: GPL-2.0
/*
 * fec_main.c: fecsim's driver for the NXP i.MX6Q ENET ("FEC") Ethernet MAC.
 *
 * This driver was written from scratch for fecsim against the Linux kernel
 * API (the subset declared in drivers/shim/include). It contains no code
 * from Linux's drivers/net/ethernet/freescale/fec_main.c. What it does
 * reproduce is the structure and the per-frame behaviour of that driver's
 * RX and TX paths as of Linux v5.4 on an i.MX6Q, because fecsim replays a
 * measurement made with it (docs/sources.md §0 and 2):
 *
 *  - one RX and one TX ring of enhanced 32-byte descriptors in one coherent
 *    (uncached) block, 512 entries each by default;
 *  - RX with copybreak: frames up to rx_copybreak bytes are copied into a
 *    new skb after a dma_sync_single_for_cpu() of the whole 2033-byte
 *    buffer, which is then given back with a dma_sync_single_for_device()
 *    of 2033 bytes; larger frames are passed up in their own buffer, which
 *    is unmapped and replaced by a newly mapped one;
 *  - per frame: RXF acknowledged in EIR, wmb() before the descriptor is
 *    handed back, RDAR written;
 *  - the v5.4 interrupt scheme: the ISR clears EIR, records RX/TX work,
 *    masks RX/TX (EIMR = MII only) and schedules NAPI; one NAPI pass does
 *    RX then TX reclaim and unmasks if it did less than its budget;
 *  - TX of linear skbs with a bounce buffer for misaligned data, the v5.4
 *    stop/wake thresholds and the ERR006358 TDAR workaround.
 *
 * Deliberately omitted: PHY and MDIO management (the link is fixed: up
 * while the interface is open, full duplex, at link_speed), PTP/1588
 * timestamping (EN1588 is set only because enhanced descriptors need it),
 * multi-queue/AVB, TSO and scatter-gather, TX checksum offload, VLAN tag
 * stripping (tagged frames go up with the tag in band), pause-frame
 * negotiation (pause is off), XDP, TX timeout recovery, power management,
 * extra unicast addresses (the individual hash stays empty) and MTU changes.
 */

#include <linux/bitops.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/errno.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/prefetch.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fec.h"

#define DRIVER_NAME	"fec"

/*
 * Ring sizes. The v5.4 driver has fixed 512-entry rings; these two
 * parameters are fecsim knobs for ring-size sweeps and default to the
 * v5.4 values.
 */
static unsigned int rx_ring_size = FEC_RX_RING_DEFAULT;
module_param(rx_ring_size, uint, 0444);
MODULE_PARM_DESC(rx_ring_size,
		 "RX descriptors, power of two in [16, 4096] (default 512)");

static unsigned int tx_ring_size = FEC_TX_RING_DEFAULT;
module_param(tx_ring_size, uint, 0444);
MODULE_PARM_DESC(tx_ring_size,
		 "TX descriptors, power of two in [16, 4096] (default 512)");

/*
 * Speed of the fixed link, standing in for what a PHY would have
 * negotiated (there is no PHY management here). fecsim knob.
 */
static unsigned int link_speed = FEC_SPEED_1000;
module_param(link_speed, uint, 0444);
MODULE_PARM_DESC(link_speed, "fixed link speed in Mbit/s: 10, 100 or 1000");

/******************************************************************************
 * Descriptor rings
 *****************************************************************************/

static inline struct fec_bufdesc *fec_bd_next(const struct fec_bd_ring *ring,
					      struct fec_bufdesc *bdp)
{
	if (bdp >= ring->last)
		return ring->base;
	return (struct fec_bufdesc *)((u8 *)bdp + ring->dsize);
}

static inline unsigned int fec_bd_index(const struct fec_bd_ring *ring,
					const struct fec_bufdesc *bdp)
{
	return ((const u8 *)bdp - (const u8 *)ring->base) >> ring->dsize_log2;
}

static inline struct fec_bufdesc *fec_bd_at(const struct fec_bd_ring *ring,
					    unsigned int index)
{
	return (struct fec_bufdesc *)((u8 *)ring->base +
				      (index << ring->dsize_log2));
}

static inline struct fec_bufdesc_ex *fec_bd_ex(struct fec_bufdesc *bdp)
{
	return container_of(bdp, struct fec_bufdesc_ex, bd);
}

/* Bytes mapped per RX buffer: 2048 - 15 = 2033 on ARM (docs/sources.md §2.1). */
static inline unsigned int fec_rx_map_len(const struct fec_enet_private *fep)
{
	return FEC_ENET_RX_FRSIZE - fep->rx_align;
}

/*
 * Free TX descriptors, counted as v5.4 counts them: dirty_tx is the last
 * reclaimed descriptor and one slot always stays unused, so an idle ring
 * reports ring_size - 2.
 */
static unsigned int fec_txq_free(const struct fec_tx_queue *txq)
{
	unsigned int dirty = fec_bd_index(&txq->bd, txq->dirty_tx);
	unsigned int cur = fec_bd_index(&txq->bd, txq->bd.cur);

	return (dirty - cur - 1) & (txq->bd.ring_size - 1);
}

/*
 * Map an RX buffer into a descriptor. The data pointer is first moved to
 * the rx_align boundary (a no-op for the 64-byte aligned page-fragment
 * buffers netdev_alloc_skb() returns on ARM).
 */
static int fec_enet_new_rxbdp(struct net_device *ndev, struct fec_bufdesc *bdp,
			      struct sk_buff *skb)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct device *dev = &fep->pdev->dev;
	unsigned long misalign;
	dma_addr_t addr;

	misalign = (unsigned long)skb->data & fep->rx_align;
	if (misalign)
		skb_reserve(skb, fep->rx_align + 1 - misalign);

	addr = dma_map_single(dev, skb->data, fec_rx_map_len(fep),
			      DMA_FROM_DEVICE);
	bdp->cbd_bufaddr = cpu_to_le32(addr);

	/* v5.4 checks the address as read back from the descriptor. */
	if (dma_mapping_error(dev, le32_to_cpu(bdp->cbd_bufaddr))) {
		if (net_ratelimit())
			netdev_err(ndev, "RX buffer DMA mapping failed\n");
		return -ENOMEM;
	}
	return 0;
}

/* Put both rings in their just-opened state (part of fec_restart()). */
static void fec_enet_bd_reset(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct device *dev = &fep->pdev->dev;
	struct fec_rx_queue *rxq = fep->rxq;
	struct fec_tx_queue *txq = fep->txq;
	struct fec_bufdesc *bdp;
	unsigned int i;

	for (i = 0; i < rxq->bd.ring_size; i++) {
		bdp = fec_bd_at(&rxq->bd, i);
		/* only descriptors that own a buffer go to the MAC */
		bdp->cbd_sc = bdp->cbd_bufaddr ?
			      cpu_to_le16(BD_ENET_RX_EMPTY) : 0;
		if (fep->bufdesc_ex) {
			fec_bd_ex(bdp)->cbd_esc = cpu_to_le32(BD_ENET_RX_INT);
			fec_bd_ex(bdp)->cbd_prot = 0;
			fec_bd_ex(bdp)->cbd_bdu = 0;
		}
	}
	rxq->bd.last->cbd_sc |= cpu_to_le16(BD_SC_WRAP);
	rxq->bd.cur = rxq->bd.base;

	for (i = 0; i < txq->bd.ring_size; i++) {
		bdp = fec_bd_at(&txq->bd, i);
		bdp->cbd_sc = 0;
		if (txq->tx_skbuff[i]) {
			dma_unmap_single(dev, le32_to_cpu(bdp->cbd_bufaddr),
					 le16_to_cpu(bdp->cbd_datlen),
					 DMA_TO_DEVICE);
			dev_kfree_skb_any(txq->tx_skbuff[i]);
			txq->tx_skbuff[i] = NULL;
		}
		bdp->cbd_bufaddr = 0;
		if (fep->bufdesc_ex)
			fec_bd_ex(bdp)->cbd_bdu = 0;
	}
	txq->bd.last->cbd_sc |= cpu_to_le16(BD_SC_WRAP);
	txq->bd.cur = txq->bd.base;
	txq->dirty_tx = txq->bd.last;
}

static void fec_enet_free_buffers(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct device *dev = &fep->pdev->dev;
	struct fec_rx_queue *rxq = fep->rxq;
	struct fec_tx_queue *txq = fep->txq;
	struct fec_bufdesc *bdp;
	unsigned int i;

	for (i = 0; i < rxq->bd.ring_size; i++) {
		bdp = fec_bd_at(&rxq->bd, i);
		/* no longer the MAC's; fec_enet_bd_reset() skips it too */
		bdp->cbd_sc = bdp == rxq->bd.last ?
			      cpu_to_le16(BD_SC_WRAP) : 0;
		if (rxq->rx_skbuff[i]) {
			dma_unmap_single(dev, le32_to_cpu(bdp->cbd_bufaddr),
					 fec_rx_map_len(fep), DMA_FROM_DEVICE);
			dev_kfree_skb(rxq->rx_skbuff[i]);
			rxq->rx_skbuff[i] = NULL;
		}
		bdp->cbd_bufaddr = 0;
	}

	for (i = 0; i < txq->bd.ring_size; i++) {
		bdp = fec_bd_at(&txq->bd, i);
		if (txq->tx_skbuff[i]) {
			dma_unmap_single(dev, le32_to_cpu(bdp->cbd_bufaddr),
					 le16_to_cpu(bdp->cbd_datlen),
					 DMA_TO_DEVICE);
			dev_kfree_skb(txq->tx_skbuff[i]);
			txq->tx_skbuff[i] = NULL;
		}
		bdp->cbd_bufaddr = 0;
		kfree(txq->tx_bounce[i]);
		txq->tx_bounce[i] = NULL;
	}
}

/*
 * Give every RX descriptor a mapped 2048-byte skb and mark it empty; give
 * every TX descriptor its bounce buffer and leave it idle.
 */
static int fec_enet_alloc_buffers(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct fec_rx_queue *rxq = fep->rxq;
	struct fec_tx_queue *txq = fep->txq;
	struct fec_bufdesc *bdp;
	struct sk_buff *skb;
	unsigned int i;

	for (i = 0; i < rxq->bd.ring_size; i++) {
		bdp = fec_bd_at(&rxq->bd, i);
		skb = netdev_alloc_skb(ndev, FEC_ENET_RX_FRSIZE);
		if (!skb)
			goto err;
		if (fec_enet_new_rxbdp(ndev, bdp, skb)) {
			dev_kfree_skb(skb);
			goto err;
		}
		rxq->rx_skbuff[i] = skb;
		if (fep->bufdesc_ex)
			fec_bd_ex(bdp)->cbd_esc = cpu_to_le32(BD_ENET_RX_INT);
		bdp->cbd_sc = cpu_to_le16(BD_ENET_RX_EMPTY);
	}
	rxq->bd.last->cbd_sc |= cpu_to_le16(BD_SC_WRAP);

	for (i = 0; i < txq->bd.ring_size; i++) {
		bdp = fec_bd_at(&txq->bd, i);
		txq->tx_bounce[i] = kmalloc(FEC_ENET_TX_FRSIZE, GFP_KERNEL);
		if (!txq->tx_bounce[i])
			goto err;
		bdp->cbd_sc = 0;
		bdp->cbd_bufaddr = 0;
		if (fep->bufdesc_ex)
			fec_bd_ex(bdp)->cbd_esc = cpu_to_le32(BD_ENET_TX_INT);
	}
	txq->bd.last->cbd_sc |= cpu_to_le16(BD_SC_WRAP);

	return 0;

err:
	fec_enet_free_buffers(ndev);
	return -ENOMEM;
}

/******************************************************************************
 * MAC programming
 *****************************************************************************/

/*
 * ndo_set_rx_mode: promiscuous mode, or the 64-bit group hash (GAUR:GALR)
 * of the device's multicast list; each address sets the bit numbered by
 * the top 6 bits of its little-endian CRC-32 (without final inversion).
 * IFF_ALLMULTI opens the whole hash.
 */
static void fec_set_multicast_list(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct netdev_hw_addr *ha;
	u32 rcr = readl(fep->hwp + FEC_RCR);
	u32 hash_hi = 0, hash_lo = 0;

	if (ndev->flags & IFF_PROMISC) {
		writel(rcr | FEC_RCR_PROM, fep->hwp + FEC_RCR);
		return;
	}
	writel(rcr & ~FEC_RCR_PROM, fep->hwp + FEC_RCR);

	if (ndev->flags & IFF_ALLMULTI) {
		hash_hi = 0xffffffff;
		hash_lo = 0xffffffff;
	} else {
		netdev_for_each_mc_addr(ha, ndev) {
			unsigned int bit = ether_crc_le(ndev->addr_len, ha->addr) >> 26;

			if (bit >= 32)
				hash_hi |= BIT(bit - 32);
			else
				hash_lo |= BIT(bit);
		}
	}
	writel(hash_hi, fep->hwp + FEC_GAUR);
	writel(hash_lo, fep->hwp + FEC_GALR);
}

/*
 * Reset the MAC and program it for the fixed link, in the order v5.4's
 * fec_restart() uses on an i.MX6Q: reset, address, events, rings, duplex,
 * RX accelerator, RCR, hash filters, TX watermark, MIB, enable, RDAR, mask.
 */
static void fec_restart(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	const u8 *mac = ndev->dev_addr;
	u32 ecr = FEC_ECR_ETHEREN;
	u32 rcr, racc;

	/* i.MX6Q (no AVB) resets rather than just disables */
	writel(FEC_ECR_RESET, fep->hwp + FEC_ECR);
	udelay(10);

	writel((u32)mac[0] << 24 | (u32)mac[1] << 16 | (u32)mac[2] << 8 |
	       mac[3], fep->hwp + FEC_PALR);
	writel((u32)mac[4] << 24 | (u32)mac[5] << 16 | FEC_PAUR_TYPE,
	       fep->hwp + FEC_PAUR);

	/* nothing latched before the reset may fire once unmasked */
	writel(0xffffffff, fep->hwp + FEC_EIR);

	fec_enet_bd_reset(ndev);
	writel(fep->rxq->bd.dma, fep->hwp + FEC_RDSR);
	writel(PKT_MAXBLR_SIZE, fep->hwp + FEC_MRBR);
	writel(fep->txq->bd.dma, fep->hwp + FEC_TDSR);

	rcr = FEC_RCR_MAX_FL(PKT_MAXBUF_SIZE) | FEC_RCR_MII_MODE;
	if (fep->full_duplex) {
		writel(FEC_TCR_FDEN, fep->hwp + FEC_TCR);
	} else {
		rcr |= FEC_RCR_DRT;
		writel(0, fep->hwp + FEC_TCR);
	}

	/* SHIFT16 puts the IP header on a 4-byte boundary in the buffer */
	racc = readl(fep->hwp + FEC_RACC) | FEC_RACC_SHIFT16;
	if (fep->csum_flags & FEC_CSUM_RX)
		racc |= FEC_RACC_CSUM;
	else
		racc &= ~FEC_RACC_CSUM;
	writel(racc, fep->hwp + FEC_RACC);
	writel(PKT_MAXBUF_SIZE, fep->hwp + FEC_FTRL);

	/* RGMII; the speed bits stand in for the PHY's result */
	rcr |= FEC_RCR_NLC | FEC_RCR_RGMII_EN;
	if (fep->speed == FEC_SPEED_1000)
		ecr |= FEC_ECR_SPEED;
	else if (fep->speed == FEC_SPEED_10)
		rcr |= FEC_RCR_RMII_10T;
	/* pause off: FCE clear, FIFO thresholds and OPD left at reset */
	writel(rcr, fep->hwp + FEC_RCR);

	/* the multicast list survives a restart; no extra unicast addresses */
	fec_set_multicast_list(ndev);
	writel(0, fep->hwp + FEC_IAUR);
	writel(0, fep->hwp + FEC_IALR);

	/* ENET-MAC: store-and-forward TX, little-endian descriptors */
	writel(FEC_TFWR_STRFWD, fep->hwp + FEC_TFWR);
	ecr |= FEC_ECR_DBSWP;
	if (fep->bufdesc_ex)
		ecr |= FEC_ECR_EN1588;

	writel(0, fep->hwp + FEC_MIBC);
	writel(ecr, fep->hwp + FEC_ECR);
	writel(0, fep->rxq->bd.reg_active);

	writel(fep->link ? FEC_DEFAULT_IMASK : FEC_ENET_MII,
	       fep->hwp + FEC_EIMR);
}

/* Let a frame on the wire finish, then reset the MAC and mask everything. */
static void fec_stop(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);

	if (fep->link) {
		writel(FEC_TCR_GTS, fep->hwp + FEC_TCR);
		udelay(10);
		if (!(readl(fep->hwp + FEC_EIR) & FEC_ENET_GRA))
			netdev_err(ndev, "graceful transmit stop timed out\n");
	}

	writel(FEC_ECR_RESET, fep->hwp + FEC_ECR);
	udelay(10);
	writel(0, fep->hwp + FEC_EIMR);
	writel(0xffffffff, fep->hwp + FEC_EIR);
}

/******************************************************************************
 * Receive
 *****************************************************************************/

/* Account a descriptor with error bits (L already inverted). */
static void fec_enet_rx_error(struct net_device *ndev, u16 sc)
{
	ndev->stats.rx_errors++;

	/* an overrun truncates the frame; the other bits mean nothing */
	if (sc & BD_ENET_RX_OV) {
		ndev->stats.rx_fifo_errors++;
		return;
	}
	if (sc & (BD_ENET_RX_LG | BD_ENET_RX_SH | BD_ENET_RX_LAST)) {
		ndev->stats.rx_length_errors++;
		if ((sc & BD_ENET_RX_LAST) && net_ratelimit())
			netdev_err(ndev, "RX frame is not in one buffer\n");
	}
	if (sc & BD_ENET_RX_CR)
		ndev->stats.rx_crc_errors++;
	if (sc & (BD_ENET_RX_NO | BD_ENET_RX_CL))
		ndev->stats.rx_frame_errors++;
}

/*
 * Copybreak: a short frame is copied into a small new skb and the mapped
 * buffer stays in the ring. length is the BD length without the FCS
 * (including the two SHIFT16 pad bytes). Returns true if *skb now points
 * at the copy.
 */
static bool fec_enet_copybreak(struct net_device *ndev, struct sk_buff **skb,
			       struct fec_bufdesc *bdp, u32 length)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct sk_buff *copy;

	if (length > fep->rx_copybreak)
		return false;

	copy = netdev_alloc_skb(ndev, length);
	if (!copy)
		return false;

	/* the whole mapped buffer, as in v5.4 (docs/sources.md §0, 4.4) */
	dma_sync_single_for_cpu(&fep->pdev->dev,
				le32_to_cpu(bdp->cbd_bufaddr),
				fec_rx_map_len(fep), DMA_FROM_DEVICE);
	memcpy(copy->data, (*skb)->data, length);
	*skb = copy;

	return true;
}

/*
 * Pass one good frame up and leave its descriptor with a buffer the MAC
 * may fill again (docs/sources.md §2.2, steps 4 to 11).
 */
static void fec_enet_rx_frame(struct net_device *ndev,
			      struct fec_rx_queue *rxq, struct fec_bufdesc *bdp)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct fec_bufdesc_ex *ebdp = NULL;
	struct sk_buff *skb_new = NULL;
	struct sk_buff *skb;
	unsigned int index;
	bool copied;
	u16 pkt_len;

	ndev->stats.rx_packets++;

	/* SHIFT16 pad + frame + FCS */
	pkt_len = le16_to_cpu(bdp->cbd_datlen);
	ndev->stats.rx_bytes += pkt_len;

	index = fec_bd_index(&rxq->bd, bdp);
	skb = rxq->rx_skbuff[index];

	copied = fec_enet_copybreak(ndev, &skb, bdp, pkt_len - ETH_FCS_LEN);
	if (!copied) {
		skb_new = netdev_alloc_skb(ndev, FEC_ENET_RX_FRSIZE);
		if (unlikely(!skb_new)) {
			/* the old buffer stays mapped; this frame is lost */
			ndev->stats.rx_dropped++;
			return;
		}
		dma_unmap_single(&fep->pdev->dev,
				 le32_to_cpu(bdp->cbd_bufaddr),
				 fec_rx_map_len(fep), DMA_FROM_DEVICE);
	}

	prefetch(skb->data - NET_IP_ALIGN);
	skb_put(skb, pkt_len - ETH_FCS_LEN);
	skb_pull(skb, 2);	/* RACC.SHIFT16 pad */

	if (fep->bufdesc_ex)
		ebdp = fec_bd_ex(bdp);

	/*
	 * v5.4 pulls a tag the MAC flagged out of the frame and passes it
	 * out of band. The shim has no __vlan_hwaccel_put_tag(), so the
	 * tag stays in band; the descriptor read stays, it is per-frame
	 * cost on the real driver.
	 */
	if (ebdp && (ndev->features & NETIF_F_HW_VLAN_CTAG_RX) &&
	    (ebdp->cbd_esc & cpu_to_le32(BD_ENET_RX_VLAN)))
		fep->rx_vlan_inband++;

	skb->protocol = eth_type_trans(skb, ndev);

	if (ebdp && (fep->csum_flags & FEC_CSUM_RX)) {
		if (ebdp->cbd_esc & cpu_to_le32(BD_ENET_RX_CSUM_ERR))
			skb_checksum_none_assert(skb);
		else
			skb->ip_summed = CHECKSUM_UNNECESSARY;
	}

	skb_record_rx_queue(skb, 0);
	napi_gro_receive(&fep->napi, skb);

	if (copied) {
		/* hand the whole buffer back to the MAC, as v5.4 does */
		dma_sync_single_for_device(&fep->pdev->dev,
					   le32_to_cpu(bdp->cbd_bufaddr),
					   fec_rx_map_len(fep),
					   DMA_FROM_DEVICE);
	} else {
		rxq->rx_skbuff[index] = skb_new;
		fec_enet_new_rxbdp(ndev, bdp, skb_new);
	}
}

/* Return a descriptor to the MAC: empty, wrap kept, enhanced words reset. */
static void fec_enet_rx_rearm(struct fec_enet_private *fep,
			      struct fec_bufdesc *bdp, u16 sc)
{
	if (fep->bufdesc_ex) {
		struct fec_bufdesc_ex *ebdp = fec_bd_ex(bdp);

		ebdp->cbd_esc = cpu_to_le32(BD_ENET_RX_INT);
		ebdp->cbd_prot = 0;
		ebdp->cbd_bdu = 0;
	}

	/* the rest of the descriptor must be visible before E is */
	wmb();
	bdp->cbd_sc = cpu_to_le16((sc & BD_SC_WRAP) | BD_ENET_RX_EMPTY);
}

/* Process up to budget filled descriptors; returns how many were used. */
static int fec_enet_rx_queue(struct net_device *ndev, int budget)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct fec_rx_queue *rxq = fep->rxq;
	struct fec_bufdesc *bdp;
	int received = 0;
	u16 sc;

	bdp = rxq->bd.cur;
	for (;;) {
		/* uncached read; done before the budget test, as in v5.4 */
		sc = le16_to_cpu(bdp->cbd_sc);
		if ((sc & BD_ENET_RX_EMPTY) || received >= budget)
			break;
		received++;

		/* acknowledge RXF frame by frame */
		writel(FEC_ENET_RXF, fep->hwp + FEC_EIR);

		/* flip L so that "not the last buffer" reads as an error */
		sc ^= BD_ENET_RX_LAST;
		if (unlikely(sc & BD_ENET_RX_ERRORS))
			fec_enet_rx_error(ndev, sc);
		else
			fec_enet_rx_frame(ndev, rxq, bdp);

		fec_enet_rx_rearm(fep, bdp, sc);
		bdp = fec_bd_next(&rxq->bd, bdp);

		/* restart the uDMA now, so it keeps filling while we work */
		writel(0, rxq->bd.reg_active);
	}
	rxq->bd.cur = bdp;

	return received;
}

static int fec_enet_rx(struct net_device *ndev, int budget)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	int received;

	/* the ring is only looked at after an RXF event */
	if (!test_bit(FEC_WORK_Q0, &fep->work_rx))
		return 0;

	received = fec_enet_rx_queue(ndev, budget);
	/* drained within the budget: wait for the next RXF */
	if (received < budget)
		clear_bit(FEC_WORK_Q0, &fep->work_rx);

	return received;
}

/******************************************************************************
 * Transmit
 *****************************************************************************/

/* Queue one linear skb on the TX ring; the skb is consumed in every case. */
static void fec_enet_txq_submit_skb(struct fec_tx_queue *txq,
				    struct sk_buff *skb,
				    struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct device *dev = &fep->pdev->dev;
	struct fec_bufdesc *bdp, *next;
	unsigned int index, len;
	dma_addr_t addr;
	void *data;
	u16 sc;

	/* v5.4 wants room for a fully fragmented skb even for linear ones */
	if (fec_txq_free(txq) < txq->tx_min_free) {
		if (net_ratelimit())
			netdev_err(ndev, "TX ring full, frame dropped\n");
		goto drop;
	}

	/* no NETIF_F_SG: fragments only arrive by mistake */
	if (skb_is_nonlinear(skb) && skb_linearize(skb))
		goto drop;
	if (unlikely(skb_headlen(skb) > FEC_ENET_TX_FRSIZE))
		goto drop;

	bdp = txq->bd.cur;
	/* uncached read; only W survives from the previous use */
	sc = le16_to_cpu(bdp->cbd_sc) & BD_SC_WRAP;

	data = skb->data;
	len = skb_headlen(skb);
	index = fec_bd_index(&txq->bd, bdp);

	/* the uDMA needs tx_align-aligned buffers */
	if ((unsigned long)data & fep->tx_align) {
		memcpy(txq->tx_bounce[index], data, len);
		data = txq->tx_bounce[index];
	}

	addr = dma_map_single(dev, data, len, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, addr)) {
		if (net_ratelimit())
			netdev_err(ndev, "TX buffer DMA mapping failed\n");
		goto drop;
	}

	bdp->cbd_bufaddr = cpu_to_le32(addr);
	bdp->cbd_datlen = cpu_to_le16(len);
	if (fep->bufdesc_ex) {
		struct fec_bufdesc_ex *ebdp = fec_bd_ex(bdp);

		ebdp->cbd_bdu = 0;
		ebdp->cbd_esc = cpu_to_le32(BD_ENET_TX_INT);
	}
	txq->tx_skbuff[index] = skb;

	/* descriptor contents before ownership */
	wmb();
	sc |= BD_ENET_TX_READY | BD_ENET_TX_INTR | BD_ENET_TX_LAST |
	      BD_ENET_TX_TC;
	bdp->cbd_sc = cpu_to_le16(sc);

	next = fec_bd_next(&txq->bd, bdp);
	skb_tx_timestamp(skb);

	/* descriptor and tx_skbuff[] before the reclaim path sees bd.cur */
	wmb();
	txq->bd.cur = next;

	writel(0, txq->bd.reg_active);
	return;

drop:
	ndev->stats.tx_dropped++;
	dev_kfree_skb_any(skb);
}

static netdev_tx_t fec_enet_start_xmit(struct sk_buff *skb,
				       struct net_device *ndev)
{
	struct netdev_queue *nq = netdev_get_tx_queue(ndev, 0);
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct fec_tx_queue *txq = fep->txq;

	fec_enet_txq_submit_skb(txq, skb, ndev);

	if (fec_txq_free(txq) <= txq->tx_stop_threshold)
		netif_tx_stop_queue(nq);

	return NETDEV_TX_OK;
}

static void fec_enet_tx_account(struct net_device *ndev, struct sk_buff *skb,
				u16 sc)
{
	if (sc & BD_ENET_TX_ERRORS) {
		ndev->stats.tx_errors++;
		if (sc & BD_ENET_TX_HB)
			ndev->stats.tx_heartbeat_errors++;
		if (sc & BD_ENET_TX_LC)
			ndev->stats.tx_window_errors++;
		if (sc & BD_ENET_TX_RL)
			ndev->stats.tx_aborted_errors++;
		if (sc & BD_ENET_TX_UN)
			ndev->stats.tx_fifo_errors++;
		if (sc & BD_ENET_TX_CSL)
			ndev->stats.tx_carrier_errors++;
	} else {
		ndev->stats.tx_packets++;
		ndev->stats.tx_bytes += skb->len;
	}

	/* deferred, but sent in the end */
	if (sc & BD_ENET_TX_DEF)
		ndev->stats.collisions++;
}

/* Reclaim descriptors the MAC has finished with (docs/sources.md §2.3). */
static void fec_enet_tx_queue(struct net_device *ndev)
{
	struct netdev_queue *nq = netdev_get_tx_queue(ndev, 0);
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct fec_tx_queue *txq = fep->txq;
	struct device *dev = &fep->pdev->dev;
	struct fec_bufdesc *bdp;
	struct sk_buff *skb;
	unsigned int index;
	u16 sc;

	bdp = fec_bd_next(&txq->bd, txq->dirty_tx);
	while (bdp != READ_ONCE(txq->bd.cur)) {
		/* bd.cur is read before the descriptor it covers */
		rmb();
		sc = le16_to_cpu(READ_ONCE(bdp->cbd_sc));
		if (sc & BD_ENET_TX_READY)
			break;

		index = fec_bd_index(&txq->bd, bdp);
		skb = txq->tx_skbuff[index];
		txq->tx_skbuff[index] = NULL;

		dma_unmap_single(dev, le32_to_cpu(bdp->cbd_bufaddr),
				 le16_to_cpu(bdp->cbd_datlen), DMA_TO_DEVICE);
		bdp->cbd_bufaddr = 0;

		if (skb) {
			fec_enet_tx_account(ndev, skb, sc);
			dev_kfree_skb_any(skb);
		}

		/* descriptor and tx_skbuff[] before dirty_tx moves */
		wmb();
		txq->dirty_tx = bdp;
		bdp = fec_bd_next(&txq->bd, bdp);

		if (netif_tx_queue_stopped(nq) &&
		    fec_txq_free(txq) >= txq->tx_wake_threshold)
			netif_tx_wake_queue(nq);
	}

	/*
	 * ERR006358: TDAR may have cleared itself after the uDMA saw a
	 * descriptor that was not ready yet; frames queued since then need
	 * a fresh write.
	 */
	if (bdp != txq->bd.cur && readl(txq->bd.reg_active) == 0)
		writel(0, txq->bd.reg_active);
}

static void fec_enet_tx(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);

	if (test_and_clear_bit(FEC_WORK_Q0, &fep->work_tx))
		fec_enet_tx_queue(ndev);
}

/******************************************************************************
 * Interrupt and NAPI (v5.4 scheme, docs/sources.md §2.4)
 *****************************************************************************/

static irqreturn_t fec_enet_interrupt(int irq __always_unused, void *dev_id)
{
	struct net_device *ndev = dev_id;
	struct fec_enet_private *fep = netdev_priv(ndev);
	irqreturn_t ret = IRQ_NONE;
	u32 events;

	/* acknowledge everything that is pending in one write */
	events = readl(fep->hwp + FEC_EIR);
	writel(events, fep->hwp + FEC_EIR);

	if (events & FEC_ENET_RXF)
		set_bit(FEC_WORK_Q0, &fep->work_rx);
	if (events & FEC_ENET_TXF)
		set_bit(FEC_WORK_Q0, &fep->work_tx);

	if ((fep->work_rx || fep->work_tx) && fep->link) {
		ret = IRQ_HANDLED;
		if (napi_schedule_prep(&fep->napi)) {
			/* RX and TX stay masked until the poll completes */
			writel(FEC_NAPI_IMASK, fep->hwp + FEC_EIMR);
			__napi_schedule(&fep->napi);
		}
	}

	/* MDIO completion: nobody waits for it here */
	if (events & FEC_ENET_MII)
		ret = IRQ_HANDLED;

	return ret;
}

/* One pass: RX, then TX reclaim; unmask only when under budget. */
static int fec_enet_rx_napi(struct napi_struct *napi, int budget)
{
	struct net_device *ndev = napi->dev;
	struct fec_enet_private *fep = netdev_priv(ndev);
	int done;

	done = fec_enet_rx(ndev, budget);
	fec_enet_tx(ndev);

	if (done < budget) {
		napi_complete_done(napi, done);
		writel(FEC_DEFAULT_IMASK, fep->hwp + FEC_EIMR);
	}

	return done;
}

/******************************************************************************
 * ethtool: rx-copybreak tunable and MIB statistics
 *****************************************************************************/

struct fec_mib_stat {
	char name[ETH_GSTRING_LEN];	/* the Linux fec driver's name */
	u16 offset;			/* MIB register */
};

static const struct fec_mib_stat fec_mib_stats[] = {
	/* RMON TX */
	{ "tx_dropped", RMON_T_DROP },
	{ "tx_packets", RMON_T_PACKETS },
	{ "tx_broadcast", RMON_T_BC_PKT },
	{ "tx_multicast", RMON_T_MC_PKT },
	{ "tx_crc_errors", RMON_T_CRC_ALIGN },
	{ "tx_undersize", RMON_T_UNDERSIZE },
	{ "tx_oversize", RMON_T_OVERSIZE },
	{ "tx_fragment", RMON_T_FRAG },
	{ "tx_jabber", RMON_T_JAB },
	{ "tx_collision", RMON_T_COL },
	{ "tx_64byte", RMON_T_P64 },
	{ "tx_65to127byte", RMON_T_P65TO127 },
	{ "tx_128to255byte", RMON_T_P128TO255 },
	{ "tx_256to511byte", RMON_T_P256TO511 },
	{ "tx_512to1023byte", RMON_T_P512TO1023 },
	{ "tx_1024to2047byte", RMON_T_P1024TO2047 },
	{ "tx_GTE2048byte", RMON_T_P_GTE2048 },
	{ "tx_octets", RMON_T_OCTETS },
	/* IEEE TX */
	{ "IEEE_tx_drop", IEEE_T_DROP },
	{ "IEEE_tx_frame_ok", IEEE_T_FRAME_OK },
	{ "IEEE_tx_1col", IEEE_T_1COL },
	{ "IEEE_tx_mcol", IEEE_T_MCOL },
	{ "IEEE_tx_def", IEEE_T_DEF },
	{ "IEEE_tx_lcol", IEEE_T_LCOL },
	{ "IEEE_tx_excol", IEEE_T_EXCOL },
	{ "IEEE_tx_macerr", IEEE_T_MACERR },
	{ "IEEE_tx_cserr", IEEE_T_CSERR },
	{ "IEEE_tx_sqe", IEEE_T_SQE },
	{ "IEEE_tx_fdxfc", IEEE_T_FDXFC },
	{ "IEEE_tx_octets_ok", IEEE_T_OCTETS_OK },
	/* RMON RX */
	{ "rx_packets", RMON_R_PACKETS },
	{ "rx_broadcast", RMON_R_BC_PKT },
	{ "rx_multicast", RMON_R_MC_PKT },
	{ "rx_crc_errors", RMON_R_CRC_ALIGN },
	{ "rx_undersize", RMON_R_UNDERSIZE },
	{ "rx_oversize", RMON_R_OVERSIZE },
	{ "rx_fragment", RMON_R_FRAG },
	{ "rx_jabber", RMON_R_JAB },
	{ "rx_64byte", RMON_R_P64 },
	{ "rx_65to127byte", RMON_R_P65TO127 },
	{ "rx_128to255byte", RMON_R_P128TO255 },
	{ "rx_256to511byte", RMON_R_P256TO511 },
	{ "rx_512to1023byte", RMON_R_P512TO1023 },
	{ "rx_1024to2047byte", RMON_R_P1024TO2047 },
	{ "rx_GTE2048byte", RMON_R_P_GTE2048 },
	{ "rx_octets", RMON_R_OCTETS },
	/* IEEE RX */
	{ "IEEE_rx_drop", IEEE_R_DROP },
	{ "IEEE_rx_frame_ok", IEEE_R_FRAME_OK },
	{ "IEEE_rx_crc", IEEE_R_CRC },
	{ "IEEE_rx_align", IEEE_R_ALIGN },
	{ "IEEE_rx_macerr", IEEE_R_MACERR },
	{ "IEEE_rx_fdxfc", IEEE_R_FDXFC },
	{ "IEEE_rx_octets_ok", IEEE_R_OCTETS_OK },
};

static void fec_enet_update_ethtool_stats(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fec_mib_stats); i++)
		fep->ethtool_stats[i] =
			readl(fep->hwp + fec_mib_stats[i].offset);
}

static void
fec_enet_get_ethtool_stats(struct net_device *ndev,
			   struct ethtool_stats *stats __always_unused,
			   u64 *data)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	unsigned int i;

	/* a stopped MAC was reset: report what was read at close */
	if (netif_running(ndev))
		fec_enet_update_ethtool_stats(ndev);

	for (i = 0; i < ARRAY_SIZE(fec_mib_stats); i++)
		data[i] = fep->ethtool_stats[i];
}

static void fec_enet_get_strings(struct net_device *ndev __always_unused,
				 u32 sset, u8 *data)
{
	unsigned int i;

	if (sset != ETH_SS_STATS)
		return;

	for (i = 0; i < ARRAY_SIZE(fec_mib_stats); i++)
		memcpy(data + i * ETH_GSTRING_LEN, fec_mib_stats[i].name,
		       ETH_GSTRING_LEN);
}

static int fec_enet_get_sset_count(struct net_device *ndev __always_unused,
				   int sset)
{
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;

	return ARRAY_SIZE(fec_mib_stats);
}

static int fec_enet_get_tunable(struct net_device *ndev,
				const struct ethtool_tunable *tuna, void *data)
{
	struct fec_enet_private *fep = netdev_priv(ndev);

	if (tuna->id != ETHTOOL_RX_COPYBREAK)
		return -EINVAL;

	*(u32 *)data = fep->rx_copybreak;
	return 0;
}

static int fec_enet_set_tunable(struct net_device *ndev,
				const struct ethtool_tunable *tuna,
				const void *data)
{
	struct fec_enet_private *fep = netdev_priv(ndev);

	if (tuna->id != ETHTOOL_RX_COPYBREAK)
		return -EINVAL;

	fep->rx_copybreak = *(const u32 *)data;
	return 0;
}

static const struct ethtool_ops fec_enet_ethtool_ops = {
	.get_tunable		= fec_enet_get_tunable,
	.set_tunable		= fec_enet_set_tunable,
	.get_sset_count		= fec_enet_get_sset_count,
	.get_strings		= fec_enet_get_strings,
	.get_ethtool_stats	= fec_enet_get_ethtool_stats,
};

/******************************************************************************
 * Network device operations
 *****************************************************************************/

/*
 * The link is fixed, so the order differs from v5.4 only where v5.4 waits
 * for the PHY: there the interrupts are unmasked by the fec_restart() that
 * follows link-up, after napi_enable(); here the IRQ and NAPI are made
 * ready first and the single fec_restart() unmasks.
 */
static int fec_enet_open(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	int ret;

	ret = fec_enet_alloc_buffers(ndev);
	if (ret)
		return ret;

	ret = request_irq(fep->irq, fec_enet_interrupt, 0, ndev->name, ndev);
	if (ret) {
		netdev_err(ndev, "cannot get IRQ %d: %d\n", fep->irq, ret);
		fec_enet_free_buffers(ndev);
		return ret;
	}

	napi_enable(&fep->napi);
	fep->link = 1;
	fec_restart(ndev);
	netif_carrier_on(ndev);
	netif_start_queue(ndev);

	return 0;
}

static int fec_enet_close(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);

	napi_disable(&fep->napi);
	netif_tx_disable(ndev);
	netif_carrier_off(ndev);

	/* the MIB is read before the reset in fec_stop() */
	fec_enet_update_ethtool_stats(ndev);
	fec_stop(ndev);
	fep->link = 0;

	free_irq(fep->irq, ndev);
	fep->work_rx = 0;
	fep->work_tx = 0;
	fec_enet_free_buffers(ndev);

	return 0;
}

/*
 * ndo_set_mac_address (ip link set eth0 address ...): a new unicast
 * address for the interface; an open one programs PALR/PAUR at once, a
 * closed one at the next fec_restart().
 */
static int fec_set_mac_address(struct net_device *ndev, void *p)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	const struct sockaddr *addr = p;
	const u8 *mac = ndev->dev_addr;

	if (!is_valid_ether_addr((const u8 *)addr->sa_data))
		return -EADDRNOTAVAIL;
	memcpy(ndev->dev_addr, addr->sa_data, ndev->addr_len);
	if (!netif_running(ndev))
		return 0;
	writel((u32)mac[0] << 24 | (u32)mac[1] << 16 | (u32)mac[2] << 8 |
	       mac[3], fep->hwp + FEC_PALR);
	writel((u32)mac[4] << 24 | (u32)mac[5] << 16 | FEC_PAUR_TYPE,
	       fep->hwp + FEC_PAUR);
	return 0;
}

static const struct net_device_ops fec_netdev_ops = {
	.ndo_open		= fec_enet_open,
	.ndo_stop		= fec_enet_close,
	.ndo_start_xmit		= fec_enet_start_xmit,
	.ndo_set_rx_mode	= fec_set_multicast_list,
	.ndo_set_mac_address	= fec_set_mac_address,
};

/******************************************************************************
 * Probe and remove
 *****************************************************************************/

static int fec_check_ring_size(struct device *dev, const char *name,
			       unsigned int size, unsigned int min_size)
{
	if (is_power_of_2(size) && size >= min_size && size <= FEC_RING_MAX)
		return 0;

	dev_err(dev, "%s=%u: must be a power of two in [%u, %u]\n",
		name, size, min_size, FEC_RING_MAX);
	return -EINVAL;
}

static void fec_ring_setup(struct fec_bd_ring *ring, void *cpu,
			   dma_addr_t dma, unsigned int size,
			   unsigned int dsize, void __iomem *reg_active)
{
	ring->base = cpu;
	ring->cur = cpu;
	ring->dma = dma;
	ring->ring_size = size;
	ring->dsize = dsize;
	ring->dsize_log2 = ilog2(dsize);
	ring->last = fec_bd_at(ring, size - 1);
	ring->reg_active = reg_active;
}

/* Queues, rings in one coherent block, and the netdev hooks. */
static int fec_enet_init(struct net_device *ndev)
{
	struct fec_enet_private *fep = netdev_priv(ndev);
	struct device *dev = &fep->pdev->dev;
	struct fec_rx_queue *rxq;
	struct fec_tx_queue *txq;
	unsigned int dsize;
	size_t rx_bytes;

	BUILD_BUG_ON(sizeof(struct fec_bufdesc) != 8);
	BUILD_BUG_ON(sizeof(struct fec_bufdesc_ex) != 32);
	BUILD_BUG_ON(ARRAY_SIZE(fec_mib_stats) != FEC_MIB_STATS_LEN);

	rxq = devm_kzalloc(dev, sizeof(*rxq), GFP_KERNEL);
	txq = devm_kzalloc(dev, sizeof(*txq), GFP_KERNEL);
	if (!rxq || !txq)
		return -ENOMEM;

	rxq->rx_skbuff = devm_kzalloc(dev, rx_ring_size * sizeof(void *),
				      GFP_KERNEL);
	txq->tx_skbuff = devm_kzalloc(dev, tx_ring_size * sizeof(void *),
				      GFP_KERNEL);
	txq->tx_bounce = devm_kzalloc(dev, tx_ring_size * sizeof(void *),
				      GFP_KERNEL);
	if (!rxq->rx_skbuff || !txq->tx_skbuff || !txq->tx_bounce)
		return -ENOMEM;

	dsize = fep->bufdesc_ex ? sizeof(struct fec_bufdesc_ex) :
				  sizeof(struct fec_bufdesc);
	rx_bytes = (size_t)rx_ring_size * dsize;
	fep->bd_bytes = rx_bytes + (size_t)tx_ring_size * dsize;

	/* zeroed, uncached; RX ring first, TX ring right after it */
	fep->bd_cpu = dmam_alloc_coherent(dev, fep->bd_bytes, &fep->bd_dma,
					  GFP_KERNEL);
	if (!fep->bd_cpu)
		return -ENOMEM;

	fec_ring_setup(&rxq->bd, fep->bd_cpu, fep->bd_dma, rx_ring_size,
		       dsize, fep->hwp + FEC_RDAR);
	fec_ring_setup(&txq->bd, (u8 *)fep->bd_cpu + rx_bytes,
		       fep->bd_dma + rx_bytes, tx_ring_size, dsize,
		       fep->hwp + FEC_TDAR);
	txq->dirty_tx = txq->bd.last;

	/*
	 * v5.4 (512 entries): drop below 18 free, stop at 217 free, wake at
	 * (512 - 217) / 2 = 147. fecsim extension for rings too small for
	 * 217: stop at a quarter of the ring, and on rings below 72 entries
	 * also ask for only a quarter of the ring to be free. The stop
	 * threshold is never below tx_min_free, so a running queue always
	 * has room for the next frame.
	 */
	txq->tx_min_free = min_t(unsigned int, FEC_MAX_SKB_FRAGS + 1,
				 tx_ring_size / 4);
	if (tx_ring_size >= 2 * FEC_MAX_SKB_DESCS)
		txq->tx_stop_threshold = FEC_MAX_SKB_DESCS;
	else
		txq->tx_stop_threshold = tx_ring_size / 4;
	txq->tx_wake_threshold = (tx_ring_size - txq->tx_stop_threshold) / 2;

	fep->rxq = rxq;
	fep->txq = txq;

	ndev->netdev_ops = &fec_netdev_ops;
	ndev->ethtool_ops = &fec_enet_ethtool_ops;

	/* i.MX6Q: HAS_VLAN and HAS_CSUM, RX side only here */
	ndev->features |= NETIF_F_HW_VLAN_CTAG_RX | NETIF_F_RXCSUM;
	ndev->hw_features = ndev->features;
	fep->csum_flags |= FEC_CSUM_RX;

	netif_napi_add(ndev, &fep->napi, fec_enet_rx_napi, NAPI_POLL_WEIGHT);

	return 0;
}

static int fec_probe(struct platform_device *pdev)
{
	struct fec_enet_private *fep;
	struct net_device *ndev;
	struct resource *res;
	int irq, ret;

	ret = fec_check_ring_size(&pdev->dev, "rx_ring_size", rx_ring_size,
				  FEC_RX_RING_MIN);
	if (!ret)
		ret = fec_check_ring_size(&pdev->dev, "tx_ring_size",
					  tx_ring_size, FEC_TX_RING_MIN);
	if (ret)
		return ret;

	if (link_speed != FEC_SPEED_10 && link_speed != FEC_SPEED_100 &&
	    link_speed != FEC_SPEED_1000) {
		dev_err(&pdev->dev, "link_speed=%u: must be 10, 100 or 1000\n",
			link_speed);
		return -EINVAL;
	}

	ndev = alloc_etherdev(sizeof(struct fec_enet_private));
	if (!ndev)
		return -ENOMEM;
	SET_NETDEV_DEV(ndev, &pdev->dev);

	fep = netdev_priv(ndev);
	fep->netdev = ndev;
	fep->pdev = pdev;

	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	if (!res) {
		ret = -ENODEV;
		goto err_free_netdev;
	}
	fep->hwp = devm_ioremap_resource(&pdev->dev, res);
	if (IS_ERR(fep->hwp)) {
		ret = PTR_ERR(fep->hwp);
		goto err_free_netdev;
	}

	irq = platform_get_irq(pdev, 0);
	if (irq < 0) {
		ret = irq;
		goto err_free_netdev;
	}
	fep->irq = irq;
	ndev->irq = irq;

	/* i.MX6Q (ENET-MAC) on ARM */
	fep->bufdesc_ex = true;
	fep->rx_align = FEC_RX_ALIGN;
	fep->tx_align = FEC_TX_ALIGN;
	fep->rx_copybreak = COPYBREAK_DEFAULT;
	fep->speed = link_speed;
	fep->full_duplex = true;

	ret = fec_enet_init(ndev);
	if (ret)
		goto err_free_netdev;

	/* no fuses or device tree here */
	eth_hw_addr_random(ndev);

	platform_set_drvdata(pdev, ndev);

	ret = register_netdev(ndev);
	if (ret)
		goto err_napi_del;

	dev_info(&pdev->dev, "rings RX %u TX %u, link %u Mbit/s full duplex\n",
		 rx_ring_size, tx_ring_size, link_speed);
	return 0;

err_napi_del:
	platform_set_drvdata(pdev, NULL);
	netif_napi_del(&fep->napi);
err_free_netdev:
	free_netdev(ndev);
	return ret;
}

static int fec_drv_remove(struct platform_device *pdev)
{
	struct net_device *ndev = platform_get_drvdata(pdev);
	struct fec_enet_private *fep = netdev_priv(ndev);

	unregister_netdev(ndev);
	netif_napi_del(&fep->napi);
	platform_set_drvdata(pdev, NULL);
	free_netdev(ndev);

	return 0;
}

static struct platform_driver fec_driver = {
	.driver = {
		.name = DRIVER_NAME,
	},
	.probe = fec_probe,
	.remove = fec_drv_remove,
};

module_platform_driver(fec_driver);

MODULE_DESCRIPTION("fecsim driver for the i.MX6Q ENET MAC (Linux v5.4 paths)");
MODULE_LICENSE("GPL");
