/* User names for uids, looked up once per uid: getpwuid() may open
 * /etc/passwd or ask a directory server over the network each time, and a
 * listing has a line per record.  The cache is a fixed table; past it,
 * names are still looked up, only not kept. */
#ifndef EXITSTAT_STAT_USER_H
#define EXITSTAT_STAT_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STAT_USERS_CAP 1024	/* uids kept (a power of two) */
#define STAT_USER_NAME 33

/* The user's name into buf (cap bytes), or false: no such user. */
typedef bool stat_user_lookup_fn(uint32_t uid, char *buf, size_t cap);

struct stat_users {
	stat_user_lookup_fn *lookup;	/* NULL: getpwuid() */
	size_t n;
	struct {
		bool used;
		uint32_t uid;
		char name[STAT_USER_NAME];
	} e[STAT_USERS_CAP];
};

/* uid's name, or uid in decimal when it has none.  The text stays valid
 * until the next call. */
const char *stat_user_name(struct stat_users *u, uint32_t uid);

#endif
