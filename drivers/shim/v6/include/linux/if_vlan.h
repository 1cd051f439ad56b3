/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IF_VLAN_H
#define _LINUX_IF_VLAN_H
#include <linux/etherdevice.h>
#define VLAN_HLEN 4
#define VLAN_ETH_HLEN 18
#define VLAN_VID_MASK 0x0fff
struct vlan_hdr {
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};
struct vlan_ethhdr {
	unsigned char h_dest[ETH_ALEN];
	unsigned char h_source[ETH_ALEN];
	__be16 h_vlan_proto;
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
} __attribute__((packed));
static inline struct vlan_ethhdr *skb_vlan_eth_hdr(const struct sk_buff *skb) { return (struct vlan_ethhdr *)skb->data; }
static inline bool skb_vlan_tag_present(const struct sk_buff *skb) { return skb->vlan_present; }
static inline void __vlan_hwaccel_put_tag(struct sk_buff *skb, __be16 proto, u16 tci)
{
	skb->vlan_proto = proto;
	skb->vlan_tci = tci;
	skb->vlan_present = 1;
}
#endif
