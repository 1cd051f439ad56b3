/* SPDX-License-Identifier: GPL-2.0 */
/* CONFIG_HZ=100, as the CPU model's tick (see models/cpu). */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H
#include "../../simhost.h"
#define HZ 100
#define jiffies (simhost_jiffies())
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define msecs_to_jiffies(ms) ((unsigned long)(((ms) * HZ + 999) / 1000))
#define usecs_to_jiffies(us) ((unsigned long)(((us) * HZ + 999999) / 1000000))
#endif
