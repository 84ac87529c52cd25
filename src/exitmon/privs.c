// SPDX-License-Identifier: GPL-2.0-or-later
/* Dropping to CAP_NET_ADMIN alone, after the order chrony uses: keep
 * capabilities across setuid, switch ids, then cut every set. */
#include "privs.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

int privs_check_user(const char *user)
{
	return getpwnam(user) ? 0 : -ENOENT;
}

static int switch_user(const char *user, const char **what)
{
	struct passwd *pw = getpwnam(user);

	if (!pw)
		return *what = "look up the user", -ENOENT;
	if (prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L) < 0)
		return *what = "keep capabilities", -errno;
	if (setgroups(0, NULL) < 0)
		return *what = "clear supplementary groups", -errno;
	if (setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0)
		return *what = "set the group id", -errno;
	if (setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0)
		return *what = "set the user id", -errno;
	prctl(PR_SET_KEEPCAPS, 0L, 0L, 0L, 0L);
	return 0;
}

/* Cut the bounding set to CAP_NET_ADMIN; needs CAP_SETPCAP, which a
 * process started with an ambient capability does not have (systemd's
 * CapabilityBoundingSet= does the same there). */
static void cut_bounding_set(void)
{
	cap_value_t setpcap = CAP_SETPCAP;
	cap_t caps = cap_get_proc();
	cap_value_t c;

	if (!caps)
		return;
	if (cap_set_flag(caps, CAP_EFFECTIVE, 1, &setpcap, CAP_SET) == 0 &&
	    cap_set_proc(caps) == 0) {
		for (c = 0; c <= CAP_LAST_CAP; c++)
			if (c != CAP_NET_ADMIN)
				cap_drop_bound(c);
	}
	cap_free(caps);
}

static int keep_only_net_admin(void)
{
	cap_value_t net_admin = CAP_NET_ADMIN;
	cap_t caps = cap_init();	/* every set empty */
	int r = 0;

	if (!caps)
		return -errno;
	if (cap_set_flag(caps, CAP_PERMITTED, 1, &net_admin, CAP_SET) < 0 ||
	    cap_set_proc(caps) < 0)
		r = -errno;
	cap_free(caps);
	return r;
}

int privs_drop(const char *user, const char **what)
{
	int r;

	if (user && (r = switch_user(user, what)) < 0)
		return r;
	cut_bounding_set();
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0L, 0L, 0L) < 0 &&
	    errno != EINVAL)
		return *what = "clear ambient capabilities", -errno;
	if ((r = keep_only_net_admin()) < 0)
		return *what = "reduce capabilities to CAP_NET_ADMIN", r;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return *what = "set no-new-privs", -errno;
	return 0;
}
