/* SPDX-License-Identifier: GPL-2.0 */
/* Ethernet devices: addresses, eth_type_trans. */
#ifndef _LINUX_ETHERDEVICE_H
#define _LINUX_ETHERDEVICE_H
#include <linux/netdevice.h>
#include <linux/if_ether.h>
#include <linux/random.h>
static inline bool is_zero_ether_addr(const u8 *a) { return !(a[0] | a[1] | a[2] | a[3] | a[4] | a[5]); }
static inline bool is_multicast_ether_addr(const u8 *a) { return a[0] & 1; }
static inline bool is_valid_ether_addr(const u8 *a) { return !is_multicast_ether_addr(a) && !is_zero_ether_addr(a); }
static inline void ether_addr_copy(u8 *d, const u8 *s) { memcpy(d, s, ETH_ALEN); }
static inline bool is_broadcast_ether_addr(const u8 *a) { return (a[0] & a[1] & a[2] & a[3] & a[4] & a[5]) == 0xff; }
/* As the kernel with CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS (ARMv7): one
 * 32-bit and one 16-bit compare. */
static inline bool ether_addr_equal(const u8 *a, const u8 *b)
{
	u32 fold = ((*(const u32 *)a) ^ (*(const u32 *)b)) | ((*(const u16 *)(a + 4)) ^ (*(const u16 *)(b + 4)));
	return fold == 0;
}
static inline void eth_hw_addr_gen(struct net_device *dev, const u8 *base, unsigned int id)
{
	u8 addr[ETH_ALEN];
	memcpy(addr, base, ETH_ALEN);
	addr[ETH_ALEN - 1] += id;
	eth_hw_addr_set(dev, addr);
}
void eth_hw_addr_random(struct net_device *dev);
__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev);
int eth_validate_addr(struct net_device *dev);
static inline bool eth_type_vlan(__be16 t) { return t == htons(ETH_P_8021Q) || t == htons(ETH_P_8021AD); }
static inline struct ethhdr *eth_hdr(const struct sk_buff *skb) { return (struct ethhdr *)skb_mac_header(skb); }
#endif
