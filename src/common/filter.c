// SPDX-License-Identifier: GPL-2.0-or-later
#include "filter.h"

#include <fnmatch.h>
#include <string.h>

#include "opts.h"

/* The one rule, on what both kinds of record say: tgid_ok/uid_ok false
 * when the record does not say (then only a filter on it fails). */
static bool match(const struct filter *f, bool tgid_ok, uint32_t tgid,
		  bool uid_ok, uint64_t uid, const char *comm, size_t comm_len)
{
	char name[TS_COMM_LEN + 1];

	if (f->by_tgid && (tgid_ok ? tgid : 0) != f->tgid)
		return false;
	if (f->by_uid && (!uid_ok || uid != f->uid))
		return false;
	if (f->comm_glob) {
		memcpy(name, comm, comm_len);
		name[comm_len] = '\0';
		if (fnmatch(f->comm_glob, name, 0) != 0)
			return false;
	}
	return true;
}

bool filter_match(const struct filter *f, const struct exit_record *r,
		  const struct exit_record *who)
{
	bool pid = r->type != REC_TGID;

	return match(f, !pid || rec_has(r, F_TGID),
		     pid ? (uint32_t)rec_get(r, F_TGID) : r->id,
		     rec_has(who, F_UID), rec_get(who, F_UID), who->comm,
		     strnlen(who->comm, TS_COMM_LEN));
}

bool filter_match_view(const struct filter *f, const struct exit_view *r,
		       const struct exit_view *who)
{
	uint32_t tgid = 0;
	bool tgid_ok = f->by_tgid && view_tgid(r, &tgid);
	bool uid_ok = f->by_uid && view_has(who, F_UID);

	return match(f, tgid_ok, tgid, uid_ok,
		     uid_ok ? view_get(who, F_UID) : 0, who->comm,
		     who->comm_len < TS_COMM_LEN ? who->comm_len : TS_COMM_LEN);
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

const char *filter_comm_opt(const char *arg)
{
	if (!filter_glob_valid(arg))
		opts_bad_value("comm", arg, "an unclosed [ or a trailing \\; "
			       "write \\[ for a [ itself");
	return arg;
}
