// SPDX-License-Identifier: GPL-2.0-or-later
/* User names, one lookup per uid (see stat_user.h). */
#include "stat_user.h"

#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>

static bool by_getpwuid(uint32_t uid, char *buf, size_t cap)
{
	struct passwd *pw = getpwuid((uid_t)uid);

	if (!pw)
		return false;
	snprintf(buf, cap, "%s", pw->pw_name);
	return true;
}

static void look_up(struct stat_users *u, uint32_t uid, char *buf, size_t cap)
{
	if (!(u->lookup ? u->lookup : by_getpwuid)(uid, buf, cap))
		snprintf(buf, cap, "%" PRIu32, uid);
}

static size_t slot(const struct stat_user *e, size_t cap, uint32_t uid)
{
	size_t i = (uid * 2654435761u) & (cap - 1);

	while (e[i].used && e[i].uid != uid)
		i = (i + 1) & (cap - 1);
	return i;
}

/* Twice the room (the first table at first): 0, or -1 out of memory. */
static int grow(struct stat_users *u)
{
	size_t cap = u->cap ? u->cap * 2 : STAT_USERS_CAP0, i;
	struct stat_user *e = calloc(cap, sizeof(*e));

	if (!e)
		return -1;
	for (i = 0; i < u->cap; i++)
		if (u->e[i].used)
			e[slot(e, cap, u->e[i].uid)] = u->e[i];
	free(u->e);
	u->e = e;
	u->cap = cap;
	return 0;
}

const char *stat_user_name(struct stat_users *u, uint32_t uid)
{
	static char spill[STAT_USER_NAME];
	size_t i;

	if (u->cap) {
		i = slot(u->e, u->cap, uid);
		if (u->e[i].used)
			return u->e[i].name;
	}
	/* Three quarters full keeps the probes short. */
	if ((u->n + 1 > u->cap / 4 * 3) && grow(u) < 0) {
		look_up(u, uid, spill, sizeof(spill));
		return spill;
	}
	i = slot(u->e, u->cap, uid);
	look_up(u, uid, u->e[i].name, sizeof(u->e[i].name));
	u->e[i].uid = uid;
	u->e[i].used = true;
	u->n++;
	return u->e[i].name;
}

void stat_user_free(struct stat_users *u)
{
	free(u->e);
	u->e = NULL;
	u->n = u->cap = 0;
}
