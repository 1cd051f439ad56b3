/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BPF_TRACE_H
#define _LINUX_BPF_TRACE_H
#include <linux/filter.h>
void trace_xdp_exception(const struct net_device *dev, const struct bpf_prog *prog, u32 act);
#endif
