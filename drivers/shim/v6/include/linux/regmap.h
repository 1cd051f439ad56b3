/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_REGMAP_H
#define _LINUX_REGMAP_H
#include <linux/types.h>
struct regmap;
int regmap_update_bits_base(struct regmap *map, unsigned int reg, unsigned int mask, unsigned int val,
			    bool *change, bool async, bool force);
static inline int regmap_update_bits(struct regmap *map, unsigned int reg, unsigned int mask, unsigned int val)
{
	return regmap_update_bits_base(map, reg, mask, val, NULL, false, false);
}
#endif
