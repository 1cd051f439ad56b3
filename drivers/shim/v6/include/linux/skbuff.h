/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket buffers at the 6.x API level. The data buffer and its
 * skb_shared_info live in simulated memory. struct skb_shared_info is laid
 * out so that its size, SKB_DATA_ALIGN'ed, is 256 bytes as on 32-bit ARM
 * (a fragment names its page by physical address, 32 bits as there), so
 * that size-derived constants of the driver (fec's FEC_ENET_RX_FRSIZE =
 * 3584) are the board's.
 */
#ifndef _LINUX_SKBUFF_H
#define _LINUX_SKBUFF_H
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <linux/time.h>
#include <linux/dma-mapping.h>
#include <linux/netdev_features.h>
#include <asm/byteorder.h>
#include <linux/refcount.h>

#define CHECKSUM_NONE 0
#define CHECKSUM_UNNECESSARY 1
#define CHECKSUM_COMPLETE 2
#define CHECKSUM_PARTIAL 3
#define MAX_SKB_FRAGS 17
#define NET_SKB_PAD 32
#define NET_IP_ALIGN 2
#define SKB_DATA_ALIGN(x) (((x) + (SMP_CACHE_BYTES - 1)) & ~(SMP_CACHE_BYTES - 1))
/* What an skb of an X-byte buffer charges its socket (truesize). */
#define SKB_TRUESIZE(X) ((X) + SKB_DATA_ALIGN(sizeof(struct sk_buff)) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
#define PACKET_HOST 0
#define PACKET_BROADCAST 1
#define PACKET_MULTICAST 2
#define PACKET_OTHERHOST 3

/* A fragment: the page by physical address, so that the array is ARM32-sized. */
typedef struct skb_frag {
	u32 page_pa;
	u32 len;
	u32 offset;
} skb_frag_t;

struct skb_shared_hwtstamps {
	ktime_t hwtstamp;
};

enum { SKBTX_HW_TSTAMP = 1 << 0, SKBTX_SW_TSTAMP = 1 << 1, SKBTX_IN_PROGRESS = 1 << 2 };

struct skb_shared_info {
	u8 flags;
	u8 meta_len;
	u8 nr_frags;
	u8 tx_flags;
	unsigned short gso_size;
	unsigned short gso_segs;
	unsigned int gso_type;
	u32 tskey;
	atomic_t dataref;
	unsigned int xdp_frags_size;
	struct sk_buff *frag_list;
	struct skb_shared_hwtstamps hwtstamps;
	skb_frag_t frags[MAX_SKB_FRAGS];
};

struct net_device;
struct sock;

struct sk_buff {
	struct sk_buff *next, *prev;
	struct net_device *dev;
	struct sock *sk;
	ktime_t tstamp;
	char cb[48] __aligned(8);
	unsigned int len, data_len;
	u16 mac_len, hdr_len;
	u16 queue_mapping;
	u8 ip_summed:2, cloned:1, pp_recycle:1, vlan_present:1, head_frag:1;
	u8 pkt_type;
	__be16 protocol;
	__be16 vlan_proto;
	u16 vlan_tci;
	u16 csum_start, csum_offset;
	u16 transport_header, network_header, mac_header;
	u32 priority;
	unsigned int truesize;
	unsigned char *head, *data;
	unsigned int tail, end;	/* offsets from head */
	refcount_t users;
};

static inline struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
{
	return (struct skb_shared_info *)(skb->head + skb->end);
}
static inline unsigned char *skb_tail_pointer(const struct sk_buff *skb) { return skb->head + skb->tail; }
static inline unsigned int skb_headlen(const struct sk_buff *skb) { return skb->len - skb->data_len; }
static inline bool skb_is_nonlinear(const struct sk_buff *skb) { return skb->data_len; }
static inline void *skb_put(struct sk_buff *skb, unsigned int len)
{
	void *t = skb_tail_pointer(skb);
	skb->tail += len;
	skb->len += len;
	if (skb->tail > skb->end)
		BUG();
	return t;
}
static inline void *__skb_put(struct sk_buff *skb, unsigned int len) { return skb_put(skb, len); }
static inline void *skb_pull(struct sk_buff *skb, unsigned int len)
{
	if (len > skb->len)
		return NULL;
	skb->len -= len;
	return skb->data += len;
}
static inline void *skb_pull_inline(struct sk_buff *skb, unsigned int len) { return skb_pull(skb, len); }
static inline void *skb_push(struct sk_buff *skb, unsigned int len)
{
	skb->data -= len;
	skb->len += len;
	return skb->data;
}
static inline void skb_reserve(struct sk_buff *skb, int len)
{
	skb->data += len;
	skb->tail += len;
}
static inline unsigned int skb_headroom(const struct sk_buff *skb) { return skb->data - skb->head; }
static inline int skb_tailroom(const struct sk_buff *skb) { return skb->end - skb->tail; }
static inline void skb_reset_mac_header(struct sk_buff *skb) { skb->mac_header = skb->data - skb->head; }
static inline void skb_reset_network_header(struct sk_buff *skb) { skb->network_header = skb->data - skb->head; }
static inline unsigned char *skb_mac_header(const struct sk_buff *skb) { return skb->head + skb->mac_header; }
static inline unsigned char *skb_network_header(const struct sk_buff *skb) { return skb->head + skb->network_header; }
static inline unsigned char *skb_transport_header(const struct sk_buff *skb) { return skb->head + skb->transport_header; }
static inline int skb_transport_offset(const struct sk_buff *skb) { return skb_transport_header(skb) - skb->data; }
static inline int skb_network_offset(const struct sk_buff *skb) { return skb_network_header(skb) - skb->data; }
static inline u32 skb_network_header_len(const struct sk_buff *skb) { return skb->transport_header - skb->network_header; }
static inline bool skb_is_gso(const struct sk_buff *skb) { return skb_shinfo(skb)->gso_size; }
enum { SKB_GSO_TCPV4 = 1 << 0, SKB_GSO_UDP = 1 << 1, SKB_GSO_TCPV6 = 1 << 4 };
static inline bool skb_is_gso_tcp(const struct sk_buff *skb)
{
	return skb_is_gso(skb) && (skb_shinfo(skb)->gso_type & (SKB_GSO_TCPV4 | SKB_GSO_TCPV6));
}
static inline void skb_checksum_none_assert(const struct sk_buff *skb) { (void)skb; }
static inline u16 skb_get_queue_mapping(const struct sk_buff *skb) { return skb->queue_mapping; }
static inline void skb_set_queue_mapping(struct sk_buff *skb, u16 q) { skb->queue_mapping = q; }
static inline void skb_record_rx_queue(struct sk_buff *skb, u16 q) { skb->queue_mapping = q + 1; }
static inline struct skb_shared_hwtstamps *skb_hwtstamps(struct sk_buff *skb) { return &skb_shinfo(skb)->hwtstamps; }
static inline void skb_tx_timestamp(struct sk_buff *skb) { (void)skb; }
void skb_tstamp_tx(struct sk_buff *skb, struct skb_shared_hwtstamps *hwtstamps);
static inline void skb_mark_for_recycle(struct sk_buff *skb) { skb->pp_recycle = 1; }
static inline unsigned int skb_frag_size(const skb_frag_t *f) { return f->len; }
void *simhost_va(u64 pa);
static inline void *skb_frag_address(const skb_frag_t *f) { return (char *)simhost_va(f->page_pa) + f->offset; }
static inline unsigned int skb_frag_off(const skb_frag_t *f) { return f->offset; }
static inline int skb_cow_head(struct sk_buff *skb, unsigned int headroom)
{
	/* Never cloned in the shim: the header is the skb's own. */
	return skb->cloned ? -ENOMEM : 0;
}
static inline int skb_linearize(struct sk_buff *skb) { return skb_is_nonlinear(skb) ? -ENOMEM : 0; }

struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int len, gfp_t gfp);
static inline struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int len)
{
	return __netdev_alloc_skb(dev, len, GFP_ATOMIC);
}
struct sk_buff *build_skb(void *data, unsigned int frag_size);
struct sk_buff *napi_build_skb(void *data, unsigned int frag_size);
void kfree_skb(struct sk_buff *skb);
void consume_skb(struct sk_buff *skb);
void dev_kfree_skb_any(struct sk_buff *skb);
#define dev_kfree_skb(skb) consume_skb(skb)
#define dev_consume_skb_any(skb) dev_kfree_skb_any(skb)
void napi_consume_skb(struct sk_buff *skb, int budget);
static inline void skb_copy_to_linear_data(struct sk_buff *skb, const void *from, unsigned int len)
{
	memcpy(skb->data, from, len);
}
#endif
