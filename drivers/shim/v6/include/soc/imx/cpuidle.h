/* SPDX-License-Identifier: GPL-2.0 */
/* i.MX6Q cpuidle hooks (ERR006687 workaround): the shim has no cpuidle. */
#ifndef _SOC_IMX_CPUIDLE_H
#define _SOC_IMX_CPUIDLE_H
void imx6q_cpuidle_fec_irqs_used(void);
void imx6q_cpuidle_fec_irqs_unused(void);
#endif
