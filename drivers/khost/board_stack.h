// drivers/khost/board_stack.h: the board's transmit stack above a kernel
// tree's driver: the device's qdisc (models/net/qdisc.h: fq_codel, the 6.x
// default, or pfifo_fast) in front of ndo_start_xmit, the board's end of a
// TCP stream (models/net/tcp.h: iperf3 -c, CUBIC) with TCP Small Queues and
// TSO autosizing, and the ICMP echo responder that answers a ping through
// the same qdisc and TX ring.
//
// Where the work runs (as in Linux): an ACK is processed in the NET_RX
// softirq of the core that received it (tcp_v4_rcv, tcp_ack), which sends
// what the window then allows (tcp_write_xmit, __dev_queue_xmit, the qdisc
// run) from there; a stopped queue the driver wakes, and a socket TSQ held
// back whose skbs TX completion freed, resume in the NET_TX softirq of the
// core that woke or freed them (__netif_schedule; the TSQ tasklet is booked
// as NET_TX too); the retransmission timer and the application's writes run
// on the sender's core (drivers/khost/tx.h).
//
// Behaviour and constants: Linux 6.12 net/ipv4/tcp_output.c
// (tcp_small_queue_check, tcp_tso_autosize), tcp_input.c
// (tcp_update_pacing_rate), tcp_ipv4.c (sysctl defaults), net/core/dev.c and
// net/sched/sch_generic.c (__qdisc_run, dev_requeue_skb), net/ipv4/icmp.c
// (icmp_echo); docs/sources.md §15.
//
// The receive side (peer.tcp_send: iperf3 -s on the board): TCP GRO at
// napi_gro_receive (segments of the stream held per NAPI instance and
// merged as tcp_gro_receive merges them: contiguous, at most 64 KiB and
// MAX_SKB_FRAGS + 1 segments, ended by PSH or a short segment, flushed when
// the poll completes or uses its budget), then per aggregate
// tcp_rcv_established's work in the NET_RX softirq: the receive or
// out-of-order queue, an ACK as __tcp_ack_snd_check decides (through the
// same qdisc and ring), the application woken. The application's recvmsg
// copies from the queued skbs (the shim's instrumented copy, through the
// reading core's caches), frees the ones it emptied, and sends a window
// update as tcp_cleanup_rbuf does. The advertised window is the free
// receive buffer times the measured payload/truesize ratio (6.x's
// scaling_ratio), never moved back.
//
// Not modelled: BQL (the fec driver does not call netdev_tx_sent_queue),
// pacing (fq_codel does not pace, CUBIC does not ask for it), software GSO
// (a device without NETIF_F_TSO gets one-segment skbs from tcp_write_xmit),
// the copy of the stream's bytes in iperf3's sendmsg (booked where the skb is
// built, inside the send: drivers/shim/v6/tx.c); on the receive side, the
// socket lock (segments that arrive while the application reads are
// processed at once in the softirq, not from the socket's backlog),
// receive-buffer autotuning (the buffer is at tcp_rmem[2] from the start),
// the delayed-ACK timer's own core (it runs on the application's), and
// an ACK held back because the window would shrink.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>
#include "drivers/khost/khost_config.h"
#include "common/stats.h"
#include "cpu/core.h"
#include "net/frame_format.h"
#include "net/qdisc.h"
#include "net/tcp.h"

struct fecsim_v6_tx_req;

namespace khost {

struct tx_v6_port;

struct board_stack_stats {
#define S FEC_STAT_MEMBER
#include "drivers/khost/board_stack_stats.def"
#undef S
};
extern const models::stat_desc board_stack_stat_rows[];
extern const size_t board_stack_stat_count;

// The sockets whose send-buffer charge the shim reports (fecsim_v6_tx_req.sock).
enum board_sock : unsigned { SOCK_APP = 0, SOCK_ICMP = 1, SOCK_TCP_RX = 2 };

class board_stack {
public:
    // port: the tree driver's transmit entry points; cores: where NET_TX
    // runs (its handler is installed on each).
    board_stack(const stack_tx_config& cfg, const tx_v6_port& port, const std::vector<models::cpu::core*>& cores,
                uint64_t board_mac);

    // The application socket's callbacks (drivers/khost/tx.h) and core c.
    // A datagram sender's wmem gets every change of its send-buffer charge
    // (B: the qdisc's estimate, then the shim's truesize). With the TCP
    // stream, wmem is not used; woken is called when ACKs free send-buffer
    // room while the application waits for it (app_waits), and c wakes at
    // the retransmission deadline.
    void set_app(void (*woken)(void*), void (*wmem)(void*, long), void* ctx, models::cpu::core* c);
    void app_waits(bool w) { m_app_wait = w; }
    // The application socket's charge (sk_wmem_alloc): its skbs in the
    // qdisc (estimated) and held by the driver (the shim's truesize), B.
    uint64_t app_wmem() const { return m_app_wmem_bytes + m_app_qdisc_bytes; }

    // One frame (no FCS, r.frame copied) of socket r.sock into the qdisc
    // (flow: its flow hash; segs: the segments it makes on the wire) and,
    // if the queue runs, on to the driver: true, or false when the qdisc
    // dropped this packet at its enqueue (NET_XMIT_DROP, or NET_XMIT_CN with
    // this packet among those dropped).
    bool send(const fecsim_v6_tx_req& r, uint32_t flow, uint32_t segs);

    // The TCP stream (tx.protocol=tcp_cubic): opened once; the application
    // wrote up to stream offset `end`; the retransmission timer's deadline
    // (0: none) and its expiry, on the sender's core.
    void tcp_open(const models::net::tcp_config& tc, const traffic_flow& flow, const tx_config& tx);
    void tcp_write(uint64_t end);
    models::tick_t tcp_timer() const { return m_tcp ? m_tcp->rto_deadline() : 0; }
    void tcp_on_timer();
    // The application's system call holds the socket (lock_sock) from
    // sock_lock to sock_release: ACKs that arrive meanwhile wait in the
    // socket's backlog and a TSQ release is deferred (tcp_release_cb); both
    // are processed at sock_release, on the application's core.
    void sock_lock();
    void sock_release();
    // The application may write: its unacknowledged bytes are below sndbuf.
    bool tcp_room(uint64_t sndbuf) const;

    // A TCP or ICMP datagram for the board (simhost_l4_receive): 1 taken.
    int l4_receive(const uint8_t* ip, size_t len);

    // The receiving socket (peer.tcp_send): opened once; the application
    // (drivers/khost/app.h) reads on core c, where the delayed-ACK timer
    // wakes it too.
    void tcp_rx_open(models::cpu::core* c);
    bool tcp_rx_on() const { return m_rcv != nullptr; }
    // GRO (simhost_gro_receive, simhost_gro_flush).
    int gro_receive(void* napi, void* skb, const uint8_t* ip, size_t len, unsigned truesize, bool csum_ok);
    void gro_flush(void* napi);
    // Whether the application has bytes to read (in order, queued), and whether
    // the delayed-ACK timer is due at the reading core's time.
    bool tcp_rx_readable() const { return !m_rcvq.empty(); }
    bool tcp_rx_timer_due() const;
    void tcp_rx_on_timer();
    // tcp_recvmsg on the application's core: up to len bytes into buf (a
    // simulated buffer); the stream offset of the first in *offset and the
    // time the first segment was queued in *ready (the caller waits for it
    // if its core is behind). 0: nothing queued.
    size_t tcp_recvmsg(void* buf, size_t len, uint64_t* offset, models::tick_t* ready);
    // The skbs the socket and GRO hold (the leak scan's roots).
    void held_skbs(std::vector<const void*>& out) const;
    // Segments GRO took since the last reset (the frame balance's fate).
    uint64_t tcp_rx_segs() const { return m_stats.tcp_rx_segs; }

    void visit_stats(const models::stat_visitor& v) const;
    void reset_stats();

private:
    struct held {
        std::vector<uint8_t> frame;
        unsigned head_len, frag_bytes, gso_size, sock;
        bool csum;
        uint64_t truesize;  // its charge while the qdisc holds it (B)
    };
    static void woken(void* self);
    static void wmem(void* self, unsigned sock, long delta);
    void net_tx_action();
    void qdisc_run();
    void tcp_push();
    bool tsq_throttled() const;
    uint64_t pacing_rate() const;  // B/s
    uint32_t tso_segs() const;
    void raise_net_tx();
    void release(uint64_t id);  // a packet leaves the qdisc's keeping (sent or dropped)
    void arm_timer();           // the application's core wakes at the retransmission deadline
    models::tick_t now() const;

    const stack_tx_config m_cfg;
    const tx_v6_port& m_port;
    models::net::qdisc m_q;
    std::unordered_map<uint64_t, held> m_held;
    uint64_t m_next_id = 1;
    std::vector<models::net::qdisc_pkt> m_dropped;
    bool m_stopped = false;     // the driver's queue refused the last packet: wait for the wake
    bool m_in_run = false;      // inside qdisc_run
    // application socket
    void (*m_app_woken)(void*) = nullptr;
    void (*m_app_wmem)(void*, long) = nullptr;
    void* m_app_ctx = nullptr;
    models::cpu::core* m_app_core = nullptr;
    bool m_app_wait = false;
    models::tick_t m_timer_posted = 0;  // the wake-up posted for the retransmission timer
    uint64_t m_app_wmem_bytes = 0;   // truesize the driver holds for the application socket
    uint64_t m_app_qdisc_bytes = 0;  // and the qdisc
    // TCP stream
    std::unique_ptr<models::net::tcp_sender> m_tcp;
    traffic_flow m_flow{};
    tx_config m_tx{};
    uint64_t m_written = 0;          // stream bytes the application wrote
    uint16_t m_ip_id = 0;
    bool m_tsq_throttled = false;
    bool m_tsq_pending = false;      // the TSQ handler is due in NET_TX
    bool m_owned = false;            // the application holds the socket (sock_lock)
    bool m_bh_locked = false;        // a softirq is working on the socket (bh_lock_sock)
    bool m_tsq_deferred = false;     // a TSQ release found the socket held
    struct backlogged {
        uint32_t ack;
        uint16_t window;
    };
    std::vector<backlogged> m_backlog;  // ACKs that found the socket held, in order
    void tcp_ack(uint32_t ack, uint16_t window);
    void spin_bh();  // wait while a softirq on another core works on the socket
    uint64_t m_last_truesize = 0;    // of the stream's latest skb the driver took (B)
    models::net::tcp_sender_stats m_tcp_base{};
    unsigned m_features = 0;
    std::vector<uint8_t> m_frame;
    // the receiving TCP socket
    struct rx_seg {
        void* skb;
        const uint8_t* payload;  // its first unread byte
        uint64_t seq;            // stream offset of that byte
        uint32_t len;            // unread bytes
        uint32_t truesize;
        models::tick_t ready;    // queued at
    };
    struct gro_held {
        void* napi;
        std::vector<rx_seg> segs;
        uint32_t mss;            // the first segment's payload: gso_size
        uint64_t bytes;          // payload of the held segments
    };
    void gro_deliver(gro_held& g);
    void rx_queue(const rx_seg& s);
    void rx_free(const rx_seg& s);
    void rx_send_ack(bool by_timer);
    uint64_t rx_window() const;  // B the free buffer allows now
    // tcp_win_from_space: buffer bytes (truesize) as window bytes (scaling_ratio)
    uint64_t rx_win_from_space(uint64_t space) const { return space * m_ratio_len / m_ratio_true; }
    void rx_arm_timer();
    std::unique_ptr<models::net::tcp_receiver> m_rcv;
    models::cpu::core* m_rx_core = nullptr;
    std::vector<gro_held> m_gro;
    std::deque<rx_seg> m_rcvq;               // in order, unread
    std::map<uint64_t, rx_seg> m_ofo;        // beyond a hole, by stream offset
    uint64_t m_rcvq_end = 0;                 // stream offset after the last queued byte (rcv_nxt)
    uint64_t m_rmem = 0;                     // truesize of the skbs in both queues
    uint64_t m_rcv_edge = 0;                 // right edge of the window last advertised
    uint64_t m_ratio_len = 1, m_ratio_true = 2;  // scaling_ratio: payload / truesize (1/2 before data)
    traffic_flow m_rx_flow{};                // the ACKs: board to desktop
    uint16_t m_rx_ip_id = 0;
    models::tick_t m_delack_posted = 0;
    // ICMP
    traffic_flow m_icmp_flow{};
    uint16_t m_icmp_ip_id = 0;
    board_stack_stats m_stats{};
};

// The stack simhost_l4_receive hands TCP and ICMP to (null: none, they are
// dropped as of an unknown protocol).
void board_stack_install(board_stack* s);

} // namespace khost
