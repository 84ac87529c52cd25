#include "filter.h"

#include <fnmatch.h>
#include <string.h>

/* The record's thread group id, or 0 when the record does not say. */
static uint32_t tgid_of(const struct exit_record *r)
{
	if (r->type == REC_TGID)
		return r->id;
	return rec_has(r, F_TGID) ? (uint32_t)rec_get(r, F_TGID) : 0;
}

bool filter_match(const struct filter *f, const struct exit_record *r,
		  const struct exit_record *who)
{
	if (f->by_tgid && tgid_of(r) != f->tgid)
		return false;
	if (f->by_uid && (!rec_has(who, F_UID) || rec_get(who, F_UID) != f->uid))
		return false;
	if (f->comm_glob && fnmatch(f->comm_glob, who->comm, 0) != 0)
		return false;
	return true;
}

/* The end of a bracket expression starting at p (just past '['), or NULL
 * when it is not closed.  A ']' first (after '!' or '^') is a member, and
 * so is anything inside [:class:], [.sym.] and [=equiv=]. */
static const char *bracket_end(const char *p)
{
	if (*p == '!' || *p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++) {
		if (p[0] == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *e = strchr(p + 2, p[1]);

			while (e && e[1] != ']')
				e = strchr(e + 1, p[1]);
			if (!e)
				return NULL;
			p = e + 1;
		}
	}
	return *p ? p : NULL;
}

bool filter_glob_valid(const char *glob)
{
	const char *p;

	for (p = glob; *p; p++) {
		if (*p == '\\') {
			if (!*++p)
				return false;	/* a trailing backslash */
			continue;
		}
		if (*p == '[' && !(p = bracket_end(p + 1)))
			return false;
	}
	return true;
}
