/* SPDX-License-Identifier: GPL-2.0 */
/* PTP hardware clocks: registered with the shim, index 0. */
#ifndef _LINUX_PTP_CLOCK_KERNEL_H
#define _LINUX_PTP_CLOCK_KERNEL_H
#include <linux/types.h>
#include <linux/time.h>
#include <linux/device.h>
struct ptp_clock;
struct ptp_clock_time {
	s64 sec;
	u32 nsec;
	u32 reserved;
};
struct ptp_perout_request {
	union {
		struct ptp_clock_time start;
		struct ptp_clock_time phase;
	};
	struct ptp_clock_time period;
	unsigned int index;
	unsigned int flags;
	union {
		struct ptp_clock_time on;
		unsigned int rsv[4];
	};
};
struct ptp_extts_request {
	unsigned int index;
	unsigned int flags;
	unsigned int rsv[2];
};
struct ptp_clock_request {
	enum { PTP_CLK_REQ_EXTTS, PTP_CLK_REQ_PEROUT, PTP_CLK_REQ_PPS } type;
	union {
		struct ptp_extts_request extts;
		struct ptp_perout_request perout;
	};
};
struct ptp_pin_desc;
struct ptp_system_timestamp;
struct ptp_clock_info {
	struct module *owner;
	char name[32];
	s32 max_adj;
	int n_alarm, n_ext_ts, n_per_out, n_pins, pps;
	struct ptp_pin_desc *pin_config;
	int (*adjfine)(struct ptp_clock_info *ptp, long scaled_ppm);
	int (*adjphase)(struct ptp_clock_info *ptp, s32 phase);
	int (*adjtime)(struct ptp_clock_info *ptp, s64 delta);
	int (*gettime64)(struct ptp_clock_info *ptp, struct timespec64 *ts);
	int (*gettimex64)(struct ptp_clock_info *ptp, struct timespec64 *ts, struct ptp_system_timestamp *sts);
	int (*settime64)(struct ptp_clock_info *p, const struct timespec64 *ts);
	int (*enable)(struct ptp_clock_info *ptp, struct ptp_clock_request *request, int on);
	int (*verify)(struct ptp_clock_info *ptp, unsigned int pin, int func, unsigned int chan);
	long (*do_aux_work)(struct ptp_clock_info *ptp);
};
#define gettime gettime64
#define settime settime64
enum ptp_clock_events { PTP_CLOCK_ALARM, PTP_CLOCK_EXTTS, PTP_CLOCK_EXTOFF, PTP_CLOCK_PPS, PTP_CLOCK_PPSUSR };
struct ptp_clock_event {
	int type;
	int index;
	union {
		u64 timestamp;
		s64 offset;
	};
};
#define PTP_PEROUT_ONE_SHOT (1 << 0)
#define PTP_PEROUT_DUTY_CYCLE (1 << 1)
#define PTP_PEROUT_PHASE (1 << 2)
struct ptp_clock *ptp_clock_register(struct ptp_clock_info *info, struct device *parent);
int ptp_clock_unregister(struct ptp_clock *ptp);
void ptp_clock_event(struct ptp_clock *ptp, struct ptp_clock_event *event);
int ptp_clock_index(struct ptp_clock *ptp);
static inline long scaled_ppm_to_ppb(long ppm)
{
	s64 ppb = 1 + ppm;
	ppb *= 125;
	ppb >>= 13;
	return (long)ppb;
}
#endif
