// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/tso.c: the software TSO helpers of the kernel's
 * net/core/tso.c (API in include/net/tso.h), written for the shim from
 * their documented contract, for IPv4 TCP GSO skbs (and UDP, whose header
 * gets the segment's length). A driver walks a GSO skb segment by segment:
 *
 *   hdr_len = tso_start(skb, &tso);              headers' length; tso.data/size:
 *                                                the first payload piece
 *   for each segment of up to gso_size payload bytes:
 *       tso_build_hdr(skb, hdr, &tso, size, last) the segment's own headers
 *       while payload of the segment remains:
 *           send min(tso.size, left) bytes of tso.data
 *           tso_build_data(skb, &tso, n)          advance (into the next fragment)
 *
 * tso_count_descs is the worst case of descriptors a driver needs: two per
 * segment (header and a payload piece) and one per fragment. Each header and
 * payload piece counts as one descriptor of the skb in the transmit ring
 * counters (drivers/shim/v6/tx.c).
 */
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/tso.h>
#include "fecsim_v6.h"

/* TCP flag bits in byte 13 of the header (RFC 793). */
#define TCP_FLAG_FIN 0x01
#define TCP_FLAG_RST 0x04
#define TCP_FLAG_PSH 0x08

int tso_count_descs(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->gso_segs * 2 + skb_shinfo(skb)->nr_frags;
}

static u32 get_be32(const void *p)
{
	const u8 *b = p;
	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static void set_be32(void *p, u32 v)
{
	u8 *b = p;
	b[0] = (u8)(v >> 24);
	b[1] = (u8)(v >> 16);
	b[2] = (u8)(v >> 8);
	b[3] = (u8)v;
}

/* When the current piece is used up, the next one is the next fragment. */
static void tso_next_piece(const struct sk_buff *skb, struct tso_t *tso)
{
	const struct skb_shared_info *sh = skb_shinfo(skb);
	if (tso->size || tso->next_frag_idx >= sh->nr_frags)
		return;
	tso->size = skb_frag_size(&sh->frags[tso->next_frag_idx]);
	tso->data = skb_frag_address(&sh->frags[tso->next_frag_idx]);
	tso->next_frag_idx++;
}

int tso_start(struct sk_buff *skb, struct tso_t *tso)
{
	const int tcp = skb_is_gso_tcp(skb);
	int tlen = tcp ? (int)tcp_hdrlen(skb) : (int)sizeof(struct udphdr);
	int len = skb_transport_offset(skb) + tlen;

	if (skb->protocol != htons(ETH_P_IP))
		simhost_stop("tso_start: only IPv4 GSO skbs are carried out by the shim (protocol 0x%04x)",
			     ntohs(skb->protocol));
	tso->tlen = (u8)tlen;
	tso->ipv6 = false;
	tso->ip_id = ntohs(ip_hdr(skb)->id);
	tso->tcp_seq = tcp ? get_be32(&tcp_hdr(skb)->seq) : 0;
	tso->next_frag_idx = 0;
	tso->data = skb->data + len;
	tso->size = (int)skb_headlen(skb) - len;
	tso_next_piece(skb, tso);
	return len;
}

void tso_build_hdr(const struct sk_buff *skb, char *hdr, struct tso_t *tso, int size, bool is_last)
{
	const int l3 = skb_network_offset(skb);
	const int l4 = skb_transport_offset(skb);
	struct iphdr *ip = (struct iphdr *)(hdr + l3);

	memcpy(hdr, skb->data, l4 + tso->tlen);
	/* Each segment its own IP identification and length. */
	ip->id = htons(tso->ip_id);
	ip->tot_len = htons((u16)(l4 - l3 + tso->tlen + size));
	tso->ip_id++;
	if (tso->tlen == sizeof(struct udphdr)) {
		struct udphdr *uh = (struct udphdr *)(hdr + l4);
		uh->len = htons((u16)(sizeof(*uh) + size));
	} else {
		struct tcphdr *th = (struct tcphdr *)(hdr + l4);
		set_be32(&th->seq, tso->tcp_seq);
		/* PSH, FIN and RST belong to the last segment only (flags: byte 13). */
		if (!is_last)
			((u8 *)th)[13] &= (u8)~(TCP_FLAG_FIN | TCP_FLAG_RST | TCP_FLAG_PSH);
	}
	shim_v6_tx_count_bd(skb, 1);
}

void tso_build_data(const struct sk_buff *skb, struct tso_t *tso, int size)
{
	tso->tcp_seq += (u32)size;
	tso->data = (char *)tso->data + size;
	tso->size -= size;
	tso_next_piece(skb, tso);
	shim_v6_tx_count_bd(skb, 0);
}
