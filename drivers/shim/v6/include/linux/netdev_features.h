/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_NETDEV_FEATURES_H
#define _LINUX_NETDEV_FEATURES_H
#include <linux/types.h>
typedef u64 netdev_features_t;
#define NETIF_F_SG (1ULL << 0)
#define NETIF_F_IP_CSUM (1ULL << 1)
#define NETIF_F_HW_CSUM (1ULL << 3)
#define NETIF_F_IPV6_CSUM (1ULL << 4)
#define NETIF_F_HIGHDMA (1ULL << 5)
#define NETIF_F_HW_VLAN_CTAG_TX (1ULL << 7)
#define NETIF_F_HW_VLAN_CTAG_RX (1ULL << 8)
#define NETIF_F_TSO (1ULL << 16)
#define NETIF_F_RXCSUM (1ULL << 29)
#define NETIF_F_CSUM_MASK (NETIF_F_IP_CSUM | NETIF_F_HW_CSUM | NETIF_F_IPV6_CSUM)
#endif
