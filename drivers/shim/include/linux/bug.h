/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H
#include "../../simhost.h"
#define BUG() simhost_stop("BUG() at %s:%d", __FILE__, __LINE__)
#define BUG_ON(c) do { if (__builtin_expect(!!(c), 0)) BUG(); } while (0)
#define WARN_ON(c) ({ int __w = !!(c); if (__w) simhost_log(4, "WARN_ON(%s) at %s:%d", #c, __FILE__, __LINE__); __w; })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)
#endif
