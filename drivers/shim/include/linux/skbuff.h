/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket buffers. sk_buff structs and their data live in cached simulated
 * memory, so every field the driver touches costs an L1 access. Data buffers
 * come from a page-fragment allocator in SMP_CACHE_BYTES (64-B) units with
 * NET_SKB_PAD headroom, as on 32-bit ARM (docs/sources.md §2.1).
 */
#ifndef _LINUX_SKBUFF_H
#define _LINUX_SKBUFF_H
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#define NET_SKB_PAD 64
#define NET_IP_ALIGN 2
#define CHECKSUM_NONE 0
#define CHECKSUM_UNNECESSARY 1
#define CHECKSUM_COMPLETE 2
#define CHECKSUM_PARTIAL 3
#define SKB_DATA_ALIGN(x) ALIGN((x), SMP_CACHE_BYTES)

struct net_device;

struct skb_shared_info {
	u8 nr_frags;
	u8 tx_flags;
	unsigned short gso_size;
	unsigned short gso_segs;
	unsigned int gso_type;
	u32 pad[12];
};

/* skb->pkt_type (uapi linux/if_packet.h) */
#define PACKET_HOST 0
#define PACKET_BROADCAST 1
#define PACKET_MULTICAST 2
#define PACKET_OTHERHOST 3

struct sk_buff {
	struct sk_buff *next;
	struct sk_buff *prev;
	struct net_device *dev;
	unsigned int len;
	unsigned int data_len;
	u16 queue_mapping;
	__be16 protocol;
	u8 ip_summed;
	u8 pkt_type;		/* PACKET_HOST, PACKET_BROADCAST, PACKET_MULTICAST, PACKET_OTHERHOST */
	u16 vlan_tci;
	u32 priority;
	u32 hash;
	unsigned char *head;
	unsigned char *data;
	unsigned char *tail;
	unsigned char *end;
	unsigned int truesize;
	char cb[48] __aligned(8);	/* the kernel aligns it too: drivers store u64 there */
};

static inline struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
{
	return (struct skb_shared_info *)skb->end;
}
static inline unsigned char *skb_tail_pointer(const struct sk_buff *skb) { return skb->tail; }
static inline unsigned int skb_headroom(const struct sk_buff *skb) { return skb->data - skb->head; }
static inline int skb_tailroom(const struct sk_buff *skb) { return skb->end - skb->tail; }
static inline unsigned int skb_headlen(const struct sk_buff *skb) { return skb->len - skb->data_len; }
static inline int skb_is_gso(const struct sk_buff *skb) { return skb_shinfo(skb)->gso_size != 0; }
static inline int skb_is_nonlinear(const struct sk_buff *skb) { return skb->data_len != 0; }
static inline void skb_reserve(struct sk_buff *skb, int len) { skb->data += len; skb->tail += len; }
static inline void *skb_put(struct sk_buff *skb, unsigned int len)
{
	unsigned char *t = skb->tail;

	skb->tail += len;
	skb->len += len;
	if (unlikely(skb->tail > skb->end))
		simhost_stop("skb_put: over the end of the buffer (len %u)", len);
	return t;
}
static inline void *skb_push(struct sk_buff *skb, unsigned int len)
{
	skb->data -= len;
	skb->len += len;
	if (unlikely(skb->data < skb->head))
		simhost_stop("skb_push: under the head of the buffer (len %u)", len);
	return skb->data;
}
static inline void *skb_pull(struct sk_buff *skb, unsigned int len)
{
	if (unlikely(len > skb->len))
		return NULL;
	skb->len -= len;
	skb->data += len;
	return skb->data;
}
static inline void skb_record_rx_queue(struct sk_buff *skb, u16 q) { skb->queue_mapping = q + 1; }
static inline void skb_checksum_none_assert(const struct sk_buff *skb) { (void)skb; }
static inline void skb_tx_timestamp(struct sk_buff *skb) { (void)skb; }
static inline int skb_linearize(struct sk_buff *skb) { (void)skb; return 0; }
static inline void skb_copy_to_linear_data(struct sk_buff *skb, const void *from, unsigned int len)
{
	memcpy(skb->data, from, len);
}

struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int length);
struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int length, gfp_t gfp);
struct sk_buff *netdev_alloc_skb_ip_align(struct net_device *dev, unsigned int length);
struct napi_struct;
struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int length);
void kfree_skb(struct sk_buff *skb);
void consume_skb(struct sk_buff *skb);
void dev_kfree_skb_any(struct sk_buff *skb);
void dev_consume_skb_any(struct sk_buff *skb);
#define dev_kfree_skb(skb) consume_skb(skb)
#define dev_kfree_skb_irq(skb) dev_kfree_skb_any(skb)
#endif
