#include "stat_select.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "numparse.h"

bool stat_select_exit_time(const struct exit_record *r, int64_t *t)
{
	uint64_t bt = rec_has(r, F_BTIME64) ? rec_get(r, F_BTIME64)
					    : rec_get(r, F_BTIME);

	if (!bt)
		return false;
	*t = (int64_t)(bt + rec_get(r, F_ETIME) / 1000000);
	return true;
}

bool stat_select_match(const struct select *s, const struct exit_record *r,
		  const struct exit_record *who)
{
	int64_t t;

	if (!filter_match(&s->f, r, who))
		return false;
	if (s->by_exitcode && rec_get(who, F_EXITCODE) != s->exitcode)
		return false;
	/* wait(2) status: a signal number in the low 7 bits. */
	if (s->signalled && (rec_get(who, F_EXITCODE) & 0x7f) == 0)
		return false;
	if (s->since_set || s->until_set) {
		if (!stat_select_exit_time(who, &t))
			return false;
		if ((s->since_set && t < s->since) || (s->until_set && t >= s->until))
			return false;
	}
	return true;
}

int stat_select_parse_time(const char *s, int64_t *out)
{
	static const char *const forms[] = {
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
		"%Y-%m-%d",
	};
	uint64_t v;

	if (parse_u64(s[0] == '@' ? s + 1 : s, 0, INT64_MAX, &v) == 0) {
		*out = (int64_t)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct tm tm;
		const char *end;

		memset(&tm, 0, sizeof(tm));
		end = strptime(s, forms[i], &tm);
		if (end && *end == '\0') {
			tm.tm_isdst = -1;
			*out = (int64_t)mktime(&tm);
			return 0;
		}
	}
	return -EINVAL;
}
