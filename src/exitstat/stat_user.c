/* User names, one lookup per uid (see stat_user.h). */
#include "stat_user.h"

#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>

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

const char *stat_user_name(struct stat_users *u, uint32_t uid)
{
	static char spill[STAT_USER_NAME];
	size_t i = (uid * 2654435761u) & (STAT_USERS_CAP - 1);

	while (u->e[i].used && u->e[i].uid != uid)
		i = (i + 1) & (STAT_USERS_CAP - 1);
	if (u->e[i].used)
		return u->e[i].name;
	/* Three quarters full: keep the probes short, stop keeping. */
	if (u->n >= STAT_USERS_CAP / 4 * 3) {
		look_up(u, uid, spill, sizeof(spill));
		return spill;
	}
	look_up(u, uid, u->e[i].name, sizeof(u->e[i].name));
	u->e[i].uid = uid;
	u->e[i].used = true;
	u->n++;
	return u->e[i].name;
}
