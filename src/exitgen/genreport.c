// SPDX-License-Identifier: GPL-2.0-or-later
/* exitgen's report as one key list, in three forms: see genreport.h. */
#include "genreport.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emulation.h"
#include "gen_summary.h"
#include "json_out.h"
#include "safe.h"

static struct rep_item *rep_add(struct replist *l, const char *key, enum rep_type t)
{
	struct rep_item *kv;

	if (l->n >= REP_MAX)
		abort();	/* a programming error: raise REP_MAX */
	kv = &l->item[l->n++];
	memset(kv, 0, sizeof(*kv));
	kv->key = key;
	kv->type = t;
	return kv;
}

static void rep_u64(struct replist *l, const char *key, uint64_t v)
{
	rep_add(l, key, REP_U64)->u = v;
}

void genreport_dbl(struct replist *l, const char *key, double v, int prec)
{
	struct rep_item *kv = rep_add(l, key, REP_DBL);

	kv->d = v == v ? v : 0;		/* never NaN in a report */
	kv->prec = prec;
}

void genreport_str(struct replist *l, const char *key, const char *s)
{
	rep_add(l, key, REP_STR)->s = s;
}

const struct rep_item *genreport_get(const struct replist *l, const char *key)
{
	for (unsigned i = 0; i < l->n; i++)
		if (!strcmp(l->item[i].key, key))
			return &l->item[i];
	return NULL;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double ns_us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

unsigned genreport_cohort_groups(const double *finish, uint64_t n,
				 char *buf, size_t len)
{
	double gap_min;
	unsigned groups = 0;
	uint64_t size = 0;
	size_t used = 0;

	buf[0] = '\0';
	if (n == 0)
		return 0;
	/* A gap splits groups when it is a tenth of the spread and a
	 * hundredth of the whole time: ties within noise stay one group. */
	gap_min = fmax((finish[n - 1] - finish[0]) / 10, finish[n - 1] / 100);
	for (uint64_t i = 0; i < n; i++) {
		size++;
		if (i + 1 < n && !(finish[i + 1] - finish[i] > gap_min &&
				   gap_min > 0))
			continue;
		groups++;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%llu",
						 groups > 1 ? "," : "",
						 (unsigned long long)size);
		size = 0;
	}
	return groups;
}

static const char *mode_name(const struct spawn_config *cfg)
{
	if (cfg->baseline)
		return "baseline";
	if (cfg->cohort)
		return "cohort";
	return cfg->batch ? "batch" : "run";
}

static bool is_saturated(const struct spawn_config *cfg,
			 const struct spawn_result *res, double achieved)
{
	if (cfg->rate <= 0 || cfg->cohort || cfg->baseline)
		return false;
	if (res->stopped_by != STOP_COUNT && res->stopped_by != STOP_DURATION)
		return false;
	return achieved < 0.99 * cfg->rate;
}

static void build_cpu(struct replist *l, const struct spawn_result *res)
{
	double us = tv_s(res->self.ru_utime), ss = tv_s(res->self.ru_stime);
	double uc = tv_s(res->children.ru_utime);
	double sc = tv_s(res->children.ru_stime);

	genreport_dbl(l, GEN_KEY_USER, us + uc, 6);
	genreport_dbl(l, GEN_KEY_SYS, ss + sc, 6);
	genreport_dbl(l, GEN_KEY_USER_SELF, us, 6);
	genreport_dbl(l, GEN_KEY_SYS_SELF, ss, 6);
	genreport_dbl(l, GEN_KEY_USER_CHILDREN, uc, 6);
	genreport_dbl(l, GEN_KEY_SYS_CHILDREN, sc, 6);
}

/* The exact figures beside the tick-sampled split: whole numbers of ns,
 * or of instructions under the instruction clock, which is no time. */
static void build_cpu_exact(struct replist *l, const struct spawn_result *res)
{
	uint64_t total = res->cpu_self + res->cpu_children;

	genreport_str(l, GEN_KEY_CPU_UNIT, emulation_unit());
	rep_u64(l, GEN_KEY_CPU_SELF, res->cpu_self);
	rep_u64(l, GEN_KEY_CPU_CHILDREN, res->cpu_children);
	rep_u64(l, GEN_KEY_CPU_TOTAL, total);
	genreport_dbl(l, GEN_KEY_CPU_PER_EXIT, res->exits ?
		      (double)total / (double)res->exits : 0, 1);
}

/* Both strings live in one allocation the caller frees: the group sizes,
 * then the finish times. */
static int build_cohort(struct replist *l, const struct spawn_result *res,
			char **owned)
{
	const double *f = res->cohort_finish;
	uint64_t n = res->cohort_n;
	size_t glen = 24 * (size_t)(n ? n : 1), flen = 24 * (size_t)n + 1;
	size_t used = 0;
	char *groups, *finish;
	unsigned ng;

	*owned = malloc(glen + flen);
	if (!*owned)
		return -ENOMEM;
	groups = *owned;
	finish = *owned + glen;
	finish[0] = '\0';
	ng = genreport_cohort_groups(f, n, groups, glen);
	for (uint64_t i = 0; i < n; i++)
		used += (size_t)snprintf(finish + used, flen - used, "%s%.6f",
					 i ? "," : "", f[i]);
	rep_u64(l, GEN_KEY_COHORT_N, n);
	genreport_dbl(l, GEN_KEY_COHORT_FIRST, n ? f[0] : 0, 6);
	genreport_dbl(l, GEN_KEY_COHORT_LAST, n ? f[n - 1] : 0, 6);
	genreport_dbl(l, GEN_KEY_COHORT_SPREAD, n ? f[n - 1] - f[0] : 0, 6);
	genreport_dbl(l, GEN_KEY_COHORT_MEDIAN,
		      n ? (f[(n - 1) / 2] + f[n / 2]) / 2 : 0, 6);
	rep_u64(l, GEN_KEY_COHORT_NGROUPS, ng);
	genreport_str(l, GEN_KEY_COHORT_GROUPS, groups);
	genreport_str(l, GEN_KEY_COHORT_FINISH, finish);
	return 0;
}

int genreport_build(struct replist *l, const struct spawn_config *cfg,
		 const struct spawn_result *res, char **groups)
{
	static char shape[32];
	double achieved = res->elapsed > 0 ? (double)res->exits / res->elapsed : 0;

	l->n = 0;
	*groups = NULL;
	rep_u64(l, GEN_KEY_EXITS, res->exits);
	if (cfg->rate > 0)
		genreport_dbl(l, GEN_KEY_TARGET_RATE, cfg->rate, 3);
	else
		genreport_str(l, GEN_KEY_TARGET_RATE, "max");
	genreport_dbl(l, GEN_KEY_ACHIEVED_RATE, achieved, 3);
	genreport_dbl(l, GEN_KEY_ELAPSED, res->elapsed, 6);
	build_cpu(l, res);
	build_cpu_exact(l, res);
	rep_u64(l, GEN_KEY_SATURATED, is_saturated(cfg, res, achieved));
	genreport_dbl(l, GEN_KEY_LATE_P50, ns_us(hist_percentile(&res->late, 50)), 1);
	genreport_dbl(l, GEN_KEY_LATE_P99, ns_us(hist_percentile(&res->late, 99)), 1);
	genreport_dbl(l, GEN_KEY_LATE_MAX,
		      ns_us(res->late.count ? res->late.max : 0), 1);
	if (cfg->shape == SHAPE_GROUP)
		snprintf(shape, sizeof(shape), "group:%u", cfg->group_threads);
	else
		snprintf(shape, sizeof(shape), "%s", workload_shape_name(cfg->shape));
	genreport_str(l, GEN_KEY_SHAPE, shape);
	genreport_str(l, GEN_KEY_TAG, cfg->tag);
	rep_u64(l, GEN_KEY_TASKS_CREATED, res->created);
	genreport_str(l, GEN_KEY_STOPPED_BY, spawn_stop_name(res->stopped_by));
	genreport_str(l, GEN_KEY_MODE, mode_name(cfg));
	rep_u64(l, GEN_KEY_WORKERS, cfg->workers);
	rep_u64(l, GEN_KEY_THREADS_PER_TASK, cfg->shape == SHAPE_GROUP ?
	       cfg->group_threads : 1);
	rep_u64(l, GEN_KEY_TASKS_EXITED, res->exits * (cfg->shape == SHAPE_GROUP ?
						     cfg->group_threads : 1));
	genreport_str(l, GEN_KEY_EXIT_BY,
		      cfg->exit_by == EXIT_BY_SIGNAL ? "signal" : "exit");
	genreport_dbl(l, GEN_KEY_REAP_P50, ns_us(hist_percentile(&res->reap, 50)), 1);
	genreport_dbl(l, GEN_KEY_REAP_P99, ns_us(hist_percentile(&res->reap, 99)), 1);
	genreport_dbl(l, GEN_KEY_REAP_MAX,
		      ns_us(res->reap.count ? res->reap.max : 0), 1);
	rep_u64(l, GEN_KEY_CHILDREN_LEFT, (uint64_t)res->children_left);
	if (cfg->batch)
		rep_u64(l, GEN_KEY_BATCH, cfg->batch);
	if (cfg->background) {
		rep_u64(l, GEN_KEY_BACKGROUND, res->background);
		genreport_dbl(l, GEN_KEY_KILL_BACKGROUND, res->kill_background, 6);
	}
	if (cfg->mmap_bytes)
		rep_u64(l, GEN_KEY_MMAP_BYTES, cfg->mmap_bytes);
	if (cfg->exit_by == EXIT_BY_SIGNAL)
		genreport_dbl(l, GEN_KEY_KILL_REAP, res->elapsed, 6);
	if (cfg->cohort)
		return build_cohort(l, res, groups);
	return 0;
}

static void value_plain(const struct rep_item *kv, FILE *out)
{
	switch (kv->type) {
	case REP_U64:
		fprintf(out, "%llu", (unsigned long long)kv->u);
		break;
	case REP_DBL:
		fprintf(out, "%.*f", kv->prec, kv->d);
		break;
	case REP_STR:
		fputs(kv->s, out);
		break;
	}
}

static void json_value(struct json_out *j, const struct rep_item *kv)
{
	switch (kv->type) {
	case REP_U64:
		json_out_u64(j, kv->u);
		break;
	case REP_DBL:
		json_out_double(j, kv->d, kv->prec);
		break;
	case REP_STR:
		json_out_str(j, kv->s);
		break;
	}
}

int genreport_json(const struct replist *l, FILE *out)
{
	struct json_out j;
	char *doc;
	size_t len;

	json_out_init(&j, false);
	json_out_obj_begin(&j);
	for (unsigned i = 0; i < l->n; i++) {
		json_out_key(&j, l->item[i].key);
		json_value(&j, &l->item[i]);
	}
	json_out_obj_end(&j);
	doc = json_out_finish(&j, &len);
	if (!doc)
		return -ENOMEM;
	fwrite(doc, 1, len, out);
	fputc('\n', out);
	free(doc);
	return 0;
}

static double get_d(const struct replist *l, const char *key)
{
	const struct rep_item *kv = genreport_get(l, key);

	if (!kv)
		return 0;
	return kv->type == REP_DBL ? kv->d : (double)kv->u;
}

static void text_rate(const struct replist *l, const struct spawn_config *cfg,
		      FILE *out)
{
	double achieved = get_d(l, GEN_KEY_ACHIEVED_RATE);

	if (cfg->baseline || cfg->cohort || cfg->rate <= 0)
		fprintf(out, "  rate       %.1f %s/s (flat out)\n", achieved,
			cfg->shape == SHAPE_GROUP ? "groups" : "exits");
	else if (get_d(l, GEN_KEY_SATURATED))
		fprintf(out, "  rate       SATURATED: the target %.1f/s is more "
			"than this machine did; achieved %.1f/s\n",
			cfg->rate, achieved);
	else
		fprintf(out, "  rate       target %.1f/s, achieved %.1f/s\n",
			cfg->rate, achieved);
}

static void text_cohort(const struct replist *l, const struct spawn_result *res,
			FILE *out)
{
	const struct rep_item *g = genreport_get(l, GEN_KEY_COHORT_GROUPS);

	fprintf(out, "  cohort     first %.3f s, last %.3f s, spread %.3f s, "
		"groups %s\n", get_d(l, GEN_KEY_COHORT_FIRST),
		get_d(l, GEN_KEY_COHORT_LAST), get_d(l, GEN_KEY_COHORT_SPREAD),
		g ? g->s : "");
	for (uint64_t i = 0; i < res->cohort_n; i++)
		fprintf(out, "%s%.3f%s", i % 10 ? " " : "  finished   ",
			res->cohort_finish[i],
			i % 10 == 9 || i + 1 == res->cohort_n ? "\n" : "");
}

/* "900 exits" or, for group:K, "300 groups (1200 tasks)". */
static void text_head(const struct replist *l, const struct spawn_config *cfg,
		      const struct spawn_result *res, FILE *out)
{
	fprintf(out, "exitgen: %llu ", (unsigned long long)res->exits);
	if (cfg->shape == SHAPE_GROUP)
		fprintf(out, "group%s (%.0f tasks)", res->exits == 1 ? "" : "s",
			get_d(l, GEN_KEY_TASKS_EXITED));
	else
		fprintf(out, "exit%s", res->exits == 1 ? "" : "s");
	fprintf(out, ", shape %s, tag \"%s\", %u worker%s, %s, stopped by %s\n",
		genreport_get(l, GEN_KEY_SHAPE)->s, cfg->tag, cfg->workers,
		cfg->workers == 1 ? "" : "s", genreport_get(l, GEN_KEY_MODE)->s,
		spawn_stop_name(res->stopped_by));
}

static void text_mmap(const struct spawn_config *cfg, FILE *out)
{
	if (!cfg->mmap_bytes)
		return;
	fprintf(out, "  mmap       %llu bytes (%.1f MiB) shared, touched before "
		"the first task, %s\n", (unsigned long long)cfg->mmap_bytes,
		(double)cfg->mmap_bytes / (1 << 20),
		cfg->mmap_path ? cfg->mmap_path : "an unlinked temporary file");
}

/* "cpu total 52340120 ns (self ... + children ...), 52340.1 ns per
 * exit": the unit is instr under the instruction clock. */
static void text_cpu_exact(const struct replist *l,
			   const struct spawn_result *res, FILE *out)
{
	const char *unit = genreport_get(l, GEN_KEY_CPU_UNIT)->s;

	fprintf(out, "  cpu total  %llu %s (self %llu + children %llu), "
		"%.1f %s per exit\n",
		(unsigned long long)(res->cpu_self + res->cpu_children), unit,
		(unsigned long long)res->cpu_self,
		(unsigned long long)res->cpu_children,
		get_d(l, GEN_KEY_CPU_PER_EXIT), unit);
}

/* A cohort is released at once: it has no pace, so neither a rate nor a
 * lateness worth printing. */
void genreport_text(const struct replist *l, const struct spawn_config *cfg,
		 const struct spawn_result *res, FILE *out)
{
	text_head(l, cfg, res, out);
	if (!cfg->cohort)
		text_rate(l, cfg, out);
	fprintf(out, "  elapsed    %.6f s, %llu tasks created\n", res->elapsed,
		(unsigned long long)res->created);
	text_mmap(cfg, out);
	fprintf(out, "  cpu        user %.3f s, sys %.3f s (self %.3f + %.3f, "
		"children %.3f + %.3f)\n", get_d(l, GEN_KEY_USER), get_d(l, GEN_KEY_SYS),
		get_d(l, GEN_KEY_USER_SELF), get_d(l, GEN_KEY_SYS_SELF),
		get_d(l, GEN_KEY_USER_CHILDREN), get_d(l, GEN_KEY_SYS_CHILDREN));
	text_cpu_exact(l, res, out);
	if (!cfg->cohort)
		fprintf(out, "  late       p50 %.1f us, p99 %.1f us, max %.1f us\n",
			get_d(l, GEN_KEY_LATE_P50), get_d(l, GEN_KEY_LATE_P99),
			get_d(l, GEN_KEY_LATE_MAX));
	fprintf(out, "  reap       p50 %.1f us, p99 %.1f us, max %.1f us "
		"(create or release to reap)\n", get_d(l, GEN_KEY_REAP_P50),
		get_d(l, GEN_KEY_REAP_P99), get_d(l, GEN_KEY_REAP_MAX));
	if (cfg->background)
		fprintf(out, "  background %llu children, killed and reaped in "
			"%.6f s\n", (unsigned long long)res->background,
			res->kill_background);
	if (cfg->exit_by == EXIT_BY_SIGNAL)
		fprintf(out, "  kill+reap  %.6f s for %llu tasks\n", res->elapsed,
			(unsigned long long)res->exits);
	if (cfg->cohort)
		text_cohort(l, res, out);
}

/* The text is built in memory and handed to the shared atomic writer. */
int genreport_summary(const struct replist *l, const char *path)
{
	struct memfile m;
	FILE *f = safe_memfile_open(&m);

	if (!f)
		return -errno;
	for (unsigned i = 0; i < l->n; i++) {
		fprintf(f, "%s=", l->item[i].key);
		value_plain(&l->item[i], f);
		fputc('\n', f);
	}
	return safe_memfile_replace(&m, path);
}
