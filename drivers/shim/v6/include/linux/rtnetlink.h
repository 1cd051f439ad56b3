/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RTNETLINK_H
#define _LINUX_RTNETLINK_H
void rtnl_lock(void);
void rtnl_unlock(void);
int rtnl_is_locked(void);
#define ASSERT_RTNL() do { } while (0)
#endif
