/* SPDX-License-Identifier: GPL-2.0 */
/* MDIO buses and devices. */
#ifndef _LINUX_MDIO_H
#define _LINUX_MDIO_H
#include <linux/mii.h>
#include <linux/device.h>
#include <linux/mutex.h>
#define PHY_MAX_ADDR 32
#define MII_BUS_ID_SIZE 61
#define MII_ADDR_C45 (1 << 30)
#define MII_DEVADDR_C45_SHIFT 16
#define MII_REGADDR_C45_MASK 0xffff
struct mii_bus;
struct mdio_device {
	struct device dev;
	struct mii_bus *bus;
	int addr;
};
struct mii_bus {
	const char *name;
	char id[MII_BUS_ID_SIZE];
	void *priv;
	int (*read)(struct mii_bus *bus, int addr, int regnum);
	int (*write)(struct mii_bus *bus, int addr, int regnum, u16 val);
	int (*read_c45)(struct mii_bus *bus, int addr, int devnum, int regnum);
	int (*write_c45)(struct mii_bus *bus, int addr, int devnum, int regnum, u16 val);
	int (*reset)(struct mii_bus *bus);
	struct mutex mdio_lock;
	struct device *parent;
	u32 phy_mask;
	int irq[PHY_MAX_ADDR];
	struct mdio_device *mdio_map[PHY_MAX_ADDR];
	struct device dev;
	int registered;
};
#define MDIO_MMD_PCS 3
#define MDIO_MMD_AN 7
struct mii_bus *mdiobus_alloc_size(size_t size);
static inline struct mii_bus *mdiobus_alloc(void) { return mdiobus_alloc_size(0); }
void mdiobus_free(struct mii_bus *bus);
void mdiobus_unregister(struct mii_bus *bus);
struct phy_device *mdiobus_get_phy(struct mii_bus *bus, int addr);
bool mdiobus_is_registered_device(struct mii_bus *bus, int addr);
int mdiobus_read(struct mii_bus *bus, int addr, u32 regnum);
int mdiobus_write(struct mii_bus *bus, int addr, u32 regnum, u16 val);
static inline u32 mdiobus_c45_addr(int devad, u16 regnum) { return MII_ADDR_C45 | devad << MII_DEVADDR_C45_SHIFT | regnum; }
static inline u16 mdiobus_c45_regad(u32 regnum) { return regnum & MII_REGADDR_C45_MASK; }
static inline u16 mdiobus_c45_devad(u32 regnum) { return (regnum >> MII_DEVADDR_C45_SHIFT) & 0x1f; }
#endif
