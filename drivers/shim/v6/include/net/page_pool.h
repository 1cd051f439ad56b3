/* SPDX-License-Identifier: GPL-2.0 */
#include <net/page_pool/helpers.h>
