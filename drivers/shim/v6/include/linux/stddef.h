/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_STDDEF_H
#define _LINUX_STDDEF_H
#undef NULL
#define NULL ((void *)0)
#define offsetof(t, m) __builtin_offsetof(t, m)
#define sizeof_field(t, m) sizeof(((t *)0)->m)
#define offsetofend(t, m) (offsetof(t, m) + sizeof_field(t, m))
/* A group of members that can also be addressed as one struct. */
#define struct_group(name, ...) \
	union { struct { __VA_ARGS__ }; struct { __VA_ARGS__ } name; }
#define DECLARE_FLEX_ARRAY(type, name) struct { struct { } __empty_##name; type name[]; }
#endif
