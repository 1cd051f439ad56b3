/* SPDX-License-Identifier: GPL-2.0 */
/* Software TSO helpers (the kernel's net/core/tso.c, include/net/tso.h),
 * carried out by drivers/shim/v6/tso.c for IPv4 TCP GSO skbs. */
#ifndef _NET_TSO_H
#define _NET_TSO_H
#include <linux/skbuff.h>
#include <net/ip.h>
#define TSO_HEADER_SIZE 256
struct tso_t {
	int next_frag_idx;
	int size;
	void *data;
	u16 ip_id;
	u8 tlen;
	bool ipv6;
	u32 tcp_seq;
};
int tso_count_descs(const struct sk_buff *skb);
void tso_build_hdr(const struct sk_buff *skb, char *hdr, struct tso_t *tso, int size, bool is_last);
void tso_build_data(const struct sk_buff *skb, struct tso_t *tso, int size);
int tso_start(struct sk_buff *skb, struct tso_t *tso);
#endif
