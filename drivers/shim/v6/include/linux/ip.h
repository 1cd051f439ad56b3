/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IP_H
#define _LINUX_IP_H
#include <linux/skbuff.h>
#include <linux/in.h>
struct iphdr {
	u8 ihl:4, version:4;
	u8 tos;
	__be16 tot_len;
	__be16 id;
	__be16 frag_off;
	u8 ttl;
	u8 protocol;
	__sum16 check;
	__be32 saddr;
	__be32 daddr;
};
static inline struct iphdr *ip_hdr(const struct sk_buff *skb) { return (struct iphdr *)skb_network_header(skb); }
#endif
