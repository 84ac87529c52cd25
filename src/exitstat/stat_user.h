/* SPDX-License-Identifier: GPL-2.0-or-later */
/* User names for uids, looked up once per uid: getpwuid() may open
 * /etc/passwd or ask a directory server over the network each time, and a
 * listing has a line per record.  The table grows with the uids seen (a
 * few dozen bytes each); only if memory runs out are names looked up
 * without being kept. */
#ifndef EXITSTAT_STAT_USER_H
#define EXITSTAT_STAT_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STAT_USERS_CAP0 1024	/* the table's first size (a power of two) */
#define STAT_USER_NAME 33

/* The user's name into buf (cap bytes), or false: no such user. */
typedef bool stat_user_lookup_fn(uint32_t uid, char *buf, size_t cap);

struct stat_user {
	bool used;
	uint32_t uid;
	char name[STAT_USER_NAME];
};

/* Zeroed to start (lookup set or NULL: getpwuid()). */
struct stat_users {
	stat_user_lookup_fn *lookup;
	size_t n, cap;			/* cap: a power of two, or 0 */
	struct stat_user *e;
};

/* uid's name, or uid in decimal when it has none.  The text stays valid
 * until the next call. */
const char *stat_user_name(struct stat_users *u, uint32_t uid);
/* The table's memory. */
void stat_user_free(struct stat_users *u);

#endif
