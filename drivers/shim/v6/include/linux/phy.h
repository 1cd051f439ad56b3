/* SPDX-License-Identifier: GPL-2.0 */
/*
 * phylib as a MAC driver sees it: the PHY device on the MAC's MDIO bus,
 * its state machine (polled on delayed work on simulated time) and the
 * adjust_link callback.
 */
#ifndef _LINUX_PHY_H
#define _LINUX_PHY_H
#include <linux/mdio.h>
#include <linux/ethtool.h>
#include <linux/workqueue.h>
#include <linux/netdevice.h>
#include <linux/iopoll.h>
#define PHY_ID_FMT "%s:%02x"
typedef enum {
	PHY_INTERFACE_MODE_NA,
	PHY_INTERFACE_MODE_INTERNAL,
	PHY_INTERFACE_MODE_MII,
	PHY_INTERFACE_MODE_GMII,
	PHY_INTERFACE_MODE_SGMII,
	PHY_INTERFACE_MODE_TBI,
	PHY_INTERFACE_MODE_REVMII,
	PHY_INTERFACE_MODE_RMII,
	PHY_INTERFACE_MODE_REVRMII,
	PHY_INTERFACE_MODE_RGMII,
	PHY_INTERFACE_MODE_RGMII_ID,
	PHY_INTERFACE_MODE_RGMII_RXID,
	PHY_INTERFACE_MODE_RGMII_TXID,
	PHY_INTERFACE_MODE_MAX,
} phy_interface_t;
static inline bool phy_interface_mode_is_rgmii(phy_interface_t m)
{
	return m >= PHY_INTERFACE_MODE_RGMII && m <= PHY_INTERFACE_MODE_RGMII_TXID;
}
#define phy_interface_is_rgmii(phydev) phy_interface_mode_is_rgmii((phydev)->interface)
enum phy_state { PHY_DOWN = 0, PHY_READY, PHY_HALTED, PHY_ERROR, PHY_UP, PHY_RUNNING, PHY_NOLINK, PHY_CABLETEST };
#define PHY_POLL -1
#define PHY_MAC_INTERRUPT -2
struct phy_device;
struct phy_driver {
	const char *name;
	u32 phy_id;
	u32 flags;
};
struct phy_device {
	struct mdio_device mdio;
	const struct phy_driver *drv;
	u32 phy_id;
	enum phy_state state;
	phy_interface_t interface;
	int speed;
	int duplex;
	int port;
	int pause;
	int asym_pause;
	int link;
	int autoneg;
	int irq;
	bool mac_managed_pm;
	bool is_internal;
	bool enable_tx_lpi;
	bool eee_enabled;
	bool suspended;
	__ETHTOOL_DECLARE_LINK_MODE_MASK(supported);
	__ETHTOOL_DECLARE_LINK_MODE_MASK(advertising);
	__ETHTOOL_DECLARE_LINK_MODE_MASK(lp_advertising);
	__ETHTOOL_DECLARE_LINK_MODE_MASK(supported_eee);
	__ETHTOOL_DECLARE_LINK_MODE_MASK(advertising_eee);
	u32 dev_flags;
	struct net_device *attached_dev;
	void (*adjust_link)(struct net_device *dev);
	struct delayed_work state_queue;
	struct mutex lock;
	u32 state_machine_runs;	/* phy_state_machine calls */
};
#define phydev_name(phydev) dev_name(&(phydev)->mdio.dev)
#define phydev_err(phydev, fmt, ...) dev_err(&(phydev)->mdio.dev, fmt, ##__VA_ARGS__)
#define phydev_info(phydev, fmt, ...) dev_info(&(phydev)->mdio.dev, fmt, ##__VA_ARGS__)
struct phy_device *phy_connect(struct net_device *dev, const char *bus_id,
			       void (*handler)(struct net_device *), phy_interface_t interface);
void phy_disconnect(struct phy_device *phydev);
void phy_start(struct phy_device *phydev);
void phy_stop(struct phy_device *phydev);
int phy_start_aneg(struct phy_device *phydev);
int phy_init_hw(struct phy_device *phydev);
void phy_attached_info(struct phy_device *phydev);
void phy_print_status(struct phy_device *phydev);
int phy_set_max_speed(struct phy_device *phydev, u32 max_speed);
void phy_remove_link_mode(struct phy_device *phydev, u32 link_mode);
void phy_support_sym_pause(struct phy_device *phydev);
void phy_set_sym_pause(struct phy_device *phydev, bool rx, bool tx, bool autoneg);
void phy_support_eee(struct phy_device *phydev);
int phy_reset_after_clk_enable(struct phy_device *phydev);
int phy_ethtool_get_eee(struct phy_device *phydev, FECSIM_ETHTOOL_EEE *data);
int phy_ethtool_set_eee(struct phy_device *phydev, FECSIM_ETHTOOL_EEE *data);
int phy_init_eee(struct phy_device *phydev, bool clk_stop_enable);
int phy_ethtool_nway_reset(struct net_device *ndev);
int phy_ethtool_get_link_ksettings(struct net_device *ndev, struct ethtool_link_ksettings *cmd);
int phy_ethtool_set_link_ksettings(struct net_device *ndev, const struct ethtool_link_ksettings *cmd);
int phy_do_ioctl_running(struct net_device *dev, struct ifreq *ifr, int cmd);
int phy_mii_ioctl(struct phy_device *phydev, struct ifreq *ifr, int cmd);
int phy_read(struct phy_device *phydev, u32 regnum);
int phy_write(struct phy_device *phydev, u32 regnum, u16 val);
const char *phy_speed_to_str(int speed);
static inline bool phy_has_hwtstamp(struct phy_device *phydev) { (void)phydev; return false; }
const char *phy_duplex_to_str(unsigned int duplex);
#endif
