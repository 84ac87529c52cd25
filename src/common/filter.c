#include "filter.h"

#include <fnmatch.h>

uint32_t record_tgid(const struct exit_record *r)
{
	if (r->type == REC_TGID)
		return r->id;
	return rec_has(r, F_TGID) ? (uint32_t)rec_get(r, F_TGID) : 0;
}

bool filter_match(const struct filter *f, const struct exit_record *r,
		  const struct exit_record *who)
{
	if (f->by_tgid && record_tgid(r) != f->tgid)
		return false;
	if (f->by_uid && (!rec_has(who, F_UID) || rec_get(who, F_UID) != f->uid))
		return false;
	if (f->comm_glob && fnmatch(f->comm_glob, who->comm, 0) != 0)
		return false;
	return true;
}
