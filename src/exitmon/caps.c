// SPDX-License-Identifier: GPL-2.0-or-later
/* Capabilities via libcap. */
#include "caps.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>

bool caps_have_net_admin(void)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;

	if (!caps)
		return false;
	cap_get_flag(caps, CAP_NET_ADMIN, CAP_PERMITTED, &v);
	cap_free(caps);
	return v == CAP_SET;
}

int caps_net_admin_effective(bool on)
{
	cap_value_t cap = CAP_NET_ADMIN;
	cap_t caps = cap_get_proc();
	int r = 0;

	if (!caps)
		return -errno;
	if (cap_set_flag(caps, CAP_EFFECTIVE, 1, &cap, on ? CAP_SET : CAP_CLEAR) < 0 ||
	    cap_set_proc(caps) < 0)
		r = -errno;
	cap_free(caps);
	return r;
}

bool caps_only_net_admin(void)
{
	cap_value_t net_admin = CAP_NET_ADMIN;
	cap_t want = cap_init(), have = cap_get_proc();
	bool same = false;

	if (want && have &&
	    cap_set_flag(want, CAP_PERMITTED, 1, &net_admin, CAP_SET) == 0)
		same = cap_compare(want, have) == 0;
	cap_free(want);
	cap_free(have);
	return same;
}
