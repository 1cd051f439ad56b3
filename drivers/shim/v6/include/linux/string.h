/* SPDX-License-Identifier: GPL-2.0 */
/* memcpy/memset of kernel code go through the modelled caches. */
#ifndef _LINUX_STRING_H
#define _LINUX_STRING_H
#include <linux/types.h>
void simhost_copy(void *dst, const void *src, size_t n);
void simhost_fill(void *dst, int c, size_t n);
static inline void *memcpy(void *d, const void *s, size_t n) { simhost_copy(d, s, n); return d; }
static inline void *memmove(void *d, const void *s, size_t n) { simhost_copy(d, s, n); return d; }
static inline void *memset(void *d, int c, size_t n) { simhost_fill(d, c, n); return d; }
/* Prefixed so that they never interpose the C library's for the simulator. */
#define memcmp shim_memcmp
#define strlen shim_strlen
#define strnlen shim_strnlen
#define strcmp shim_strcmp
#define strncmp shim_strncmp
#define strscpy shim_strscpy
#define strlcpy shim_strlcpy
#define strncpy shim_strncpy
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
ssize_t strscpy(char *d, const char *s, size_t n);
size_t strlcpy(char *d, const char *s, size_t n);
char *strncpy(char *d, const char *s, size_t n);
#endif
