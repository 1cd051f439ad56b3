/* SPDX-License-Identifier: GPL-2.0 */
/* memcpy/memset of kernel code go through the modelled caches. */
#ifndef _LINUX_STRING_H
#define _LINUX_STRING_H
#include <linux/types.h>
#include "../../simhost.h"
static inline void *memcpy(void *d, const void *s, size_t n) { simhost_copy(d, s, n); return d; }
static inline void *memmove(void *d, const void *s, size_t n) { simhost_copy(d, s, n); return d; }
static inline void *memset(void *d, int c, size_t n) { simhost_fill(d, c, n); return d; }
/* Prefixed so that they never interpose the C library's for the simulator. */
#define memcmp shim_memcmp
#define strlen shim_strlen
#define strlcpy shim_strlcpy
#define strcmp shim_strcmp
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strlcpy(char *d, const char *s, size_t n);
int strcmp(const char *a, const char *b);
#endif
