/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_DELAY_H
#define _LINUX_DELAY_H
#include "../../simhost.h"
static inline void udelay(unsigned long us) { simhost_delay_ns(us * 1000ULL); }
static inline void ndelay(unsigned long ns) { simhost_delay_ns(ns); }
static inline void usleep_range(unsigned long lo, unsigned long hi) { (void)hi; simhost_sleep_ns(lo * 1000ULL); }
static inline void msleep(unsigned int ms) { simhost_sleep_ns(ms * 1000000ULL); }
#endif
