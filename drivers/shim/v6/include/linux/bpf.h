/* SPDX-License-Identifier: GPL-2.0 */
/* BPF programs as XDP sees them: the shim attaches none. */
#ifndef _LINUX_BPF_H
#define _LINUX_BPF_H
#include <linux/types.h>
#include <linux/netdevice.h>
struct bpf_prog;
struct xsk_buff_pool;
enum bpf_netdev_command { XDP_SETUP_PROG, XDP_SETUP_PROG_HW, BPF_OFFLOAD_MAP_ALLOC, BPF_OFFLOAD_MAP_FREE, XDP_SETUP_XSK_POOL };
struct netdev_bpf {
	enum bpf_netdev_command command;
	union {
		struct {
			u32 flags;
			struct bpf_prog *prog;
			struct netlink_ext_ack *extack;
		};
		struct {
			struct xsk_buff_pool *pool;
			u16 queue_id;
		} xsk;
	};
};
void bpf_prog_put(struct bpf_prog *prog);
#endif
