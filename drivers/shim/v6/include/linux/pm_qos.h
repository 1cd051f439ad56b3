/* SPDX-License-Identifier: GPL-2.0 */
/* CPU latency QoS: the simulated cores have no idle states (a request is kept, has no effect). */
#ifndef _LINUX_PM_QOS_H
#define _LINUX_PM_QOS_H
#include <linux/types.h>
struct pm_qos_request {
	s32 value;
	int active;
};
void cpu_latency_qos_add_request(struct pm_qos_request *req, s32 value);
void cpu_latency_qos_remove_request(struct pm_qos_request *req);
#endif
