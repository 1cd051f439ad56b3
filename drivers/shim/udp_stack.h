/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drivers/shim/udp_stack.h: the receive stack above a driver as a cost model
 * (GRO/IP/UDP: a per-frame and per-byte cycle charge plus the header and
 * socket lines really touched), ending in one UDP socket with a
 * receive-buffer limit that the application task reads (recvmsg).
 *
 * One source for both API levels: included by the 5.4 level
 * (drivers/shim/net.c, linked into the program) and by the 6.x level
 * (drivers/shim/v6/net.c, compiled into a kernel tree driver's object), each
 * with its own struct sk_buff. The includer provides:
 *   struct sk_buff     with data, len, truesize, protocol, pkt_type,
 *                      ip_summed, cb[] (at least 9 bytes) and a list node
 *                      first (next, prev);
 *   cfg, st            struct shim_net_config and struct shim_net_stats;
 *   kfree_skb, consume_skb, skb_pull, spin_lock/unlock, the list helpers;
 *   UDP_STACK_NAME(n)  the external name of the socket functions
 *                      (shim_udp_queued / shim_udp_recvmsg at 5.4).
 * Units: cycles of the receiving core (simhost_charge), bytes of skb
 * truesize for the socket's receive memory, ns for the enqueue time.
 */
/* --------------------------------------------------- stack and socket -- */

static struct list_head sock_queue = { &sock_queue, &sock_queue };
static uint64_t sock_rmem;
static unsigned sock_qlen;	/* datagrams in sock_queue */
static spinlock_t sock_lock;

/* Not simulated work, so not instrumented: where recvmsg finds the headers
 * again (bookkeeping the kernel keeps elsewhere), and the UDP checksum check
 * the kernel folds into the copy to user (its reads of the skb head are in
 * the recvmsg charge, the datagram's bytes are those the copy reads). */
#define UDP_STACK_UNCOSTED __attribute__((__no_sanitize_thread__, __no_sanitize_coverage__, __noinline__))

UDP_STACK_UNCOSTED static void udp_note_headers(struct sk_buff *skb, unsigned int ihl)
{
	skb->cb[8] = (char)ihl;
}

/* Whether the datagram may be delivered: the device vouched for its
 * checksum (CHECKSUM_UNNECESSARY) or it is right. */
UDP_STACK_UNCOSTED static int udp_csum_valid(const struct sk_buff *skb)
{
	return skb->ip_summed == CHECKSUM_UNNECESSARY ||
	       simhost_udp4_csum_ok(skb->data - 8 - (unsigned char)skb->cb[8], (size_t)skb->len + 8);
}

/* The UDP receive path as a cost model: the charge stands for GRO, IP and
 * UDP processing; the header bytes and socket queue are really touched. */
static void stack_receive(struct sk_buff *skb)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_STACK);
	const u8 *ip = skb->data;
	unsigned int ihl, dport;

	simhost_charge(cfg.stack_cycles + (uint64_t)skb->len * cfg.stack_byte_millicycles / 1000,
		       SIMHOST_CAT_STACK);
	st.softnet_processed++;
	if (skb->protocol != htons(ETH_P_IP) || skb->len < 28 || (ip[0] >> 4) != 4) {
		/* a frame for another host (ip_rcv_core, arp_rcv): dropped
		 * before any SNMP counter; eth_type_trans emptied it */
		if (skb->pkt_type == PACKET_OTHERHOST)
			st.rx_otherhost++;
		else
			st.ip_in_hdr_errors++;
		goto drop;
	}
	st.ip_in_receives++;
	ihl = (ip[0] & 15) * 4u;
	if (ip[9] != 17 || skb->len < ihl + 8) {
		st.ip_in_hdr_errors++;
		goto drop;
	}
	dport = (unsigned int)ip[ihl + 2] << 8 | ip[ihl + 3];
	if (dport != cfg.udp_port) {
		st.udp_no_ports++;
		goto drop;
	}
	skb_pull(skb, ihl + 8);
	udp_note_headers(skb, ihl);
	spin_lock(&sock_lock);
	if (sock_rmem > cfg.rcvbuf) {
		spin_unlock(&sock_lock);
		st.udp_rcvbuf_errors++;
		st.udp_in_errors++;
		goto drop;
	}
	*(uint64_t *)skb->cb = simhost_time_ns();
	sock_rmem += skb->truesize;
	sock_qlen++;
	list_add_tail((struct list_head *)skb, &sock_queue);
	spin_unlock(&sock_lock);
	simhost_socket_wake();
	simhost_cat_leave(prev);
	return;
drop:
	kfree_skb(skb);
	simhost_cat_leave(prev);
}

int UDP_STACK_NAME(udp_queued)(void)
{
	return (int)sock_qlen;
}

long UDP_STACK_NAME(udp_recvmsg)(void *buf, size_t len, uint64_t *ready_ns)
{
	int prev = simhost_cat_enter(SIMHOST_CAT_STACK);
	struct sk_buff *skb;
	long n;

	for (;;) {
		spin_lock(&sock_lock);
		if (list_empty(&sock_queue)) {
			spin_unlock(&sock_lock);
			simhost_cat_leave(prev);
			return -EAGAIN;
		}
		skb = (struct sk_buff *)sock_queue.next;
		list_del_init((struct list_head *)skb);
		sock_rmem -= skb->truesize;
		sock_qlen--;
		spin_unlock(&sock_lock);
		simhost_charge(cfg.recv_cycles, SIMHOST_CAT_STACK);
		*ready_ns = *(uint64_t *)skb->cb;
		n = (long)skb->len;
		{
			int c = simhost_cat_enter(SIMHOST_CAT_COPY);

			memcpy(buf, skb->data, min((size_t)skb->len, len));
			simhost_cat_leave(c);
		}
		/* A datagram the device did not vouch for is checked with the
		 * copy, as udp_recvmsg does; a wrong one is dropped and the next
		 * one read (Udp.InCsumErrors and InErrors). */
		if (udp_csum_valid(skb))
			break;
		st.udp_in_csum_errors++;
		st.udp_in_errors++;
		kfree_skb(skb);
	}
	st.udp_in_datagrams++;
	consume_skb(skb);
	simhost_cat_leave(prev);
	return n;
}
