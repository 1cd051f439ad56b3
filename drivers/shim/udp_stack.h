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
 *   struct sk_buff     with data, len, data_len, tail, truesize, protocol,
 *                      pkt_type, ip_summed, cb[] (at least 9 bytes) and a
 *                      list node first (next, prev);
 *   cfg, st            struct shim_net_config and struct shim_net_stats;
 *   kfree_skb, consume_skb, skb_pull, spin_lock/unlock, the list helpers;
 *   UDP_STACK_NAME(n)  the external name of the socket functions
 *                      (shim_udp_queued / shim_udp_recvmsg at 5.4);
 *   UDP_STACK_TAIL_AT(skb, n)  sets the tail n bytes past data (the
 *                      level's own tail: a pointer or an offset).
 * Units: cycles of the receiving core (simhost_charge), bytes of skb
 * truesize for the socket's receive memory, ns for the enqueue time.
 */
/* --------------------------------------------------- stack and socket -- */

static struct list_head sock_queue = { &sock_queue, &sock_queue };
static uint64_t sock_rmem;
static unsigned sock_qlen;	/* datagrams in sock_queue */
static spinlock_t sock_lock;
/* The kernel data the receive path reads and fecsim does not model line by
 * line (cfg.stack_meta_bytes, taken from the heap at the first frame). */
static void *stack_meta;

/* Not simulated work, so not instrumented: where recvmsg finds the headers
 * again (bookkeeping the kernel keeps elsewhere), and the UDP checksum check
 * the kernel folds into the copy to user (its reads of the skb head are in
 * the recvmsg charge, the datagram's bytes are those the copy reads). */
#define UDP_STACK_UNCOSTED __attribute__((__no_sanitize_thread__, __no_sanitize_coverage__, __noinline__))

UDP_STACK_UNCOSTED static void udp_note_headers(struct sk_buff *skb, unsigned int ihl)
{
	skb->cb[8] = (char)ihl;
}

/* A linear skb cut to its first n bytes (pskb_trim_rcsum: the link layer's
 * padding goes; a device checksum over the whole frame would no longer
 * hold, but fecsim's devices report none). */
UDP_STACK_UNCOSTED static void udp_trim(struct sk_buff *skb, unsigned int n)
{
	if (n < skb->len && !skb->data_len) {
		skb->len = n;
		UDP_STACK_TAIL_AT(skb, n);
	}
}

/* The helpers below are bookkeeping of the stack's charge: their reads of
 * the headers are simulated (simhost_access) because the kernel makes them
 * and because only a simulated read makes the CPU's view of a buffer the
 * device wrote current; the rest costs nothing of its own. */

/* ip_rcv_core's checks of an IPv4 datagram (net/ipv4/ip_input.c; RFC 791,
 * RFC 1122 3.2.1.2): a header below 20 bytes or beyond the frame, or with a
 * wrong checksum (InCsumErrors too), is an InHdrErrors; a total length
 * beyond the frame an InTruncatedPkts, below the header an InHdrErrors;
 * otherwise the frame is trimmed to the total length. 1: it goes on. */
UDP_STACK_UNCOSTED static int udp_ip_checked(struct sk_buff *skb, unsigned int ihl)
{
	const u8 *ip = skb->data;
	unsigned int tot;

	if (ihl < 20 || skb->len < ihl) {
		st.ip_in_hdr_errors++;
		return 0;
	}
	simhost_access(ip, ihl, 0);	/* ip_fast_csum reads the whole header */
	if (!simhost_ipv4_hdr_ok(ip, ihl)) {
		st.ip_in_csum_errors++;
		st.ip_in_hdr_errors++;
		return 0;
	}
	tot = (unsigned int)ip[2] << 8 | ip[3];
	if (skb->len < tot) {
		st.ip_in_truncated++;
		return 0;
	}
	if (tot < ihl) {
		st.ip_in_hdr_errors++;
		return 0;
	}
	udp_trim(skb, tot);
	return 1;
}

/* Another protocol than UDP: TCP and ICMP go to the board's own endpoints
 * (the kernel host's TCP stream and echo responder), after the reads
 * tcp_v4_rcv (the header) and icmp_echo (the whole message, copied into
 * the reply) make. 1: an endpoint took it (the skb is then freed by the
 * caller's drop path, uncounted); 0: nobody did (the caller counts it in
 * InHdrErrors, as any datagram that is not UDP). The reads are simulated. */
UDP_STACK_UNCOSTED static int udp_other_proto(struct sk_buff *skb, unsigned int ihl)
{
	const u8 *ip = skb->data;

	if ((ip[9] != 6 && ip[9] != 1) || skb->len <= ihl || skb->data_len)
		return 0;
	simhost_access(ip + ihl, ip[9] == 6 ? min(skb->len - ihl, 60u) : skb->len - ihl, 0);
	if (!simhost_l4_receive(ip, skb->len))
		return 0;
	st.ip_in_delivers_other++;
	return 1;
}

/* Then, for UDP, __udp4_lib_rcv's length checks (net/ipv4/udp.c; RFC 768):
 * no room for the UDP header, or a UDP length beyond the datagram or below
 * 8, is a short packet, dropped and counted in Udp.InErrors; otherwise the
 * datagram is trimmed to the UDP length. 1: it goes on (another protocol
 * too, unless the board's endpoints took it: the caller drops that). */
UDP_STACK_UNCOSTED static int udp_rcv_checked(struct sk_buff *skb, unsigned int ihl)
{
	unsigned int ulen;

	if (!udp_ip_checked(skb, ihl))
		return 0;
	if (skb->data[9] != 17)
		return !udp_other_proto(skb, ihl);
	if (skb->len < ihl + 8)
		goto short_packet;
	simhost_access(skb->data + ihl, 8, 0);	/* the UDP header */
	ulen = (unsigned int)skb->data[ihl + 4] << 8 | skb->data[ihl + 5];
	if (ulen > skb->len - ihl || ulen < 8)
		goto short_packet;
	udp_trim(skb, ihl + ulen);
	return 1;
short_packet:
	st.udp_short++;
	st.udp_in_errors++;
	return 0;
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
	if (cfg.stack_meta_bytes) {
		if (!stack_meta)
			stack_meta = simhost_kalloc(cfg.stack_meta_bytes, SMP_CACHE_BYTES, SIMHOST_MEM_HOST, NULL);
		simhost_touch(stack_meta, cfg.stack_meta_bytes);
	}
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
	if (!udp_rcv_checked(skb, ihl))
		goto drop;
	if (ip[9] != 17) {
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
