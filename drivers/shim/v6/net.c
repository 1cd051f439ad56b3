// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/net.c: network devices, NAPI, socket buffers, page pools
 * and XDP queue info at the shim's 6.x level. The stack above the driver is
 * a counting sink for now: napi_gro_receive counts the frame and frees it
 * (its page goes back to its pool), as a receiver that drops everything.
 * NAPI runs in the NET_RX softirq of the RX interrupt core
 * (fecsim_v6_net_rx_action), with the netdev budget of 64 per poll.
 */
#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include "../simhost.h"
#include "fecsim_v6.h"

struct fecsim_v6_net_stats fecsim_v6_net;

/* The sizes that set a driver's buffer layout are 32-bit ARM's: a page less
 * XDP headroom and the aligned shared info leaves fec's 3584-byte RX frame. */
_Static_assert(PAGE_SIZE == 4096 && L1_CACHE_BYTES == 32, "ARM32 page and cache line");
_Static_assert(PAGE_SIZE - XDP_PACKET_HEADROOM - SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) == 3584,
	       "skb_shared_info sized as on 32-bit ARM (fec: FEC_ENET_RX_FRSIZE = 3584)");

/* ------------------------------------------------------------ net_device */

static struct net_device *g_ndev;

struct net_device *alloc_etherdev_mqs(int sizeof_priv, unsigned int txqs, unsigned int rxqs)
{
	struct net_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return NULL;
	dev->priv = kzalloc(ALIGN(sizeof_priv, 32), GFP_KERNEL);
	dev->_tx = kcalloc(txqs, sizeof(*dev->_tx), GFP_KERNEL);
	if (!dev->priv || !dev->_tx) {
		kfree(dev->priv);
		kfree(dev->_tx);
		kfree(dev);
		return NULL;
	}
	for (unsigned int i = 0; i < txqs; i++) {
		dev->_tx[i].dev = dev;
		spin_lock_init(&dev->_tx[i]._xmit_lock);
	}
	strscpy(dev->name, "eth%d", IFNAMSIZ);
	dev->num_tx_queues = dev->real_num_tx_queues = txqs;
	dev->num_rx_queues = dev->real_num_rx_queues = rxqs;
	dev->mtu = ETH_DATA_LEN;
	dev->min_mtu = ETH_ZLEN;
	dev->max_mtu = ETH_DATA_LEN;
	dev->addr_len = ETH_ALEN;
	dev->dev_addr = dev->addr_storage;
	dev->flags = IFF_BROADCAST | IFF_MULTICAST;
	dev->mc.list.next = dev->mc.list.prev = &dev->mc.list;
	dev->uc.list.next = dev->uc.list.prev = &dev->uc.list;
	dev->present = 1;
	memset(dev->broadcast, 0xff, ETH_ALEN);
	return dev;
}

void free_netdev(struct net_device *dev)
{
	if (!dev)
		return;
	if (dev->reg_state == NETREG_REGISTERED)
		simhost_stop("free_netdev of %s, which is still registered", dev->name);
	kfree(dev->_tx);
	kfree(dev->priv);
	kfree(dev);
}

int register_netdev(struct net_device *dev)
{
	if (g_ndev)
		return -EEXIST;
	for (const char *c = dev->name; *c; c++)
		if (*c == '%') {
			snprintf(dev->name, IFNAMSIZ, "eth0");	/* "eth%d": the board's only interface */
			break;
		}
	if (dev->netdev_ops && dev->netdev_ops->ndo_init && dev->netdev_ops->ndo_init(dev))
		return -EIO;
	dev->reg_state = NETREG_REGISTERED;
	dev->dev.init_name = dev->name;	/* the interface's device is named after it */
	g_ndev = dev;
	return 0;
}

void unregister_netdev(struct net_device *dev)
{
	if (dev->up && dev->netdev_ops->ndo_stop)
		dev->netdev_ops->ndo_stop(dev);
	dev->up = 0;
	dev->reg_state = NETREG_UNREGISTERED;
	if (g_ndev == dev)
		g_ndev = NULL;
}

struct net_device *shim_netdev_v6(void) { return g_ndev; }

/* dev_open: ndo_open with the RTNL held, then the device is up. */
int shim_dev_open_v6(struct net_device *dev)
{
	int ret;
	rtnl_lock();
	ret = dev->netdev_ops->ndo_open ? dev->netdev_ops->ndo_open(dev) : 0;
	if (!ret) {
		dev->up = 1;
		dev->flags |= IFF_UP;
		if (dev->netdev_ops->ndo_set_rx_mode)
			dev->netdev_ops->ndo_set_rx_mode(dev);
	}
	rtnl_unlock();
	return ret;
}

void netif_carrier_on(struct net_device *dev)
{
	if (!dev->carrier)
		fecsim_v6_net.carrier_changes++;
	dev->carrier = 1;
}

void netif_carrier_off(struct net_device *dev)
{
	if (dev->carrier)
		fecsim_v6_net.carrier_changes++;
	dev->carrier = 0;
}

void netif_tx_lock_bh(struct net_device *dev)
{
	local_bh_disable();
	for (unsigned int i = 0; i < dev->num_tx_queues; i++)
		__netif_tx_lock(netdev_get_tx_queue(dev, i), 0);
}

void netif_tx_unlock_bh(struct net_device *dev)
{
	for (unsigned int i = dev->num_tx_queues; i-- > 0;)
		__netif_tx_unlock(netdev_get_tx_queue(dev, i));
	local_bh_enable();
}

u16 netdev_pick_tx(struct net_device *dev, struct sk_buff *skb, struct net_device *sb_dev)
{
	(void)sb_dev;
	return skb->queue_mapping < dev->real_num_tx_queues ? skb->queue_mapping : 0;
}

int eth_validate_addr(struct net_device *dev)
{
	return is_valid_ether_addr(dev->dev_addr) ? 0 : -EADDRNOTAVAIL;
}

/* Deterministic "random" bytes: the same for every run of a scenario. */
void get_random_bytes(void *buf, size_t n)
{
	static u32 x = 0x2545F491u;
	u8 *b = buf;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (u8)x;
	}
}

void eth_hw_addr_random(struct net_device *dev)
{
	u8 addr[ETH_ALEN];
	get_random_bytes(addr, ETH_ALEN);
	addr[0] &= 0xfe;	/* unicast */
	addr[0] |= 0x02;	/* locally administered */
	eth_hw_addr_set(dev, addr);
}

__be16 eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	const struct ethhdr *eth = (const struct ethhdr *)skb->data;
	skb->dev = dev;
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb_reset_network_header(skb);
	return eth->h_proto;
}

u32 crc32_le(u32 crc, const unsigned char *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
	}
	return crc;
}

/* ------------------------------------------------------------ ethtool helpers */

u32 ethtool_op_get_link(struct net_device *dev) { return netif_carrier_ok(dev); }

int ethtool_op_get_ts_info(struct net_device *dev, FECSIM_ETHTOOL_TS_INFO *info)
{
	(void)dev;
	info->so_timestamping = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	info->phc_index = -1;
	return 0;
}

void ethtool_puts(u8 **data, const char *str)
{
	strscpy((char *)*data, str, ETH_GSTRING_LEN);
	memset(*data + strlen((char *)*data), 0, ETH_GSTRING_LEN - strlen((char *)*data));
	*data += ETH_GSTRING_LEN;
}

/* ------------------------------------------------------------ NAPI */

static struct napi_struct *g_poll_list;

void netif_napi_add_weight(struct net_device *dev, struct napi_struct *napi,
			   int (*poll)(struct napi_struct *, int), int weight)
{
	napi->dev = dev;
	napi->poll = poll;
	napi->weight = weight;
	napi->next = NULL;
	napi->state = BIT(NAPI_STATE_SCHED);	/* disabled until napi_enable, as in the kernel */
}

void netif_napi_del(struct napi_struct *napi) { napi->poll = NULL; }

void napi_enable(struct napi_struct *n) { n->state = 0; }

void napi_disable(struct napi_struct *n)
{
	/* Polls run in the softirq, never concurrently with this caller. */
	for (struct napi_struct **p = &g_poll_list; *p; p = &(*p)->next)
		if (*p == n) {
			*p = n->next;
			break;
		}
	n->state = BIT(NAPI_STATE_SCHED) | BIT(NAPI_STATE_DISABLE);
}

bool napi_schedule_prep(struct napi_struct *n)
{
	if (n->state & (BIT(NAPI_STATE_SCHED) | BIT(NAPI_STATE_DISABLE)))
		return false;
	n->state |= BIT(NAPI_STATE_SCHED);
	return true;
}

void __napi_schedule(struct napi_struct *n)
{
	struct napi_struct **p = &g_poll_list;
	while (*p)
		p = &(*p)->next;
	n->next = NULL;
	*p = n;
	simhost_raise_net_rx();
}

bool napi_complete_done(struct napi_struct *n, int work_done)
{
	(void)work_done;
	fecsim_v6_net.napi_complete++;
	n->state &= ~BIT(NAPI_STATE_SCHED);
	return true;
}

/* NET_RX softirq: each scheduled NAPI instance polls once with its weight;
 * one that used its whole budget stays scheduled and is polled again. */
void fecsim_v6_net_rx_action(void)
{
	struct napi_struct *list = g_poll_list;
	g_poll_list = NULL;
	while (list) {
		struct napi_struct *n = list;
		int done;
		list = n->next;
		n->next = NULL;
		fecsim_v6_net.napi_polls++;
		done = n->poll(n, n->weight);
		if (done >= n->weight && (n->state & BIT(NAPI_STATE_SCHED)) && !(n->state & BIT(NAPI_STATE_DISABLE)))
			__napi_schedule(n);
	}
}

/* ------------------------------------------------------------ pages and page pools */

/* Page descriptors by page address: hashed on (pa >> PAGE_SHIFT) % size. */
#define PAGE_TABLE_SIZE 4096
struct page_link {
	struct page page;
	struct page_link *next;
};
static struct page_link *g_page_hash[PAGE_TABLE_SIZE];

static unsigned int page_slot(u64 pa) { return (unsigned int)(pa >> PAGE_SHIFT) % PAGE_TABLE_SIZE; }

void *page_address(const struct page *page) { return page->virt; }

struct page *virt_to_page(const void *addr)
{
	u64 pa = simhost_pa(addr) & ~(u64)(PAGE_SIZE - 1);
	for (struct page_link *l = g_page_hash[page_slot(pa)]; l; l = l->next)
		if (l->page.pa == pa)
			return &l->page;
	simhost_stop("virt_to_page(%p): not a page the shim handed out", addr);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page_link *l;
	void *v;
	if (order)
		simhost_stop("alloc_pages of order %u: the shim hands out single pages", order);
	v = simhost_kalloc(PAGE_SIZE, PAGE_SIZE, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
	l = kzalloc(sizeof(*l), GFP_ATOMIC);
	if (!v || !l)
		return NULL;
	if (gfp & __GFP_ZERO)
		memset(v, 0, PAGE_SIZE);
	l->page.virt = v;
	l->page.pa = simhost_pa(v);
	l->next = g_page_hash[page_slot(l->page.pa)];
	g_page_hash[page_slot(l->page.pa)] = l;
	atomic_set(&l->page.refcount, 1);
	return &l->page;
}

void __free_pages(struct page *page, unsigned int order)
{
	struct page_link **p = &g_page_hash[page_slot(page->pa)];
	(void)order;
	for (; *p; p = &(*p)->next)
		if (&(*p)->page == page) {
			struct page_link *l = *p;
			*p = l->next;
			simhost_kfree(page->virt, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
			kfree(l);
			return;
		}
	simhost_stop("__free_pages of a page the shim did not hand out");
}

struct page_pool {
	struct page_pool_params p;
	struct page *free[1024];	/* recycled pages, LIFO */
	unsigned int nfree;
	unsigned int outstanding;	/* pages handed out and not returned */
};

struct page_pool *page_pool_create(const struct page_pool_params *params)
{
	struct page_pool *pool;
	if (params->order)
		return ERR_PTR(-EINVAL);
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	pool->p = *params;
	return pool;
}

struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp)
{
	struct page *page;
	if (pool->nfree) {
		page = pool->free[--pool->nfree];
	} else {
		page = alloc_pages(gfp, 0);
		if (!page)
			return NULL;
		page->pp = pool;
		if (pool->p.flags & PP_FLAG_DMA_MAP) {
			page->dma_addr = dma_map_single(pool->p.dev, page->virt, PAGE_SIZE, pool->p.dma_dir);
			if (dma_mapping_error(pool->p.dev, page->dma_addr)) {
				__free_pages(page, 0);
				return NULL;
			}
		}
	}
	pool->outstanding++;
	return page;
}

/* Back to the pool: synced for the device over dma_sync_size bytes from the
 * pool's offset (-1: max_len) when the pool does the device syncs. */
void page_pool_put_unrefed_page(struct page_pool *pool, struct page *page, unsigned int dma_sync_size,
				bool allow_direct)
{
	(void)allow_direct;
	if (page->pp != pool)
		simhost_stop("page_pool_put_page of a page of another pool");
	if ((pool->p.flags & PP_FLAG_DMA_SYNC_DEV) && dma_sync_size) {
		unsigned int n = dma_sync_size < pool->p.max_len ? dma_sync_size : pool->p.max_len;
		dma_sync_single_for_device(pool->p.dev, page->dma_addr + pool->p.offset, n, pool->p.dma_dir);
	}
	if (!pool->outstanding)
		simhost_stop("page_pool_put_page: more pages returned than handed out");
	pool->outstanding--;
	if (pool->nfree < ARRAY_SIZE(pool->free)) {
		pool->free[pool->nfree++] = page;
		return;
	}
	if (pool->p.flags & PP_FLAG_DMA_MAP)
		dma_unmap_single(pool->p.dev, page->dma_addr, PAGE_SIZE, pool->p.dma_dir);
	__free_pages(page, 0);
}

void page_pool_destroy(struct page_pool *pool)
{
	if (!pool)
		return;
	while (pool->nfree) {
		struct page *page = pool->free[--pool->nfree];
		if (pool->p.flags & PP_FLAG_DMA_MAP)
			dma_unmap_single(pool->p.dev, page->dma_addr, PAGE_SIZE, pool->p.dma_dir);
		__free_pages(page, 0);
	}
	kfree(pool);
}

/* ------------------------------------------------------------ XDP queue info */

int xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev, u32 queue_index, unsigned int napi_id)
{
	xdp_rxq->dev = dev;
	xdp_rxq->queue_index = queue_index;
	xdp_rxq->napi_id = napi_id;
	xdp_rxq->reg_state = 1;
	return 0;
}

int xdp_rxq_info_reg_mem_model(struct xdp_rxq_info *xdp_rxq, enum xdp_mem_type type, void *allocator)
{
	(void)allocator;
	if (!xdp_rxq->reg_state)
		return -EINVAL;
	xdp_rxq->mem.type = type;
	return 0;
}

void xdp_rxq_info_unreg(struct xdp_rxq_info *xdp_rxq) { xdp_rxq->reg_state = 0; }
bool xdp_rxq_info_is_reg(struct xdp_rxq_info *xdp_rxq) { return xdp_rxq->reg_state == 1; }

void xdp_features_set_redirect_target(struct net_device *dev, bool support_sg)
{
	(void)support_sg;
	dev->xdp_features |= NETDEV_XDP_ACT_NDO_XMIT;
}

void xdp_features_clear_redirect_target(struct net_device *dev) { dev->xdp_features &= ~NETDEV_XDP_ACT_NDO_XMIT; }

/* ------------------------------------------------------------ socket buffers */

struct sk_buff *build_skb(void *data, unsigned int frag_size)
{
	struct sk_buff *skb = simhost_kalloc(sizeof(*skb), 8, SIMHOST_MEM_SKB, __builtin_return_address(0));
	unsigned int size;
	if (!skb)
		return NULL;
	memset(skb, 0, sizeof(*skb));
	size = frag_size - SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	skb->head = skb->data = data;
	skb->tail = 0;
	skb->end = size;
	skb->truesize = frag_size + sizeof(*skb);
	memset(skb_shinfo(skb), 0, sizeof(struct skb_shared_info));
	atomic_set(&skb->users.refs, 1);
	fecsim_v6_net.skb_alloc++;
	return skb;
}

struct sk_buff *napi_build_skb(void *data, unsigned int frag_size) { return build_skb(data, frag_size); }

struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int len, gfp_t gfp)
{
	unsigned int size = SKB_DATA_ALIGN(len + NET_SKB_PAD) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	void *data = simhost_kalloc(size, SMP_CACHE_BYTES, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
	struct sk_buff *skb;
	(void)gfp;
	if (!data)
		return NULL;
	skb = build_skb(data, size);
	if (!skb) {
		simhost_kfree(data, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
		return NULL;
	}
	skb->dev = dev;
	skb_reserve(skb, NET_SKB_PAD);
	return skb;
}

static void skb_release(struct sk_buff *skb)
{
	shim_v6_tx_skb_free(skb);	/* a transmitted skb: its counters and page fragments */
	if (skb->pp_recycle) {
		struct page *page = virt_to_page(skb->head);
		page_pool_put_full_page(page->pp, page, false);
	} else {
		simhost_kfree(skb->head, SIMHOST_MEM_SKB_DATA, __builtin_return_address(0));
	}
	simhost_kfree(skb, SIMHOST_MEM_SKB, __builtin_return_address(0));
	fecsim_v6_net.skb_free++;
}

void kfree_skb(struct sk_buff *skb)
{
	if (skb)
		skb_release(skb);
}

void consume_skb(struct sk_buff *skb) { kfree_skb(skb); }
void dev_kfree_skb_any(struct sk_buff *skb) { kfree_skb(skb); }
void napi_consume_skb(struct sk_buff *skb, int budget)
{
	(void)budget;
	kfree_skb(skb);
}

/* The stack above the driver: a sink that counts and frees. */
gro_result_t napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb)
{
	(void)napi;
	fecsim_v6_net.rx_frames++;
	fecsim_v6_net.rx_bytes += skb->len;
	kfree_skb(skb);
	return GRO_NORMAL;
}

int netif_receive_skb(struct sk_buff *skb)
{
	napi_gro_receive(NULL, skb);
	return 0;
}
