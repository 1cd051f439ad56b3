/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PREFETCH_H
#define _LINUX_PREFETCH_H
void simhost_prefetch(const void *p);
#define prefetch(p) simhost_prefetch(p)
#endif
