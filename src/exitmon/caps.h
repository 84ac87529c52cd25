/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CAP_NET_ADMIN handling through libcap: the collector needs it only for
 * the netlink requests that register and deregister the listener. */
#ifndef EXITMON_CAPS_H
#define EXITMON_CAPS_H

#include <stdbool.h>

/* CAP_NET_ADMIN in the permitted set (so it can be made effective). */
bool caps_have_net_admin(void);
/* Raise or lower CAP_NET_ADMIN in the effective set; 0 or -errno. */
int caps_net_admin_effective(bool on);
/* True when CAP_NET_ADMIN is the only capability held in any set. */
bool caps_only_net_admin(void);

#endif
