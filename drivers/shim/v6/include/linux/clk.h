/* SPDX-License-Identifier: GPL-2.0 */
/* Clocks: the board's clocks by name, with rates and prepare/enable counts. */
#ifndef _LINUX_CLK_H
#define _LINUX_CLK_H
#include <linux/types.h>
struct clk;
struct device;
struct clk *devm_clk_get(struct device *dev, const char *id);
struct clk *devm_clk_get_optional(struct device *dev, const char *id);
struct clk *clk_get(struct device *dev, const char *id);
void clk_put(struct clk *clk);
int clk_prepare(struct clk *clk);
void clk_unprepare(struct clk *clk);
int clk_enable(struct clk *clk);
void clk_disable(struct clk *clk);
unsigned long clk_get_rate(struct clk *clk);
int clk_set_rate(struct clk *clk, unsigned long rate);
static inline int clk_prepare_enable(struct clk *clk)
{
	int ret = clk_prepare(clk);
	if (ret)
		return ret;
	ret = clk_enable(clk);
	if (ret)
		clk_unprepare(clk);
	return ret;
}
static inline void clk_disable_unprepare(struct clk *clk)
{
	clk_disable(clk);
	clk_unprepare(clk);
}
#endif
