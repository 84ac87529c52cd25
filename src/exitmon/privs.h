/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Least privilege for the long-running collector: whatever it started
 * with (root, a file capability, an ambient capability), it ends holding
 * CAP_NET_ADMIN in the permitted set only, raised into the effective set
 * just around the requests that need it; no inheritable or ambient
 * capabilities, a bounding set of CAP_NET_ADMIN where it can be cut, and
 * no-new-privs. */
#ifndef EXITMON_PRIVS_H
#define EXITMON_PRIVS_H

/* Switch to `user` (NULL: stay) with supplementary groups cleared, then
 * reduce capabilities as above.  Returns 0 or -errno; *what names the step
 * that failed. */
int privs_drop(const char *user, const char **what);
/* Look the user up now (before anything is set up): 0 or -ENOENT. */
int privs_check_user(const char *user);

#endif
