// SPDX-License-Identifier: GPL-2.0-or-later
/* exitstat: what exitmon's records say, summarised the way sa(8) does for
 * acct(5), or listed the way lastcomm(1) does. */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stat_group.h"
#include "stat_input.h"
#include "log.h"
#include "parse.h"
#include "opts.h"
#include "recseen.h"
#include "stat_report.h"
#include "stat_select.h"

enum {
	OPT_COMM = 256, OPT_EXITCODE, OPT_SIGNALLED, OPT_SINCE, OPT_UNTIL,
	OPT_SORT, OPT_REVERSE, OPT_TOP, OPT_LIST, OPT_MAX_GROUPS,
};

/* -s, -r, -n and -l are exitgen's or exitsweep's (shape, rate, count,
 * listener): here those options are long-only. */

static const struct opt_desc options[] = {
	{ "group", 'g', "KEY", "one line per comm (default), uid, tgid or exe (executable)" },
	{ "sort", OPT_SORT, "COLUMN", "sort by this summary column (default cpu_run_virtual_ns), largest first" },
	{ "reverse", OPT_REVERSE, NULL, "smallest first" },
	{ "top", OPT_TOP, "N", "only the first N groups (TOTAL still counts all)" },
	{ "percent", 'c', NULL, "exits, CPU and elapsed time also as a share of the total" },
	{ "max-groups", OPT_MAX_GROUPS, "N", "hold at most N groups (default 1000000); past that the smaller half folds into an other row" },
	{ "list", OPT_LIST, NULL, "list single exits (lastcomm style) instead of a summary" },
	{ "format", 'f', "FMT", "table (default), or csv or jsonl under exitmon's names" },
	{ "comm", OPT_COMM, "GLOB", "only commands matching GLOB" },
	{ "user", 'u', "USER", "only this user (name or uid)" },
	{ "exitcode", OPT_EXITCODE, "N", "only exits with this wait status (exit code x 256, or the signal)" },
	{ "signalled", OPT_SIGNALLED, NULL, "only tasks killed by a signal" },
	{ "since", OPT_SINCE, "TIME", "only tasks that exited at or after TIME (@EPOCH or YYYY-MM-DD[ HH:MM[:SS]])" },
	{ "until", OPT_UNTIL, "TIME", "only tasks that exited before TIME" },
	{ "help", 'h', NULL, "show this help and exit" },
	{ "version", 'V', NULL, "show the version and exit" },
};
#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

struct cfg {
	enum group_by by;
	struct report_opts rep;
	struct select sel;
	bool list;
	size_t max_groups;
	const char *summary_opt;	/* the last option that only a summary takes */
	char **files;
	int nfiles;
};

struct run {
	const struct cfg *cfg;
	struct groups g;
	struct recseen seen;	/* (run, seq) read: a repeat is dropped */
	uint64_t selected, nomem, nomem_seen;
};

static void parse_group(const char *s, enum group_by *by)
{
	static const char *const names[] = { "comm", "uid", "tgid", "exe" };

	for (int i = 0; i < 4; i++) {
		if (strcmp(s, names[i]) == 0) {
			*by = (enum group_by)i;
			return;
		}
	}
	opts_bad_value("group", s, "comm, uid, tgid or exe");
}

static void parse_user(const char *s, struct filter *f)
{
	struct passwd *pw = getpwnam(s);

	f->by_uid = true;
	if (pw)
		f->uid = pw->pw_uid;
	else if (parse_u32(s, 0, UINT32_MAX, &f->uid) < 0)
		opts_bad_value("user", s, "no such user: give a name or a uid");
}

static void parse_time(const char *opt, const char *s, int64_t *t, bool *set)
{
	int r = stat_select_parse_time(s, t);

	if (r == -ENOENT)
		opts_bad_value(opt, s, "no such local time: a daylight-saving "
			       "change skips it; give @EPOCH");
	if (r == -EEXIST)
		opts_bad_value(opt, s, "that local time happens twice: a "
			       "daylight-saving change repeats it; give @EPOCH");
	if (r < 0)
		opts_bad_value(opt, s, "@EPOCH or YYYY-MM-DD[ HH:MM[:SS]]");
	*set = true;
}

static void parse_option(void *ctx, int key, const char *arg)
{
	struct cfg *c = ctx;

	switch (key) {
	case 'g': case OPT_SORT: case OPT_REVERSE: case OPT_TOP: case 'c':
	case OPT_MAX_GROUPS:
		c->summary_opt = key == 'g' ? "-g" : key == 'c' ? "-c"
			: key == OPT_SORT ? "--sort" : key == OPT_REVERSE ? "--reverse"
			: key == OPT_TOP ? "--top" : "--max-groups";
		break;
	}
	switch (key) {
	case 'g': parse_group(arg, &c->by); break;
	case OPT_SORT:
		if (stat_group_stat_from_name(arg, &c->rep.sort) < 0)
			opts_bad_value("sort", arg, "a summary column: exits, "
				       "cpu_us, elapsed_us, cpu_delay_ns, ...; "
				       "see exitstat(1)");
		break;
	case OPT_REVERSE: c->rep.ascending = true; break;
	case OPT_TOP:
		c->rep.top = (size_t)opts_u64("top", arg, 1, SIZE_MAX,
					      "a count of 1 or more");
		break;
	case 'c': c->rep.percent = true; break;
	case OPT_MAX_GROUPS:
		c->max_groups = (size_t)opts_u64("max-groups", arg, 1, UINT32_MAX - 1,
						 "a count of 1 to 4294967294");
		break;
	case OPT_LIST: c->list = true; break;
	case 'f':
		if (stat_report_fmt_from_name(arg, &c->rep.fmt) < 0)
			opts_bad_value("format", arg, "table, csv or jsonl");
		break;
	case OPT_COMM: c->sel.f.comm_glob = filter_comm_opt(arg); break;
	case 'u': parse_user(arg, &c->sel.f); break;
	case OPT_EXITCODE:
		c->sel.exitcode = opts_u32("exitcode", arg, 0, UINT32_MAX,
					   "a wait status such as 0, 256 or 9");
		c->sel.by_exitcode = true;
		break;
	case OPT_SIGNALLED: c->sel.signalled = true; break;
	case OPT_SINCE: parse_time("since", arg, &c->sel.since, &c->sel.since_set); break;
	case OPT_UNTIL: parse_time("until", arg, &c->sel.until, &c->sel.until_set); break;
	case 'h':
		opts_help(stdout, "Usage: exitstat [OPTION]... [FILE]...\n"
			  "Summarise or list the exit records exitmon wrote (CSV, JSON "
			  "lines or pcap; gzip'd or not; - or none: standard input).",
			  options, N_OPTIONS);
		printf("\nSee exitstat(1) for the summary columns, the time formats "
		       "and examples.\n");
		exit(0);
	case 'V': printf("exitstat %s\n", EXITMON_VERSION); exit(0);
	}
}

static void parse_args(int argc, char **argv, struct cfg *c)
{
	static char *stdin_only[] = { "-" };
	int first = opts_parse(argc, argv, options, N_OPTIONS, parse_option, c);

	c->files = first < argc ? argv + first : stdin_only;
	c->nfiles = first < argc ? argc - first : 1;
	/* A listing is neither grouped nor sorted: say so, not ignore it. */
	if (c->list && c->summary_opt)
		log_usage_die("%s is for a summary; --list lists every selected exit "
			  "in input order: drop one of the two", c->summary_opt);
	if (c->sel.since_set && c->sel.until_set && c->sel.since >= c->sel.until)
		log_warn("--since is not before --until: no exit can be selected, "
			"the %s will be empty", c->list ? "listing" : "summary");
}

static void on_record(void *arg, const struct exit_record *r,
		      const struct exit_record *who)
{
	struct run *run = arg;
	int k = recseen_add(&run->seen, &r->meta);

	if (k == 0)
		return;	/* read before: counted once */
	run->nomem_seen += k < 0;
	if (!stat_select_match(&run->cfg->sel, r, who))
		return;
	run->selected++;
	if (run->cfg->list) {
		if (r->type == REC_PID || run->cfg->rep.fmt != REP_TABLE)
			stat_report_list_record(stdout, run->cfg->rep.fmt, r);
		return;
	}
	if (stat_group_add(&run->g, r) < 0)
		run->nomem++;
}

/* The figures behind the table, to stderr: what was read, what was not. */
static void read_note(const struct run *run, const struct in_counts *n)
{
	if (run->cfg->list)
		return;
	char rep[64] = "";

	if (run->seen.repeats)
		snprintf(rep, sizeof(rep), " (%llu of them repeats, dropped)",
			 (unsigned long long)run->seen.repeats);
	fprintf(stderr, "%s: %llu records read%s, %llu selected: %llu pid rows "
		"summed, %llu tgid rows not summed (their threads are pid rows); "
		"%llu implausible records kept out of the delay columns\n",
		log_progname, (unsigned long long)n->records, rep,
		(unsigned long long)run->selected,
		(unsigned long long)run->g.total.exits,
		(unsigned long long)run->g.tgid_rows,
		(unsigned long long)run->g.total.implausible);
}

/* How many groups are marked partial, and what that says.  The filter of
 * folded keys never misses a key that came back, but takes a new key for
 * a folded one now and then: none marked means none came back; some
 * marked is an upper bound, and the filter's error, under 1 in 8192 of
 * the groups begun after a fold, says how many may be new. */
static const char *partial_say(const struct groups *g, size_t partial,
			       char *buf, size_t len)
{
	uint64_t err = (g->tested >> GROUP_PARTIAL_ERR_SHIFT) + 1;

	if (!partial)
		snprintf(buf, len, "0 groups marked partial: none came back "
			 "after a fold");
	else
		snprintf(buf, len, "%zu groups marked partial may have come "
			 "back after a fold (their earlier exits in other): at "
			 "most that many did, as the filter of folded keys wrongly "
			 "marks fewer than 1 in %llu of the groups begun after a "
			 "fold (%llu here: up to about %llu of those marked may "
			 "be new)",
			 partial, 1ull << GROUP_PARTIAL_ERR_SHIFT,
			 (unsigned long long)g->tested,
			 (unsigned long long)err);
	return buf;
}

/* What the figures cannot show by themselves: groups folded to stay in
 * bounded memory, sums that reached the largest 64-bit number. */
static void limit_notes(const struct run *run)
{
	const struct groups *g = &run->g;
	size_t partial = 0, saturated = 0;
	char say[320];

	for (size_t i = 0; i < g->n; i++) {
		partial += !!(stat_group_at(g, i)->flags & G_PARTIAL);
		saturated += !!(stat_group_at(g, i)->flags & G_SATURATED);
	}
	if (g->folded)
		log_warn("more groups than --max-groups %zu: %llu folded into the "
			"other row (the smaller half by %s each time the table "
			"filled); %s", g->max, (unsigned long long)g->folded,
			stat_group_stat_name(g->fold_by),
			partial_say(g, partial, say, sizeof(say)));
	if (g->total.flags & G_SATURATED)
		log_warn("sums reached %llu, the largest a 64-bit figure holds, "
			"and stopped there (in TOTAL%s and %zu groups): read "
			"those figures as at least that", (unsigned long long)UINT64_MAX,
			g->other.flags & G_SATURATED ? ", other" : "", saturated);
}


/* The regular files read so far, by device and inode. */
struct read_ids {
	struct read_id { dev_t dev; ino_t ino; const char *path; } *id;
	int n;
};

/* Whether path is a regular file an earlier argument already named
 * (twice, or through a link): said, and read once, since counting one
 * file's records twice would double every figure without a word.
 * Otherwise noted in ids (sized for every argument; none: not checked). */
static bool read_before(struct read_ids *ids, const char *path)
{
	struct stat st;

	if (!ids->id || strcmp(path, "-") == 0 || stat(path, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return false;
	for (int j = 0; j < ids->n; j++) {
		if (ids->id[j].dev == st.st_dev && ids->id[j].ino == st.st_ino) {
			log_warn("%s is the same file as %s: read once", path,
				 ids->id[j].path);
			return true;
		}
	}
	ids->id[ids->n++] = (struct read_id){ st.st_dev, st.st_ino, path };
	return false;
}

/* Records of this file whose (run, seq) an earlier record had (this
 * file's or another's): dropped, said as the malformed lines are. */
static void repeats_note(const char *path, uint64_t k)
{
	if (k)
		log_warn("%s: %llu record%s with the run and seq of one read "
			"before (shipped twice: a rotated file beside its copy, a "
			"line sent again) dropped: each is counted once", path,
			(unsigned long long)k, k == 1 ? "" : "s");
}

/* Every input in turn: the exit status, or its negative when no input
 * could be read at all. */
static int read_all(struct run *run, struct in_counts *n)
{
	const struct cfg *c = run->cfg;
	static const enum rec_field need[] = {
		F_UID, F_EXITCODE, F_FLAG, F_BTIME, F_BTIME64, F_ETIME, F_UTIME,
		F_STIME, F_CPU_RUN_VIRTUAL_TOTAL, F_CPU_COUNT, F_CPU_DELAY_TOTAL, F_BLKIO_COUNT,
		F_BLKIO_DELAY_TOTAL, F_SWAPIN_COUNT, F_SWAPIN_DELAY_TOTAL,
		F_CPU_DELAY_MAX, F_BLKIO_DELAY_MAX, F_SWAPIN_DELAY_MAX,
		F_READ_BYTES, F_WRITE_BYTES, F_HIWATER_RSS, F_EXE_DEV,
		F_EXE_INODE, F_FREEPAGES_DELAY_TOTAL, F_THRASHING_DELAY_TOTAL,
		F_COMPACT_DELAY_TOTAL, F_WPCOPY_DELAY_TOTAL, F_IRQ_DELAY_TOTAL,
		/* record_implausible() reads these too */
		F_CPU_DELAY_MAX_TS, F_BLKIO_DELAY_MAX_TS, F_SWAPIN_DELAY_MAX_TS,
		F_FREEPAGES_DELAY_MAX_TS, F_THRASHING_DELAY_MAX_TS,
		F_COMPACT_DELAY_MAX_TS, F_WPCOPY_DELAY_MAX_TS, F_IRQ_DELAY_MAX_TS,
	};
	struct read_ids ids = { calloc((size_t)c->nfiles, sizeof(*ids.id)), 0 };
	struct recread proto;
	int status = 0, read_ok = 0;

	recread_init(&proto);
	/* A listing writes whole records; a summary needs a few columns. */
	if (!c->list)
		recread_want_fields(&proto, need, sizeof(need) / sizeof(need[0]));
	for (int i = 0; i < c->nfiles; i++) {
		uint64_t repeats;
		int r;

		if (read_before(&ids, c->files[i]))
			continue;
		repeats = run->seen.repeats;
		r = stat_input_read(c->files[i], &proto, on_record, run, n);
		repeats_note(c->files[i], run->seen.repeats - repeats);
		if (r < 0 && r != -EPROTO)
			log_warn("cannot read %s: %s", c->files[i], strerror(-r));
		if (r < 0)
			status = EXIT_RUNTIME;
		else
			read_ok++;
	}
	/* An input that ended early: its records before are kept, and the
	 * status says the answer is short. */
	if (status == 0 && n->incomplete)
		status = STAT_EXIT_INCOMPLETE;
	free(ids.id);
	/* Nothing readable: no empty table that looks like an answer. */
	return read_ok ? status : -EXIT_RUNTIME;
}

int main(int argc, char **argv)
{
	struct cfg c = { .by = BY_COMM, .rep = { .sort = S_CPU_RUN },
			 .max_groups = GROUP_MAX_DEFAULT };
	struct in_counts n = { 0 };
	struct run run = { .cfg = &c };
	int status;

	log_init(argv[0]);
	recseen_init(&run.seen);
	parse_args(argc, argv, &c);
	if (stat_group_init(&run.g, c.by, c.max_groups, c.rep.sort) < 0)
		log_die(EXIT_RUNTIME, "out of memory");
	/* --reverse shows the smallest groups: folding must keep those. */
	run.g.keep_smallest = c.rep.ascending;
	if (c.list)
		stat_report_list_header(stdout, c.rep.fmt);
	status = read_all(&run, &n);
	if (status < 0)
		return -status;
	if (run.nomem_seen)
		log_warn("out of memory for the runs and seq read: %llu records "
			"counted without knowing whether they were read before",
			(unsigned long long)run.nomem_seen);
	if (run.nomem)
		log_die(EXIT_RUNTIME, "out of memory after %llu groups",
		    (unsigned long long)run.g.n);
	if (!c.list && stat_report_summary(stdout, &run.g, &c.rep) < 0)
		log_die(EXIT_RUNTIME, "out of memory sorting %zu groups", run.g.n);
	read_note(&run, &n);
	if (!c.list)
		limit_notes(&run);
	stat_group_free(&run.g);
	recseen_free(&run.seen);
	if (fflush(stdout) != 0 || ferror(stdout))
		log_die(EXIT_RUNTIME, "cannot write the output: %s", strerror(errno));
	return status;
}
