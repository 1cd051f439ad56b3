// C-linkage implementation of frame_format.h.
#include "net/frame_format.h"
#include <cstring>

namespace {

// CRC-32 (IEEE 802.3, reflected) tables for slicing by 8: t[0] is the
// byte-at-a-time table, t[k] advances a byte k more positions.
struct crc_table {
    uint32_t t[8][256];
    crc_table()
    {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[0][i] = c;
        }
        for (uint32_t i = 0; i < 256; i++)
            for (int k = 1; k < 8; k++)
                t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
    }
};
const crc_table k_crc;

inline void put16(uint8_t* p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
inline void put32(uint8_t* p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
inline uint16_t get16(const uint8_t* p) { return (uint16_t)(p[0] << 8 | p[1]); }
inline uint32_t get32(const uint8_t* p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

// Eight bytes of p as a little-endian integer, whatever the host's order.
inline uint64_t ld64le(const uint8_t* p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
#else
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
#endif
}

// s plus the big-endian 16-bit words of p[0..len) (an odd last byte is the
// high byte of a word), as a 32-bit sum to fold(). Eight bytes at a time the
// words are summed in little-endian order in two 32-bit lanes and the folded
// result swapped back: ones'-complement sums do not depend on the byte order
// (RFC 1071 2(B)), and fold() of the result equals fold() of the plain sum,
// zero included (only an all-zero run sums to 0 either way).
// The eight-byte lanes of sum_words: add the little-endian word w (its four
// 16-bit words into two 32-bit lanes; < 2^48 for any frame, no carry out),
// and the lanes' total as a big-endian sum for fold().
inline uint64_t lanes_add(uint64_t lanes, uint64_t w)
{
    return lanes + (w & 0x0000FFFF0000FFFFull) + ((w >> 16) & 0x0000FFFF0000FFFFull);
}
inline uint32_t lanes_sum(uint64_t lanes)
{
    uint64_t le = (lanes & 0xFFFFFFFFull) + (lanes >> 32);
    while (le >> 16)
        le = (le & 0xFFFF) + (le >> 16);
    return (uint32_t)(((le & 0xFF) << 8) | (le >> 8));
}

uint32_t sum_words(uint32_t s, const uint8_t* p, size_t len)
{
    if (len >= 16) {
        uint64_t lanes = 0;
        for (; len >= 8; p += 8, len -= 8)
            lanes = lanes_add(lanes, ld64le(p));
        s += lanes_sum(lanes);
    }
    for (; len > 1; p += 2, len -= 2)
        s += (uint32_t)(p[0] << 8 | p[1]);
    if (len)
        s += (uint32_t)p[0] << 8;
    return s;
}
uint16_t fold(uint32_t s)
{
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)s;
}

// Ethernet II and IPv4 headers (DF, TTL 64, valid header checksum) of a
// datagram of l4_len bytes of protocol proto; returns the IP header.
uint8_t* put_eth_ip(uint8_t* eth, const traffic_flow* fl, size_t l4_len, uint16_t id, uint8_t proto)
{
    std::memcpy(eth, fl->dst_mac, 6);
    std::memcpy(eth + 6, fl->src_mac, 6);
    put16(eth + 12, 0x0800);
    uint8_t* ip = eth + TRAFFIC_ETH_HDR;
    ip[0] = 0x45; ip[1] = 0;
    put16(ip + 2, (uint16_t)(TRAFFIC_IP_HDR + l4_len));
    put16(ip + 4, id);      // identification
    put16(ip + 6, 0x4000);  // DF
    ip[8] = 64; ip[9] = proto;
    put16(ip + 10, 0);
    put32(ip + 12, fl->src_ip);
    put32(ip + 16, fl->dst_ip);
    put16(ip + 10, traffic_inet_checksum(ip, TRAFFIC_IP_HDR));
    return ip;
}

// Sum of the pseudo header and the L4 segment (checksum field included).
uint16_t l4_sum(const uint8_t* ip, const uint8_t* l4, size_t l4len, uint8_t proto)
{
    uint32_t s = sum_words(0, ip + 12, 8);
    s += proto;
    s += (uint32_t)l4len;
    s = sum_words(s, l4, l4len);
    return fold(s);
}

// The fill generator: xorshift32, one step per byte, the byte its low 8 bits.
inline uint32_t fill_step(uint32_t x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

// The step is linear over GF(2) (shifts and xors), so eight steps at once
// are table lookups by the four bytes of the state: out[j][b] holds the next
// eight fill bytes (the first in the low byte) and next[j][b] the state
// after them, for a state whose byte j is b and the others 0; the xor over
// the four bytes is exactly what eight single steps give.
struct fill_table {
    uint64_t out[4][256];
    uint32_t next[4][256];
    fill_table()
    {
        for (unsigned j = 0; j < 4; j++)
            for (uint32_t b = 0; b < 256; b++) {
                uint32_t x = b << (8 * j);
                uint64_t o = 0;
                for (unsigned k = 0; k < 8; k++) {
                    x = fill_step(x);
                    o |= (uint64_t)(uint8_t)x << (8 * k);
                }
                out[j][b] = o;
                next[j][b] = x;
            }
    }
};
const fill_table k_fill;

inline void st64le(uint8_t* p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(p, &v, 8);
#else
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
#endif
}

} // namespace

extern "C" {

uint32_t traffic_crc32_update(uint32_t crc, const uint8_t* p, size_t len)
{
    uint32_t c = ~crc;
    const auto& t = k_crc.t;
    for (; len >= 8; p += 8, len -= 8) {
        const uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^ t[3][p[4]] ^
            t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    }
    for (; len; p++, len--)
        c = t[0][(c ^ *p) & 0xFF] ^ (c >> 8);
    return ~c;
}

uint32_t traffic_crc32(const uint8_t* p, size_t len) { return traffic_crc32_update(0, p, len); }

uint16_t traffic_inet_checksum(const uint8_t* p, size_t len) { return (uint16_t)~fold(sum_words(0, p, len)); }

static uint32_t payload_check(const uint8_t* p, size_t len)
{
    uint32_t c = traffic_crc32_update(0, p, 4);
    return traffic_crc32_update(c, p + TRAFFIC_HDR_BYTES, len - TRAFFIC_HDR_BYTES);
}

// The payload of traffic_fill_payload(); returns a sum of its fill bytes
// p[8..len) (len >= 8, a 16-bit word boundary) that folds like
// sum_words(0, ...) of them (see sum_words for the eight-byte lanes).
static uint32_t fill_payload_sum(uint8_t* p, size_t len, uint32_t seq)
{
    put32(p, seq);
    uint32_t x = seq * 2654435761u + 0x9E3779B9u, s = 0;
    size_t i = TRAFFIC_HDR_BYTES;
    if (len - i >= 16) {
        const auto& t = k_fill;
        uint64_t lanes = 0;
        for (; i + 8 <= len; i += 8) {
            const unsigned b0 = x & 0xFF, b1 = (x >> 8) & 0xFF, b2 = (x >> 16) & 0xFF, b3 = x >> 24;
            const uint64_t w = t.out[0][b0] ^ t.out[1][b1] ^ t.out[2][b2] ^ t.out[3][b3];
            x = t.next[0][b0] ^ t.next[1][b1] ^ t.next[2][b2] ^ t.next[3][b3];
            st64le(p + i, w);
            lanes = lanes_add(lanes, w);
        }
        s = lanes_sum(lanes);
    }
    for (; i + 1 < len; i += 2) {
        x = fill_step(x);
        const uint8_t hi = (uint8_t)x;
        x = fill_step(x);
        const uint8_t lo = (uint8_t)x;
        p[i] = hi;
        p[i + 1] = lo;
        s += (uint32_t)(hi << 8 | lo);
    }
    if (i < len) {
        x = fill_step(x);
        p[i] = (uint8_t)x;
        s += (uint32_t)p[i] << 8;
    }
    put32(p + 4, payload_check(p, len));
    return s;
}

void traffic_fill_payload(uint8_t* p, size_t len, uint32_t seq)
{
    if (len >= TRAFFIC_HDR_BYTES)
        fill_payload_sum(p, len, seq);
}

int traffic_verify_payload(const uint8_t* p, size_t len, uint32_t* seq)
{
    if (len < TRAFFIC_HDR_BYTES)
        return TRAFFIC_SHORT;
    if (get32(p + 4) != payload_check(p, len))
        return TRAFFIC_CORRUPT;
    if (seq)
        *seq = get32(p);
    return TRAFFIC_OK;
}

void traffic_append_fcs(uint8_t* out, size_t len)
{
    uint32_t c = traffic_crc32(out, len);
    out[len] = (uint8_t)c; out[len + 1] = (uint8_t)(c >> 8);
    out[len + 2] = (uint8_t)(c >> 16); out[len + 3] = (uint8_t)(c >> 24);
}

int traffic_fcs_ok(const uint8_t* f, size_t len)
{
    if (len < 4)
        return 0;
    uint32_t c = traffic_crc32(f, len - 4);
    const uint8_t* q = f + len - 4;
    return q[0] == (uint8_t)c && q[1] == (uint8_t)(c >> 8) && q[2] == (uint8_t)(c >> 16) &&
           q[3] == (uint8_t)(c >> 24);
}

size_t traffic_build_frame(uint8_t* out, size_t frame_len, const struct traffic_flow* fl, uint32_t seq)
{
    if (frame_len < TRAFFIC_MIN_FRAME || frame_len > TRAFFIC_MAX_FRAME)
        return 0;
    const size_t plen = frame_len - TRAFFIC_FCS - TRAFFIC_L2L4_HDR;
    uint8_t* ip = put_eth_ip(out, fl, TRAFFIC_UDP_HDR + plen, (uint16_t)seq, 17);
    uint8_t* udp = ip + TRAFFIC_IP_HDR;
    put16(udp, fl->src_port);
    put16(udp + 2, fl->dst_port);
    put16(udp + 4, (uint16_t)(TRAFFIC_UDP_HDR + plen));
    put16(udp + 6, 0);
    // The UDP checksum from the fill's own sum: pseudo header, UDP header,
    // payload header words, fill (l4_sum() over the same bytes, one pass less).
    uint8_t* pl = udp + TRAFFIC_UDP_HDR;
    uint32_t sum = fill_payload_sum(pl, plen, seq);
    sum = sum_words(sum, ip + 12, 8) + 17 + (uint32_t)(TRAFFIC_UDP_HDR + plen);
    sum = sum_words(sum, udp, TRAFFIC_UDP_HDR);
    sum = sum_words(sum, pl, TRAFFIC_HDR_BYTES);
    const uint16_t c = (uint16_t)~fold(sum);
    put16(udp + 6, c ? c : 0xFFFF);
    traffic_append_fcs(out, frame_len - TRAFFIC_FCS);
    return frame_len;
}

int traffic_udp_payload(const uint8_t* f, size_t len, const uint8_t** payload, size_t* plen)
{
    if (len < TRAFFIC_L2L4_HDR || get16(f + 12) != 0x0800)
        return -1;
    const uint8_t* ip = f + TRAFFIC_ETH_HDR;
    const size_t ihl = (size_t)(ip[0] & 0xF) * 4;
    if ((ip[0] >> 4) != 4 || ihl < 20 || ip[9] != 17)
        return -1;
    const size_t tot = get16(ip + 2);
    if (tot < ihl + TRAFFIC_UDP_HDR || TRAFFIC_ETH_HDR + tot > len)
        return -1;
    const uint8_t* udp = ip + ihl;
    const size_t ulen = get16(udp + 4);
    if (ulen < TRAFFIC_UDP_HDR || ulen > tot - ihl)
        return -1;
    *payload = udp + TRAFFIC_UDP_HDR;
    *plen = ulen - TRAFFIC_UDP_HDR;
    return 0;
}

int traffic_ipv4_checks(const uint8_t* f, size_t len, int* ip_ok, int* l4_ok)
{
    if (len < TRAFFIC_ETH_HDR + TRAFFIC_IP_HDR || get16(f + 12) != 0x0800)
        return -1;
    const uint8_t* ip = f + TRAFFIC_ETH_HDR;
    const size_t ihl = (size_t)(ip[0] & 0xF) * 4;
    if ((ip[0] >> 4) != 4 || ihl < 20 || TRAFFIC_ETH_HDR + ihl > len)
        return -1;
    *ip_ok = fold(sum_words(0, ip, ihl)) == 0xFFFF;
    *l4_ok = 1;
    const size_t tot = get16(ip + 2);
    const bool frag = (get16(ip + 6) & 0x3FFF) != 0;
    if (frag || tot < ihl || TRAFFIC_ETH_HDR + tot > len)
        return 0;
    const uint8_t* l4 = ip + ihl;
    const size_t l4len = tot - ihl;
    if (ip[9] == 17 && l4len >= 8 && get16(l4 + 6) != 0)
        *l4_ok = l4_sum(ip, l4, l4len, 17) == 0xFFFF;
    else if (ip[9] == 6 && l4len >= 20)
        *l4_ok = l4_sum(ip, l4, l4len, 6) == 0xFFFF;
    return 0;
}

int traffic_udp4_checksum_ok(const uint8_t* ip, size_t avail)
{
    const uint8_t* udp = ip + (size_t)(ip[0] & 0xF) * 4;
    const size_t ulen = get16(udp + 4);
    if (get16(udp + 6) == 0)
        return 1;
    return ulen >= 8 && ulen <= avail && l4_sum(ip, udp, ulen, 17) == 0xFFFF;
}

int traffic_insert_checksums(uint8_t* f, size_t len, int ip_on, int l4_on)
{
    if (len < TRAFFIC_ETH_HDR + TRAFFIC_IP_HDR || get16(f + 12) != 0x0800)
        return 0;
    uint8_t* ip = f + TRAFFIC_ETH_HDR;
    const size_t ihl = (size_t)(ip[0] & 0xF) * 4;
    if ((ip[0] >> 4) != 4 || ihl < 20 || TRAFFIC_ETH_HDR + ihl > len)
        return 0;
    int done = 0;
    if (ip_on) {
        put16(ip + 10, (uint16_t)~fold(sum_words(0, ip, ihl)));
        done |= 1;
    }
    const size_t tot = get16(ip + 2);
    if (!l4_on || (get16(ip + 6) & 0x3FFF) || tot < ihl || TRAFFIC_ETH_HDR + tot > len)
        return done;
    uint8_t* l4 = ip + ihl;
    const size_t l4len = tot - ihl;
    if (ip[9] == 17 && l4len >= TRAFFIC_UDP_HDR) {
        const uint16_t c = (uint16_t)~l4_sum(ip, l4, l4len, 17);
        put16(l4 + 6, c ? c : 0xFFFF);
        done |= 2;
    } else if (ip[9] == 6 && l4len >= 20) {
        put16(l4 + 16, (uint16_t)~l4_sum(ip, l4, l4len, 6));
        done |= 2;
    }
    return done;
}

size_t traffic_build_tcp_seg(uint8_t* out, size_t plen, const struct traffic_flow* fl, uint32_t seq, uint32_t ack,
                             uint8_t flags, uint16_t window, uint16_t ip_id)
{
    if (plen > 65535 - TRAFFIC_IP_HDR - TRAFFIC_TCP_HDR)
        return 0;
    uint8_t* ip = put_eth_ip(out, fl, TRAFFIC_TCP_HDR + plen, ip_id, 6);
    uint8_t* th = ip + TRAFFIC_IP_HDR;
    std::memset(th, 0, TRAFFIC_TCP_HDR);
    put16(th, fl->src_port);
    put16(th + 2, fl->dst_port);
    put32(th + 4, seq);
    put32(th + 8, ack);
    th[12] = (uint8_t)((TRAFFIC_TCP_HDR / 4) << 4);
    th[13] = flags;
    put16(th + 14, window);
    th[20] = 1; th[21] = 1; th[22] = 8; th[23] = 10;  // NOP NOP TS(10): values 0
    traffic_fill_stream(th + TRAFFIC_TCP_HDR, plen, seq);
    put16(th + 16, (uint16_t)~l4_sum(ip, th, TRAFFIC_TCP_HDR + plen, 6));
    return TRAFFIC_TCP_L2L4_HDR + plen;
}

size_t traffic_build_tcp(uint8_t* out, size_t plen, const struct traffic_flow* fl, uint32_t seq, uint16_t ip_id)
{
    // ack 1: the peer sent nothing
    return traffic_build_tcp_seg(out, plen, fl, seq, 1, TRAFFIC_TCP_ACK | TRAFFIC_TCP_PSH, 64240, ip_id);
}

int traffic_tcp_header(const uint8_t* f, size_t len, struct traffic_tcp_info* info)
{
    if (len < TRAFFIC_ETH_HDR + TRAFFIC_IP_HDR + 20 || get16(f + 12) != 0x0800)
        return -1;
    const uint8_t* ip = f + TRAFFIC_ETH_HDR;
    const size_t ihl = (size_t)(ip[0] & 0xF) * 4;
    if ((ip[0] >> 4) != 4 || ihl < 20 || ip[9] != 6)
        return -1;
    const size_t tot = get16(ip + 2);
    if (tot < ihl + 20 || TRAFFIC_ETH_HDR + tot > len)
        return -1;
    const uint8_t* th = ip + ihl;
    const size_t doff = (size_t)(th[12] >> 4) * 4;
    if (doff < 20 || ihl + doff > tot)
        return -1;
    info->seq = get32(th + 4);
    info->ack = get32(th + 8);
    info->window = get16(th + 14);
    info->flags = th[13];
    info->payload = th + doff;
    info->plen = tot - ihl - doff;
    return 0;
}

int traffic_tcp_payload(const uint8_t* f, size_t len, const uint8_t** payload, size_t* plen, uint32_t* seq)
{
    traffic_tcp_info t;
    if (traffic_tcp_header(f, len, &t))
        return -1;
    *payload = t.payload;
    *plen = t.plen;
    *seq = t.seq;
    return 0;
}

size_t traffic_build_tcp_ack(uint8_t* out, const struct traffic_flow* fl, uint32_t seq, uint32_t ack,
                             uint16_t window, uint16_t ip_id)
{
    uint8_t* ip = put_eth_ip(out, fl, TRAFFIC_TCP_HDR, ip_id, 6);
    uint8_t* th = ip + TRAFFIC_IP_HDR;
    std::memset(th, 0, TRAFFIC_TCP_HDR);
    put16(th, fl->src_port);
    put16(th + 2, fl->dst_port);
    put32(th + 4, seq);
    put32(th + 8, ack);
    th[12] = (uint8_t)((TRAFFIC_TCP_HDR / 4) << 4);
    th[13] = 0x10;  // ACK
    put16(th + 14, window);
    th[20] = 1; th[21] = 1; th[22] = 8; th[23] = 10;  // NOP NOP TS(10): values 0
    put16(th + 16, (uint16_t)~l4_sum(ip, th, TRAFFIC_TCP_HDR, 6));
    return TRAFFIC_TCP_L2L4_HDR;
}

static uint8_t echo_byte(uint16_t seq, size_t k) { return (uint8_t)(k + seq * 7u); }

size_t traffic_build_icmp_echo(uint8_t* out, const struct traffic_flow* fl, int type, uint16_t id, uint16_t seq,
                               size_t data_len, uint16_t ip_id)
{
    if (TRAFFIC_IP_HDR + TRAFFIC_ICMP_HDR + data_len > 1500)
        return 0;
    uint8_t* ip = put_eth_ip(out, fl, TRAFFIC_ICMP_HDR + data_len, ip_id, 1);
    uint8_t* ic = ip + TRAFFIC_IP_HDR;
    ic[0] = (uint8_t)type;
    ic[1] = 0;
    put16(ic + 2, 0);
    put16(ic + 4, id);
    put16(ic + 6, seq);
    for (size_t k = 0; k < data_len; k++)
        ic[TRAFFIC_ICMP_HDR + k] = echo_byte(seq, k);
    put16(ic + 2, traffic_inet_checksum(ic, TRAFFIC_ICMP_HDR + data_len));
    return TRAFFIC_ICMP_L2L4_HDR + data_len;
}

// The ICMP message of an IPv4 frame: its start and length, or null.
static const uint8_t* icmp_message(const uint8_t* f, size_t len, size_t* mlen)
{
    if (len < TRAFFIC_ETH_HDR + TRAFFIC_IP_HDR + TRAFFIC_ICMP_HDR || get16(f + 12) != 0x0800)
        return nullptr;
    const uint8_t* ip = f + TRAFFIC_ETH_HDR;
    const size_t ihl = (size_t)(ip[0] & 0xF) * 4;
    if ((ip[0] >> 4) != 4 || ihl < 20 || ip[9] != 1)
        return nullptr;
    const size_t tot = get16(ip + 2);
    if (tot < ihl + TRAFFIC_ICMP_HDR || TRAFFIC_ETH_HDR + tot > len)
        return nullptr;
    *mlen = tot - ihl;
    return ip + ihl;
}

int traffic_icmp_echo(const uint8_t* f, size_t len, int* type, uint16_t* id, uint16_t* seq, size_t* data_len)
{
    size_t n;
    const uint8_t* ic = icmp_message(f, len, &n);
    if (!ic || (ic[0] != TRAFFIC_ICMP_ECHO_REQUEST && ic[0] != TRAFFIC_ICMP_ECHO_REPLY) || ic[1] != 0 ||
        traffic_inet_checksum(ic, n) != 0)
        return -1;
    *type = ic[0];
    *id = get16(ic + 4);
    *seq = get16(ic + 6);
    *data_len = n - TRAFFIC_ICMP_HDR;
    return 0;
}

int traffic_icmp_data_ok(const uint8_t* f, size_t len)
{
    size_t n;
    const uint8_t* ic = icmp_message(f, len, &n);
    if (!ic)
        return 0;
    const uint16_t seq = get16(ic + 6);
    for (size_t k = 0; k + TRAFFIC_ICMP_HDR < n; k++)
        if (ic[TRAFFIC_ICMP_HDR + k] != echo_byte(seq, k))
            return 0;
    return 1;
}

static uint8_t stream_byte(uint32_t k)
{
    uint32_t x = k * 2654435761u;
    return (uint8_t)(x >> 24 ^ k);
}

void traffic_fill_stream(uint8_t* p, size_t len, uint32_t offset)
{
    for (size_t i = 0; i < len; i++)
        p[i] = stream_byte(offset + (uint32_t)i);
}

int traffic_verify_stream(const uint8_t* p, size_t len, uint32_t offset)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] != stream_byte(offset + (uint32_t)i))
            return 0;
    return 1;
}

void traffic_seq_init(struct traffic_seq_tracker* t) { std::memset(t, 0, sizeof *t); }

void traffic_seq_note(struct traffic_seq_tracker* t, uint32_t seq)
{
    const uint32_t W = 64 * 64;
    auto bit = [t](uint32_t s) -> uint64_t& { return t->window[(s / 64) % 64]; };
    if (!t->started || (int32_t)(seq - t->next) >= 0) {
        if (t->started) {
            uint32_t gap = seq - t->next;
            t->lost += gap;
            // clear the window slots the jump skips over
            for (uint32_t s = t->next; s != seq && (uint32_t)(s - t->next) < W; s++)
                bit(s) &= ~(1ull << (s % 64));
        }
        t->started = 1;
        bit(seq) |= 1ull << (seq % 64);
        t->next = seq + 1;
        t->received++;
        return;
    }
    if (t->next - seq > W) {  // too old to tell: call it reordered
        t->reordered++;
        t->received++;
        if (t->lost)
            t->lost--;
        return;
    }
    uint64_t& w = bit(seq);
    if (w & (1ull << (seq % 64))) {
        t->duplicated++;
        return;
    }
    w |= 1ull << (seq % 64);
    t->reordered++;
    t->received++;
    if (t->lost)
        t->lost--;
}

} // extern "C"
