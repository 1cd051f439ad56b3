// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/shim/v6/phy.c: MDIO buses and a phylib for clause-22 PHYs at the
 * shim's 6.x level. The MAC driver's mii_bus reaches the PHY through its
 * own read/write callbacks (the ENET's MMFR register); of_mdiobus_register
 * probes the addresses the device tree names (a PHY is there if its ID
 * registers read neither 0 nor 0xffff). The PHY runs phylib's generic
 * state machine as delayed work polled every second (PHY_POLL): start
 * configures autonegotiation (ADVERTISE, CTRL1000, BMCR), the link state
 * comes from BMSR, speed and duplex from the partner's pages (LPA,
 * STAT1000) and pause from both pause bits; each change calls the
 * driver's adjust_link.
 */
#include <linux/delay.h>
#include <linux/mii.h>
#include <linux/of_mdio.h>
#include <linux/phy.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "fecsim_v6.h"

#define PHY_STATE_TIME HZ	/* poll period */

struct mii_bus *mdiobus_alloc_size(size_t size)
{
	struct mii_bus *bus = kzalloc(sizeof(*bus) + size, GFP_KERNEL);
	if (!bus)
		return NULL;
	if (size)
		bus->priv = bus + 1;
	mutex_init(&bus->mdio_lock);
	for (int i = 0; i < PHY_MAX_ADDR; i++)
		bus->irq[i] = PHY_POLL;
	return bus;
}

void mdiobus_free(struct mii_bus *bus) { kfree(bus); }

int mdiobus_read(struct mii_bus *bus, int addr, u32 regnum)
{
	int v;
	mutex_lock(&bus->mdio_lock);
	v = bus->read(bus, addr, regnum);
	mutex_unlock(&bus->mdio_lock);
	return v;
}

int mdiobus_write(struct mii_bus *bus, int addr, u32 regnum, u16 val)
{
	int v;
	mutex_lock(&bus->mdio_lock);
	v = bus->write(bus, addr, regnum, val);
	mutex_unlock(&bus->mdio_lock);
	return v;
}

int phy_read(struct phy_device *phydev, u32 regnum) { return mdiobus_read(phydev->mdio.bus, phydev->mdio.addr, regnum); }
int phy_write(struct phy_device *phydev, u32 regnum, u16 val)
{
	return mdiobus_write(phydev->mdio.bus, phydev->mdio.addr, regnum, val);
}

static const struct phy_driver genphy_driver = { .name = "Generic PHY", .phy_id = 0 };
static void phy_state_machine(struct work_struct *work);

/* Abilities from BMSR and ESTATUS (genphy_read_abilities). */
static void phy_read_abilities(struct phy_device *phydev)
{
	int bmsr = phy_read(phydev, MII_BMSR), es = 0;
	if (bmsr < 0)
		return;
	bitmap_zero(phydev->supported, __ETHTOOL_LINK_MODE_MASK_NBITS);
	linkmode_set_bit(ETHTOOL_LINK_MODE_TP_BIT, phydev->supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_MII_BIT, phydev->supported);
	if (bmsr & BMSR_ANEGCAPABLE)
		linkmode_set_bit(ETHTOOL_LINK_MODE_Autoneg_BIT, phydev->supported);
	if (bmsr & 0x4000)
		linkmode_set_bit(ETHTOOL_LINK_MODE_100baseT_Full_BIT, phydev->supported);
	if (bmsr & 0x2000)
		linkmode_set_bit(ETHTOOL_LINK_MODE_100baseT_Half_BIT, phydev->supported);
	if (bmsr & 0x1000)
		linkmode_set_bit(ETHTOOL_LINK_MODE_10baseT_Full_BIT, phydev->supported);
	if (bmsr & 0x0800)
		linkmode_set_bit(ETHTOOL_LINK_MODE_10baseT_Half_BIT, phydev->supported);
	if (bmsr & BMSR_ESTATEN)
		es = phy_read(phydev, MII_ESTATUS);
	if (es > 0 && (es & ESTATUS_1000_TFULL))
		linkmode_set_bit(ETHTOOL_LINK_MODE_1000baseT_Full_BIT, phydev->supported);
	if (es > 0 && (es & ESTATUS_1000_THALF))
		linkmode_set_bit(ETHTOOL_LINK_MODE_1000baseT_Half_BIT, phydev->supported);
	memcpy(phydev->advertising, phydev->supported, sizeof(phydev->advertising));
}

static struct phy_device *phy_create(struct mii_bus *bus, int addr, u32 id, struct device_node *np)
{
	struct phy_device *phydev = kzalloc(sizeof(*phydev), GFP_KERNEL);
	char *name = kzalloc(MII_BUS_ID_SIZE + 4, GFP_KERNEL);
	if (!phydev || !name)
		return NULL;
	phydev->mdio.bus = bus;
	phydev->mdio.addr = addr;
	snprintf(name, MII_BUS_ID_SIZE + 4, PHY_ID_FMT, bus->id, addr);
	phydev->mdio.dev.init_name = name;
	phydev->mdio.dev.of_node = of_node_get(np);
	phydev->mdio.dev.parent = bus->parent;
	phydev->phy_id = id;
	phydev->drv = &genphy_driver;
	phydev->irq = PHY_POLL;
	phydev->state = PHY_DOWN;
	phydev->speed = SPEED_UNKNOWN;
	phydev->duplex = DUPLEX_UNKNOWN;
	phydev->autoneg = AUTONEG_ENABLE;
	mutex_init(&phydev->lock);
	INIT_DELAYED_WORK(&phydev->state_queue, phy_state_machine);
	phy_read_abilities(phydev);
	return phydev;
}

/* The buses registered by this run's drivers, to find a PHY by node or name. */
static struct mii_bus *g_buses[4];

static void bus_note(struct mii_bus *bus)
{
	for (int i = 0; i < 4; i++) {
		if (g_buses[i] == bus)
			return;
		if (!g_buses[i]) {
			g_buses[i] = bus;
			return;
		}
	}
}

/* Registers the bus and probes the PHYs of the node's children (reg = address). */
int of_mdiobus_register(struct mii_bus *bus, struct device_node *np)
{
	struct device_node *child;
	if (!bus->read || !bus->write)
		return -EINVAL;
	bus->registered = 1;
	bus_note(bus);
	if (!np)
		return 0;
	for_each_available_child_of_node(np, child) {
		u32 addr;
		int id1, id2;
		if (of_property_read_u32(child, "reg", &addr) || addr >= PHY_MAX_ADDR)
			continue;
		id1 = mdiobus_read(bus, addr, MII_PHYSID1);
		id2 = mdiobus_read(bus, addr, MII_PHYSID2);
		if (id1 < 0 || id2 < 0 || (id1 == 0xffff && id2 == 0xffff) || (id1 == 0 && id2 == 0)) {
			dev_info(bus->parent, "no PHY at %s address %u", bus->id, addr);
			continue;
		}
		bus->mdio_map[addr] = (struct mdio_device *)phy_create(bus, addr, (u32)id1 << 16 | (u32)id2, child);
		if (!bus->mdio_map[addr])
			return -ENOMEM;
	}
	return 0;
}

void mdiobus_unregister(struct mii_bus *bus) { bus->registered = 0; }

struct phy_device *mdiobus_get_phy(struct mii_bus *bus, int addr)
{
	return addr >= 0 && addr < PHY_MAX_ADDR ? (struct phy_device *)bus->mdio_map[addr] : NULL;
}

bool mdiobus_is_registered_device(struct mii_bus *bus, int addr) { return mdiobus_get_phy(bus, addr) != NULL; }

struct phy_device *of_phy_find_device(struct device_node *phy_np)
{
	for (int i = 0; i < 4 && g_buses[i]; i++)
		for (int a = 0; a < PHY_MAX_ADDR; a++) {
			struct phy_device *p = mdiobus_get_phy(g_buses[i], a);
			if (p && p->mdio.dev.of_node == phy_np)
				return p;
		}
	return NULL;
}

static struct phy_device *phy_attach(struct net_device *dev, struct phy_device *phydev,
				     void (*handler)(struct net_device *), phy_interface_t interface)
{
	if (phydev->attached_dev)
		return ERR_PTR(-EBUSY);
	phydev->attached_dev = dev;
	phydev->adjust_link = handler;
	phydev->interface = interface;
	phydev->state = PHY_READY;
	dev->phydev = phydev;
	return phydev;
}

struct phy_device *of_phy_connect(struct net_device *dev, struct device_node *phy_np,
				  void (*hndlr)(struct net_device *), u32 flags, phy_interface_t iface)
{
	struct phy_device *phydev = of_phy_find_device(phy_np);
	if (!phydev)
		return NULL;
	phydev->dev_flags |= flags;
	phydev = phy_attach(dev, phydev, hndlr, iface);
	if (IS_ERR(phydev) || phy_init_hw(phydev))
		return NULL;
	return phydev;
}

struct phy_device *phy_connect(struct net_device *dev, const char *bus_id,
			       void (*handler)(struct net_device *), phy_interface_t interface)
{
	for (int i = 0; i < 4 && g_buses[i]; i++)
		for (int a = 0; a < PHY_MAX_ADDR; a++) {
			struct phy_device *p = mdiobus_get_phy(g_buses[i], a);
			if (p && !strcmp(phydev_name(p), bus_id)) {
				p = phy_attach(dev, p, handler, interface);
				if (!IS_ERR(p) && phy_init_hw(p))
					return ERR_PTR(-EIO);
				return p;
			}
		}
	return ERR_PTR(-ENODEV);
}

void phy_disconnect(struct phy_device *phydev)
{
	phy_stop(phydev);
	if (phydev->attached_dev)
		phydev->attached_dev->phydev = NULL;
	phydev->attached_dev = NULL;
	phydev->adjust_link = NULL;
	phydev->state = PHY_DOWN;
}

/* Soft reset (BMCR_RESET, which the PHY clears when done). */
int phy_init_hw(struct phy_device *phydev)
{
	int bmcr;
	if (phy_write(phydev, MII_BMCR, BMCR_RESET) < 0)
		return -EIO;
	for (int i = 0; i < 12; i++) {
		bmcr = phy_read(phydev, MII_BMCR);
		if (bmcr < 0)
			return -EIO;
		if (!(bmcr & BMCR_RESET))
			return 0;
		msleep(50);
	}
	return -ETIMEDOUT;
}

int phy_set_max_speed(struct phy_device *phydev, u32 max_speed)
{
	if (max_speed < SPEED_1000) {
		linkmode_clear_bit(ETHTOOL_LINK_MODE_1000baseT_Full_BIT, phydev->supported);
		linkmode_clear_bit(ETHTOOL_LINK_MODE_1000baseT_Half_BIT, phydev->supported);
	}
	if (max_speed < SPEED_100) {
		linkmode_clear_bit(ETHTOOL_LINK_MODE_100baseT_Full_BIT, phydev->supported);
		linkmode_clear_bit(ETHTOOL_LINK_MODE_100baseT_Half_BIT, phydev->supported);
	}
	memcpy(phydev->advertising, phydev->supported, sizeof(phydev->advertising));
	return 0;
}

void phy_remove_link_mode(struct phy_device *phydev, u32 link_mode)
{
	linkmode_clear_bit(link_mode, phydev->supported);
	linkmode_clear_bit(link_mode, phydev->advertising);
}

void phy_support_sym_pause(struct phy_device *phydev)
{
	linkmode_clear_bit(ETHTOOL_LINK_MODE_Asym_Pause_BIT, phydev->supported);
	linkmode_set_bit(ETHTOOL_LINK_MODE_Pause_BIT, phydev->supported);
	linkmode_clear_bit(ETHTOOL_LINK_MODE_Asym_Pause_BIT, phydev->advertising);
	linkmode_set_bit(ETHTOOL_LINK_MODE_Pause_BIT, phydev->advertising);
}

void phy_set_sym_pause(struct phy_device *phydev, bool rx, bool tx, bool autoneg)
{
	linkmode_clear_bit(ETHTOOL_LINK_MODE_Pause_BIT, phydev->advertising);
	if (rx && tx && autoneg)
		linkmode_set_bit(ETHTOOL_LINK_MODE_Pause_BIT, phydev->advertising);
}

/* The PHY model has no EEE registers: nothing is supported, nothing advertised. */
void phy_support_eee(struct phy_device *phydev)
{
	memcpy(phydev->advertising_eee, phydev->supported_eee, sizeof(phydev->advertising_eee));
}

/* The generic PHY needs no reset after the MAC's reference clock starts
 * (no PHY_RST_AFTER_CLK_EN driver flag): nothing to do. */
int phy_reset_after_clk_enable(struct phy_device *phydev)
{
	(void)phydev;
	return 0;
}

void phy_attached_info(struct phy_device *phydev)
{
	netdev_info(phydev->attached_dev, "attached PHY driver %s (mii_bus:phy_addr=%s, irq=POLL)",
		    phydev->drv->name, phydev_name(phydev));
}

const char *phy_speed_to_str(int speed)
{
	switch (speed) {
	case SPEED_10: return "10Mbps";
	case SPEED_100: return "100Mbps";
	case SPEED_1000: return "1Gbps";
	default: return "Unknown";
	}
}

const char *phy_duplex_to_str(unsigned int duplex)
{
	return duplex == DUPLEX_FULL ? "Full" : duplex == DUPLEX_HALF ? "Half" : "Unknown";
}

void phy_print_status(struct phy_device *phydev)
{
	struct net_device *nd = phydev->attached_dev;
	if (phydev->link)
		netdev_info(nd, "Link is Up - %s/%s - flow control %s", phy_speed_to_str(phydev->speed),
			    phy_duplex_to_str(phydev->duplex), phydev->pause ? "rx/tx" : "off");
	else
		netdev_info(nd, "Link is Down");
}

/* Autonegotiation as configured: ADVERTISE and CTRL1000 from advertising, restart. */
static int phy_config_aneg(struct phy_device *phydev)
{
	const unsigned long *adv = phydev->advertising;
	int a = ADVERTISE_CSMA, g = 0;
	if (linkmode_test_bit(ETHTOOL_LINK_MODE_10baseT_Half_BIT, adv)) a |= ADVERTISE_10HALF;
	if (linkmode_test_bit(ETHTOOL_LINK_MODE_10baseT_Full_BIT, adv)) a |= ADVERTISE_10FULL;
	if (linkmode_test_bit(ETHTOOL_LINK_MODE_100baseT_Half_BIT, adv)) a |= ADVERTISE_100HALF;
	if (linkmode_test_bit(ETHTOOL_LINK_MODE_100baseT_Full_BIT, adv)) a |= ADVERTISE_100FULL;
	if (linkmode_test_bit(ETHTOOL_LINK_MODE_Pause_BIT, adv)) a |= ADVERTISE_PAUSE_CAP;
	if (linkmode_test_bit(ETHTOOL_LINK_MODE_Asym_Pause_BIT, adv)) a |= ADVERTISE_PAUSE_ASYM;
	if (linkmode_test_bit(ETHTOOL_LINK_MODE_1000baseT_Half_BIT, adv)) g |= ADVERTISE_1000HALF;
	if (linkmode_test_bit(ETHTOOL_LINK_MODE_1000baseT_Full_BIT, adv)) g |= ADVERTISE_1000FULL;
	if (phy_write(phydev, MII_ADVERTISE, a) < 0 || phy_write(phydev, MII_CTRL1000, g) < 0)
		return -EIO;
	return phy_write(phydev, MII_BMCR, BMCR_ANENABLE | BMCR_ANRESTART) < 0 ? -EIO : 0;
}

int phy_start_aneg(struct phy_device *phydev) { return phy_config_aneg(phydev); }

/* Link, speed, duplex and pause from the PHY (genphy_read_status). */
static int phy_read_status(struct phy_device *phydev)
{
	int bmsr, lpa, adv, stat1000, ctrl1000;
	phy_read(phydev, MII_BMSR);	/* the link bit latches low: the second read is current */
	bmsr = phy_read(phydev, MII_BMSR);
	if (bmsr < 0)
		return bmsr;
	phydev->link = (bmsr & BMSR_LSTATUS) && (bmsr & BMSR_ANEGCOMPLETE);
	phydev->speed = SPEED_UNKNOWN;
	phydev->duplex = DUPLEX_UNKNOWN;
	phydev->pause = phydev->asym_pause = 0;
	if (!phydev->link)
		return 0;
	lpa = phy_read(phydev, MII_LPA);
	adv = phy_read(phydev, MII_ADVERTISE);
	stat1000 = phy_read(phydev, MII_STAT1000);
	ctrl1000 = phy_read(phydev, MII_CTRL1000);
	if (lpa < 0 || adv < 0 || stat1000 < 0 || ctrl1000 < 0)
		return -EIO;
	/* The partner's 1000BASE-T bits sit two places left of ours in CTRL1000. */
	if ((ctrl1000 & ADVERTISE_1000FULL) && (stat1000 & LPA_1000FULL)) {
		phydev->speed = SPEED_1000;
		phydev->duplex = DUPLEX_FULL;
	} else if ((ctrl1000 & ADVERTISE_1000HALF) && (stat1000 & LPA_1000HALF)) {
		phydev->speed = SPEED_1000;
		phydev->duplex = DUPLEX_HALF;
	} else if (adv & lpa & LPA_100FULL) {
		phydev->speed = SPEED_100;
		phydev->duplex = DUPLEX_FULL;
	} else if (adv & lpa & LPA_100HALF) {
		phydev->speed = SPEED_100;
		phydev->duplex = DUPLEX_HALF;
	} else if (adv & lpa & LPA_10FULL) {
		phydev->speed = SPEED_10;
		phydev->duplex = DUPLEX_FULL;
	} else {
		phydev->speed = SPEED_10;
		phydev->duplex = DUPLEX_HALF;
	}
	if (phydev->duplex == DUPLEX_FULL) {
		phydev->pause = !!(lpa & LPA_PAUSE_CAP);
		phydev->asym_pause = !!(lpa & LPA_PAUSE_ASYM);
	}
	return 0;
}

/* One run of the state machine (phy_state_machine), then the next poll. */
static void phy_state_machine(struct work_struct *work)
{
	struct phy_device *phydev = container_of(to_delayed_work(work), struct phy_device, state_queue);
	int old_link = phydev->link;
	phydev->state_machine_runs++;
	mutex_lock(&phydev->lock);
	switch (phydev->state) {
	case PHY_UP:
		if (phy_config_aneg(phydev)) {
			phydev->state = PHY_ERROR;
			break;
		}
		phydev->state = PHY_NOLINK;
		fallthrough;
	case PHY_NOLINK:
	case PHY_RUNNING:
		if (phy_read_status(phydev)) {
			phydev->state = PHY_ERROR;
			break;
		}
		phydev->state = phydev->link ? PHY_RUNNING : PHY_NOLINK;
		break;
	default:
		break;
	}
	mutex_unlock(&phydev->lock);
	if (phydev->link != old_link) {
		if (phydev->link)
			netif_carrier_on(phydev->attached_dev);
		else
			netif_carrier_off(phydev->attached_dev);
		if (phydev->adjust_link)
			phydev->adjust_link(phydev->attached_dev);
	}
	if (phydev->state == PHY_ERROR)
		phydev_err(phydev, "PHY state machine error: MDIO access failed");
	else if (phydev->state != PHY_HALTED && phydev->state != PHY_DOWN && phydev->state != PHY_READY)
		schedule_delayed_work(&phydev->state_queue, PHY_STATE_TIME);
}

void phy_start(struct phy_device *phydev)
{
	if (phydev->state != PHY_READY && phydev->state != PHY_HALTED)
		return;
	phydev->state = PHY_UP;
	mod_delayed_work(NULL, &phydev->state_queue, 0);
}

void phy_stop(struct phy_device *phydev)
{
	int was_up = phydev->link;
	cancel_delayed_work_sync(&phydev->state_queue);
	phydev->state = PHY_HALTED;
	phydev->link = 0;
	if (was_up && phydev->attached_dev) {
		netif_carrier_off(phydev->attached_dev);
		if (phydev->adjust_link)
			phydev->adjust_link(phydev->attached_dev);
	}
}

int phy_ethtool_get_link_ksettings(struct net_device *ndev, struct ethtool_link_ksettings *cmd)
{
	struct phy_device *p = ndev->phydev;
	if (!p)
		return -ENODEV;
	memcpy(cmd->link_modes.supported, p->supported, sizeof(p->supported));
	memcpy(cmd->link_modes.advertising, p->advertising, sizeof(p->advertising));
	cmd->base.speed = p->speed;
	cmd->base.duplex = p->duplex;
	cmd->base.autoneg = p->autoneg;
	cmd->base.port = PORT_MII;
	cmd->base.phy_address = p->mdio.addr;
	return 0;
}

int phy_ethtool_nway_reset(struct net_device *ndev)
{
	return ndev->phydev ? phy_start_aneg(ndev->phydev) : -ENODEV;
}

bool of_phy_is_fixed_link(struct device_node *np)
{
	struct device_node *fl = of_get_child_by_name(np, "fixed-link");
	if (fl) {
		of_node_put(fl);
		return true;
	}
	return of_get_property(np, "fixed-link", NULL) != NULL;
}
