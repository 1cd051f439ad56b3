/* SPDX-License-Identifier: GPL-2.0 */
/* Mutexes: one task of the simulated kernel holds one at a time. */
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H
#include <linux/types.h>
struct mutex {
	int locked;
	const char *name;
};
#define mutex_init(m) __mutex_init((m), #m)
void __mutex_init(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
int mutex_trylock(struct mutex *m);
static inline bool mutex_is_locked(struct mutex *m) { return m->locked; }
static inline void mutex_destroy(struct mutex *m) { (void)m; }
#define DEFINE_MUTEX(n) struct mutex n = { 0, #n }
#endif
