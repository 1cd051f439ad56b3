/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drivers/shim/v6/fecsim_v6.h: what the 6.x level of the shim, built into a
 * tree driver's shared object, offers the kernel host (looked up with dlsym
 * by drivers/khost/boot.cc). Plain C types only.
 */
#ifndef FECSIM_V6_H
#define FECSIM_V6_H
struct fecsim_v6_board {
	const char *name;		/* platform device name ("imx6q-fec") */
	const char *dev_name;		/* its device name ("2188000.ethernet") */
	unsigned long long mmio_base, mmio_size;
	unsigned int irq;
};
/* The module's initcall, then the probe of the board's device: 0 or -errno. */
int fecsim_v6_boot(const struct fecsim_v6_board *b);
#endif
