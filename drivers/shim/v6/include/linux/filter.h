/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FILTER_H
#define _LINUX_FILTER_H
#include <linux/bpf.h>
#include <net/xdp.h>
u32 bpf_prog_run_xdp(const struct bpf_prog *prog, struct xdp_buff *xdp);
int xdp_do_redirect(struct net_device *dev, struct xdp_buff *xdp, struct bpf_prog *prog);
void xdp_do_flush(void);
void bpf_warn_invalid_xdp_action(struct net_device *dev, struct bpf_prog *prog, u32 act);
#endif
