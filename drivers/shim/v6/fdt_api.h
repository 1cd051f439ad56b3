/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drivers/shim/v6/fdt_api.h: the libfdt calls the shim's device tree uses
 * (libfdt, Debian libfdt-dev; the shared object links -lfdt). Declared
 * here because the shim is built without the host's headers.
 */
#ifndef FECSIM_FDT_API_H
#define FECSIM_FDT_API_H
#include <linux/types.h>
int fdt_check_header(const void *fdt);
int fdt_path_offset(const void *fdt, const char *path);
const void *fdt_getprop(const void *fdt, int nodeoffset, const char *name, int *lenp);
int fdt_node_offset_by_phandle(const void *fdt, u32 phandle);
int fdt_subnode_offset(const void *fdt, int parentoffset, const char *name);
const char *fdt_get_name(const void *fdt, int nodeoffset, int *lenp);
int fdt_parent_offset(const void *fdt, int nodeoffset);
int fdt_node_check_compatible(const void *fdt, int nodeoffset, const char *compatible);
int fdt_node_offset_by_compatible(const void *fdt, int startoffset, const char *compatible);
int fdt_first_subnode(const void *fdt, int offset);
int fdt_next_subnode(const void *fdt, int offset);
const char *fdt_get_alias(const void *fdt, const char *name);
int fdt_stringlist_search(const void *fdt, int nodeoffset, const char *property, const char *string);
const char *fdt_stringlist_get(const void *fdt, int nodeoffset, const char *property, int index, int *lenp);
#endif
