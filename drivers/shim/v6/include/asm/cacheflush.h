/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_CACHEFLUSH_H
#define _ASM_CACHEFLUSH_H
void flush_cache_all(void);
#endif
