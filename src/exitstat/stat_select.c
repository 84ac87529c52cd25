// SPDX-License-Identifier: GPL-2.0-or-later
#include "stat_select.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "exitcode.h"
#include "parse.h"

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
	/* An unknown exit code (a file without the column) matches neither. */
	if ((s->by_exitcode || s->signalled) && !rec_has(who, F_EXITCODE))
		return false;
	if (s->by_exitcode && rec_get(who, F_EXITCODE) != s->exitcode)
		return false;
	if (s->signalled && !exitcode_signal(rec_get(who, F_EXITCODE)))
		return false;
	if (s->since_set || s->until_set) {
		if (!stat_select_exit_time(who, &t))
			return false;
		if ((s->since_set && t < s->since) || (s->until_set && t >= s->until))
			return false;
	}
	return true;
}

/* s has exactly the shape of tmpl: 'd' a digit, any other byte itself. */
static bool shaped(const char *s, const char *tmpl)
{
	for (; *tmpl; s++, tmpl++) {
		if (*tmpl == 'd' ? (*s < '0' || *s > '9') : *s != *tmpl)
			return false;
	}
	return *s == '\0';
}

static int num(const char *s, int len)
{
	int v = 0;

	while (len-- > 0)
		v = v * 10 + (*s++ - '0');
	return v;
}

/* Whether want (a local time) read with isdst comes back as itself: its
 * time then, or -1. */
static int64_t as_isdst(const struct tm *want, int isdst)
{
	struct tm tm = *want;
	time_t t;

	tm.tm_isdst = isdst;
	t = mktime(&tm);
	return t != (time_t)-1 && tm.tm_isdst == isdst &&
	       tm.tm_hour == want->tm_hour && tm.tm_min == want->tm_min &&
	       tm.tm_sec == want->tm_sec && tm.tm_mday == want->tm_mday ? t : -1;
}

/* A local time a daylight-saving change skips (-ENOENT) or repeats
 * (-EEXIST) names no one moment: refused, not guessed. */
static int dst_check(const struct tm *want)
{
	int64_t winter = as_isdst(want, 0), summer = as_isdst(want, 1);

	if (winter < 0 && summer < 0)
		return -ENOENT;
	if (winter >= 0 && summer >= 0 && winter != summer)
		return -EEXIST;
	return 0;
}

/* Local "YYYY-MM-DD[ HH:MM[:SS]]" (or T for the space), exactly: no blank
 * before or after, no day the month does not have (mktime would quietly
 * make 2026-02-30 into March 2nd). */
static int parse_local(const char *s, int64_t *out)
{
	static const char *const forms[] = {
		"dddd-dd-dd", "dddd-dd-dd dd:dd", "dddd-dd-dd dd:dd:dd",
	};
	char buf[32];
	struct tm tm, want;
	size_t len = strlen(s);
	bool ok = false;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len + 1);
	if (len > 10 && buf[10] == 'T')
		buf[10] = ' ';
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		ok = ok || shaped(buf, forms[i]);
	if (!ok)
		return -EINVAL;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = num(buf, 4) - 1900;
	tm.tm_mon = num(buf + 5, 2) - 1;
	tm.tm_mday = num(buf + 8, 2);
	if (len > 10) {
		tm.tm_hour = num(buf + 11, 2);
		tm.tm_min = num(buf + 14, 2);
	}
	if (len > 16)
		tm.tm_sec = num(buf + 17, 2);
	if (tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 59)
		return -EINVAL;
	tm.tm_isdst = -1;
	want = tm;
	*out = (int64_t)mktime(&tm);
	/* A day past the month's end comes back as another date. */
	if (tm.tm_year != want.tm_year || tm.tm_mon != want.tm_mon ||
	    tm.tm_mday != want.tm_mday)
		return -EINVAL;
	return dst_check(&want);
}

int stat_select_parse_time(const char *s, int64_t *out)
{
	uint64_t v;

	/* Seconds only with their @: a bare 20261202 is no epoch time anyone
	 * means (it would select everything since 1970).  parse_u64 refuses
	 * blanks, signs and trailing junk. */
	if (s[0] == '@') {
		if (parse_u64(s + 1, 0, INT64_MAX, &v) < 0)
			return -EINVAL;
		*out = (int64_t)v;
		return 0;
	}
	return parse_local(s, out);
}
