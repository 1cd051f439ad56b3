/* models/net/frame_format.h: the test-traffic frame format, C-callable.
 *
 * Generated frames are Ethernet II / IPv4 / UDP. The UDP payload starts with a
 * header of TRAFFIC_HDR_BYTES:
 *   bytes 0..3  sequence number, big-endian
 *   bytes 4..7  check: CRC-32 (IEEE, as the Ethernet FCS) over payload bytes
 *               0..3 and 8..len-1, big-endian
 * followed by fill bytes that are a function of the sequence number. A
 * receiver that reads the payload (the driver side, after the CPU copied it)
 * calls traffic_verify_payload() to detect corruption, and feeds the sequence
 * numbers to a traffic_seq_tracker to count loss, duplicates and reordering.
 *
 * Generated frames carry no VLAN tag, IP options or IPv6; the parsers accept
 * IPv4 with options but no VLAN tag.
 *
 * This header is plain C (usable from the kernel-style shim and the driver
 * test code); the implementation is C++ with C linkage.
 */
#ifndef MODELS_TRAFFIC_FRAME_FORMAT_H
#define MODELS_TRAFFIC_FRAME_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRAFFIC_ETH_HDR 14u
#define TRAFFIC_IP_HDR 20u
#define TRAFFIC_UDP_HDR 8u
#define TRAFFIC_FCS 4u
/* Bytes in front of the UDP payload. */
#define TRAFFIC_L2L4_HDR (TRAFFIC_ETH_HDR + TRAFFIC_IP_HDR + TRAFFIC_UDP_HDR)
#define TRAFFIC_HDR_BYTES 8u
/* Smallest and largest frame (bytes incl. FCS) traffic_build_frame accepts. */
#define TRAFFIC_MIN_FRAME 64u
#define TRAFFIC_MAX_FRAME 9600u

/* Results of traffic_verify_payload(). */
enum traffic_verdict {
	TRAFFIC_OK = 0,
	TRAFFIC_SHORT = -1,   /* payload shorter than TRAFFIC_HDR_BYTES */
	TRAFFIC_CORRUPT = -2, /* check does not match the bytes */
};

struct traffic_flow {
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	uint32_t src_ip; /* host order */
	uint32_t dst_ip; /* host order */
	uint16_t src_port;
	uint16_t dst_port;
};

/* CRC-32 as used for the Ethernet FCS (reflected 0xEDB88320, init and final
 * xor 0xFFFFFFFF). The FCS bytes on the wire are the result, least
 * significant byte first. */
uint32_t traffic_crc32(const uint8_t *p, size_t len);
/* Continue a CRC: pass the previous return value (0 to start). */
uint32_t traffic_crc32_update(uint32_t crc, const uint8_t *p, size_t len);

/* Ones'-complement Internet checksum of p[0..len) (result in host order). */
uint16_t traffic_inet_checksum(const uint8_t *p, size_t len);

/* Write the payload header and fill for sequence number seq; len >= 8. */
void traffic_fill_payload(uint8_t *udp_payload, size_t len, uint32_t seq);
/* Check a payload; on TRAFFIC_OK stores its sequence number in *seq (if set). */
int traffic_verify_payload(const uint8_t *udp_payload, size_t len, uint32_t *seq);

/* Build a whole frame of frame_len bytes incl. FCS into out: Ethernet II,
 * IPv4 (valid header checksum), UDP (valid checksum), payload as above, FCS.
 * Returns frame_len, or 0 if frame_len is outside [TRAFFIC_MIN_FRAME,
 * TRAFFIC_MAX_FRAME]. */
size_t traffic_build_frame(uint8_t *out, size_t frame_len, const struct traffic_flow *flow,
			   uint32_t seq);
/* Append the FCS of out[0..len) at out[len..len+4). */
void traffic_append_fcs(uint8_t *out, size_t len);
/* Non-zero if the last 4 bytes of frame[0..len) are its correct FCS. */
int traffic_fcs_ok(const uint8_t *frame, size_t len);

/* Locate the UDP payload of an Ethernet II / IPv4 / UDP frame (FCS optional
 * at the end: pass the length without it). Returns 0 and sets *payload and *plen,
 * or -1 if the frame is not IPv4/UDP or is inconsistent. */
int traffic_udp_payload(const uint8_t *frame, size_t len, const uint8_t **payload, size_t *plen);
/* IPv4 checks for a frame without FCS: *ip_ok = header checksum valid,
 * *l4_ok = UDP/TCP checksum valid (UDP checksum 0 counts as valid). Returns 0
 * for an IPv4 frame, -1 otherwise (flags untouched). */
int traffic_ipv4_checks(const uint8_t *frame, size_t len, int *ip_ok, int *l4_ok);
/* The receiver's check of one UDP datagram (udp_recvmsg's): ip is its IPv4
 * header, avail the bytes from the UDP header on. Non-zero if the checksum
 * over the UDP length is right or the field is 0 (none sent); 0 if it is
 * wrong or the UDP length is below 8 or beyond avail. */
int traffic_udp4_checksum_ok(const uint8_t *ip, size_t avail);

/* Transmit checksum insertion as the ENET MAC's accelerator does it (store
 * and forward): in an Ethernet II / IPv4 frame without FCS, ip != 0 writes
 * the IPv4 header checksum, l4 != 0 the TCP or UDP checksum (pseudo header
 * included; a UDP result of 0 is sent as 0xFFFF). The sum runs over the
 * field as found: the driver must have cleared it, as the reference manual
 * asks, or the frame leaves with a wrong checksum. Non-IPv4 frames, IP
 * fragments and other protocols are left alone. Returns a bit mask of what
 * was written: 1 = IP header, 2 = TCP/UDP. */
int traffic_insert_checksums(uint8_t *frame, size_t len, int ip, int l4);

/* A TCP test stream's payload: the byte at stream offset k (the TCP sequence
 * number less the initial one) is a function of k alone, so that any segment
 * can be checked on its own. */
void traffic_fill_stream(uint8_t *p, size_t len, uint32_t offset);
/* Non-zero if p[0..len) is the stream's content from offset on. */
int traffic_verify_stream(const uint8_t *p, size_t len, uint32_t offset);

/* TCP test segments: Ethernet II / IPv4 (DF) / TCP with a 32-byte header
 * (NOP, NOP, timestamps: what Linux sends on an established connection),
 * flags ACK|PSH, the payload the stream's bytes from offset seq on
 * (initial sequence number 0, so seq is the stream offset). Both
 * checksums valid; no FCS. Returns the frame's length (TRAFFIC_TCP_L2L4_HDR
 * + payload_len), or 0 if the IP datagram would exceed 65535 bytes. */
#define TRAFFIC_TCP_HDR 32u
#define TRAFFIC_TCP_L2L4_HDR (TRAFFIC_ETH_HDR + TRAFFIC_IP_HDR + TRAFFIC_TCP_HDR)
size_t traffic_build_tcp(uint8_t *out, size_t payload_len, const struct traffic_flow *flow, uint32_t seq,
			 uint16_t ip_id);
/* The same segment with its acknowledgement number, flags (TRAFFIC_TCP_*)
 * and window field given: the desktop's stream to the board (peer.tcp_send). */
#define TRAFFIC_TCP_PSH 0x08
#define TRAFFIC_TCP_ACK 0x10
size_t traffic_build_tcp_seg(uint8_t *out, size_t payload_len, const struct traffic_flow *flow, uint32_t seq,
			     uint32_t ack, uint8_t flags, uint16_t window, uint16_t ip_id);
/* Locate the TCP payload of an Ethernet II / IPv4 / TCP frame without FCS:
 * 0 and *payload, *plen, *seq, or -1 if it is not IPv4/TCP or inconsistent. */
int traffic_tcp_payload(const uint8_t *frame, size_t len, const uint8_t **payload, size_t *plen, uint32_t *seq);

/* A TCP header's fields, as traffic_tcp_header finds them. */
struct traffic_tcp_info {
	uint32_t seq, ack;   /* sequence and acknowledgement numbers */
	uint16_t window;     /* the window field, unscaled */
	uint8_t flags;       /* FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10 */
	const uint8_t *payload;
	size_t plen;
};
/* The TCP header of an Ethernet II / IPv4 / TCP frame without FCS: 0 and
 * *info, or -1 if it is not IPv4/TCP or its lengths are inconsistent. */
int traffic_tcp_header(const uint8_t *frame, size_t len, struct traffic_tcp_info *info);
/* A pure acknowledgement of the stream (no payload, flags ACK), with the
 * same 32-byte header as traffic_build_tcp: acknowledgement number ack,
 * sequence number seq, window field window (the sender's receive window
 * shifted right by its window scale). Both checksums valid, no FCS, no
 * padding (the MAC pads to the 60-byte minimum). Returns the length,
 * TRAFFIC_TCP_L2L4_HDR. */
/* The window scale the link partner announces for its receive window (its
 * ACKs' window field is the window shifted right by it). */
#define TRAFFIC_PEER_WSCALE 7
size_t traffic_build_tcp_ack(uint8_t *out, const struct traffic_flow *flow, uint32_t seq, uint32_t ack,
			     uint16_t window, uint16_t ip_id);

/* ICMP echo (ping): Ethernet II / IPv4 (DF, TTL 64) / ICMP echo request
 * (type 8) or reply (type 0), code 0, identifier id, sequence number seq,
 * data_len data bytes that are a function of seq alone (what ping sends
 * after its 8-byte header: 56 bytes by default). Both checksums valid, no
 * FCS, no padding. Returns the length (TRAFFIC_ICMP_L2L4_HDR + data_len), or
 * 0 if the datagram would exceed 1500 bytes (ping does not fragment here). */
#define TRAFFIC_ICMP_HDR 8u
#define TRAFFIC_ICMP_L2L4_HDR (TRAFFIC_ETH_HDR + TRAFFIC_IP_HDR + TRAFFIC_ICMP_HDR)
#define TRAFFIC_ICMP_ECHO_REQUEST 8
#define TRAFFIC_ICMP_ECHO_REPLY 0
size_t traffic_build_icmp_echo(uint8_t *out, const struct traffic_flow *flow, int type, uint16_t id, uint16_t seq,
			       size_t data_len, uint16_t ip_id);
/* An ICMP echo request or reply of an Ethernet II / IPv4 frame without FCS:
 * 0 and *type, *id, *seq, *data_len, or -1 if it is not one, its lengths are
 * inconsistent or its ICMP checksum is wrong. */
int traffic_icmp_echo(const uint8_t *frame, size_t len, int *type, uint16_t *id, uint16_t *seq, size_t *data_len);
/* Non-zero if the data of an echo with sequence number seq are what
 * traffic_build_icmp_echo put there (a reply echoes the request's). */
int traffic_icmp_data_ok(const uint8_t *frame, size_t len);

/* Receiver-side sequence accounting. Window of the last 4096 numbers. */
struct traffic_seq_tracker {
	uint32_t next;      /* highest sequence number seen + 1 */
	uint64_t received;  /* distinct frames counted in order or late */
	uint64_t lost;      /* gaps, reduced again when a late frame fills one */
	uint64_t duplicated;
	uint64_t reordered; /* arrived after a higher number */
	uint64_t window[64];
	int started;
};
void traffic_seq_init(struct traffic_seq_tracker *t);
void traffic_seq_note(struct traffic_seq_tracker *t, uint32_t seq);

#ifdef __cplusplus
}
#endif

#endif /* MODELS_TRAFFIC_FRAME_FORMAT_H */
