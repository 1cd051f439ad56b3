/* SPDX-License-Identifier: GPL-2.0 */
/* Doubly linked lists (struct list_head: linux/types.h), as <linux/list.h>. */
#ifndef _LINUX_LIST_H
#define _LINUX_LIST_H
#include <linux/types.h>
#define LIST_HEAD_INIT(name) { &(name), &(name) }
static inline void INIT_LIST_HEAD(struct list_head *l) { l->next = l->prev = l; }
static inline int list_empty(const struct list_head *h) { return h->next == h; }
static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}
static inline void list_del_init(struct list_head *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	INIT_LIST_HEAD(e);
}
#endif
