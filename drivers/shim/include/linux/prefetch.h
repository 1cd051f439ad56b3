/* SPDX-License-Identifier: GPL-2.0 */
/* PLD: starts a line fill without waiting for it. */
#ifndef _LINUX_PREFETCH_H
#define _LINUX_PREFETCH_H
#include "../../simhost.h"
static inline void prefetch(const void *p) { simhost_prefetch(p); }
static inline void prefetchw(const void *p) { simhost_prefetch(p); }
#endif
