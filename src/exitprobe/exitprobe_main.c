// SPDX-License-Identifier: GPL-2.0-or-later
/* exitprobe: what taskstats_exit() costs inside the kernel, per exit and
 * per class of exit, for the exits of a command (or of the machine). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "opts.h"
#include "probe_bpf.h"
#include "probe_cmd.h"
#include "probe_report.h"
#include "safe.h"
#include "stopsig.h"

/* exitprobe's own exit statuses; otherwise the command's is passed on. */
enum {
	XP_NOBPF = 121,		/* BPF not usable here */
	XP_METHOD = 122,	/* the requested method is refused here */
	XP_RUNTIME = 123,	/* exitprobe failed while measuring */
};

#define PERIOD_MIN_US 50

enum {
	OPT_METHOD = 256, OPT_PERIOD, OPT_LISTENER, OPT_ALL, OPT_DURATION,
	OPT_SUMMARY, OPT_NO_STATS,
};

static const struct opt_desc options[] = {
	{ "method", OPT_METHOD, "M", "auto (default), fentry or sample" },
	{ "period", OPT_PERIOD, "US", "sample: cpu-clock period in us (default 100, at least 50)" },
	{ "listener-pid", OPT_LISTENER, "PID", "a taskstats listener you started (repeatable)" },
	{ "all", OPT_ALL, NULL, "count every exit on the machine" },
	{ "duration", OPT_DURATION, "S", "without a command: measure for S seconds" },
	{ "summary", OPT_SUMMARY, "FILE", "write key=value results to FILE" },
	{ "no-run-stats", OPT_NO_STATS, NULL, "do not time the BPF programs (kernel.bpf_stats)" },
	{ "quiet", 'q', NULL, "print no report" },
	{ "help", 'h', NULL, "show this help and exit" },
	{ "version", 'V', NULL, "show the version and exit" },
};
#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

#define USAGE "Usage: exitprobe [OPTION]... -- COMMAND [ARG]...\n" \
	"       exitprobe [OPTION]... --duration S\n" \
	"Measure the CPU time of taskstats_exit() per exit, inside the kernel."

struct cli {
	struct probe_setup s;
	__s32 declared[PROBE_MAX_LISTENERS];
	double duration;
	const char *summary;
	bool quiet;
	char **cmd;
};

static void set_method(struct cli *c, const char *v)
{
	if (!strcmp(v, "auto"))
		c->s.method = METHOD_AUTO;
	else if (!strcmp(v, "fentry"))
		c->s.method = METHOD_FENTRY;
	else if (!strcmp(v, "sample"))
		c->s.method = METHOD_SAMPLE;
	else
		opts_bad_value("method", v, "auto, fentry or sample");
}

static void set_period(struct cli *c, const char *v)
{
	uint64_t us = opts_u64("period", v, 1, 1000000,
			       "microseconds, 50 to 1000000");

	if (us < PERIOD_MIN_US)
		log_usage_die("--period %s is too short: below %d us the sampler's "
			  "own interrupts inflate the estimate (and can livelock "
			  "the machine); use %d or more", v, PERIOD_MIN_US,
			  PERIOD_MIN_US);
	c->s.period_ns = us * 1000;
}

static void add_listener(struct cli *c, const char *v)
{
	uint32_t pid = opts_u32("listener-pid", v, 1, 4194304, "a process id");

	if (c->s.ndeclared == PROBE_MAX_LISTENERS)
		log_usage_die("at most %d --listener-pid options", PROBE_MAX_LISTENERS);
	c->declared[c->s.ndeclared++] = (__s32)pid;
}

static void take_option(struct cli *c, int key, const char *v)
{
	switch (key) {
	case OPT_METHOD: set_method(c, v); break;
	case OPT_PERIOD: set_period(c, v); break;
	case OPT_LISTENER: add_listener(c, v); break;
	case OPT_ALL: c->s.all = true; break;
	case OPT_DURATION:
		c->duration = opts_double("duration", v, 0.001, 1e7,
					  "seconds, 0.001 to 1e7");
		break;
	case OPT_SUMMARY: c->summary = v; break;
	case OPT_NO_STATS: c->s.run_stats = false; break;
	case 'q': c->quiet = true; break;
	case 'h':
		opts_help(stdout, USAGE, options, N_OPTIONS);
		printf("\nSee exitprobe(8) for the methods, the summary keys "
		       "and the exit statuses.\n");
		exit(0);
	case 'V': printf("exitprobe %s\n", EXITMON_VERSION); exit(0);
	default: break;
	}
}

static void parse_args(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int key;

	opts_init(&o, options, N_OPTIONS);
	opts_stop_at_operand(&o);	/* the command's options are its own */
	while ((key = opts_next(&o, argc, argv)) != -1)
		take_option(c, key, optarg);
	c->cmd = optind < argc ? argv + optind : NULL;
	if (c->cmd && c->duration > 0)
		log_usage_die("--duration is for a run without a command; the "
			  "command's own run time bounds the measurement");
	if (!c->cmd && c->duration == 0 && !c->s.all)
		log_usage_die("no command: give one after --, or measure every exit "
			  "with --duration S");
	if (!c->cmd)
		c->s.all = true;
	c->s.declared = c->declared;
}

/* Before anything runs: every --listener-pid is a process and the summary
 * can be written, so that no measurement is lost to a typo at its end. */
static void check_start(const struct cli *c)
{
	int r;

	for (size_t i = 0; i < c->s.ndeclared; i++)
		if (kill(c->declared[i], 0) < 0 && errno == ESRCH)
			log_die(EXIT_USAGE, "--listener-pid %d: no such process; give "
			    "the pid of a taskstats listener that runs (e.g. "
			    "exitmon's)", c->declared[i]);
	if (c->summary && (r = safe_check_replace(c->summary)) < 0)
		log_die(EXIT_USAGE, "cannot write the summary %s: %s; choose a "
		    "directory you can write", c->summary, safe_strerror(-r));
}

#define TICK_NS 2000000ull	/* how often the sampling period changes */

static __u64 rng_seed(void)
{
	__u64 s = mono_ns() ^ ((__u64)getpid() << 32);

	return s ? s : 1;
}

/* Without a command: until --duration is over or a signal asks to stop
 * (blocked since the start, see main). */
static void wait_duration(const struct cli *c, struct probe *p, __u64 *rng)
{
	struct timespec tick = { 0, (long)TICK_NS };
	double end = mono_s() + c->duration;
	sigset_t set;

	stopsig_fill(&set);
	while (c->duration == 0 || mono_s() < end) {
		if (sigtimedwait(&set, NULL, &tick) >= 0)
			break;
		probe_bpf_dither(p, c->s.period_ns, rng);
	}
}

/* The command's wait status, changing the sampling period meanwhile. */
static int wait_command(const struct cli *c, struct probe_cmd *cmd,
			struct probe *p, __u64 *rng, int *st)
{
	struct timespec tick = { 0, (long)TICK_NS };
	int r;

	while ((r = probe_cmd_poll(cmd, st)) == 0) {
		probe_bpf_dither(p, c->s.period_ns, rng);
		nanosleep(&tick, NULL);
	}
	return r < 0 ? r : 0;
}

static int start_probe(struct cli *c, struct probe *p, struct probe_cmd *cmd)
{
	int r;

	if (c->cmd && (r = probe_cmd_spawn(cmd, c->cmd)) < 0)
		log_die(XP_RUNTIME, "cannot start '%s': %s", c->cmd[0], strerror(-r));
	r = probe_bpf_start(p, &c->s);
	if (r == 0 && c->cmd)
		r = probe_bpf_track(p, cmd->pid);
	if (r < 0) {
		if (c->cmd)
			probe_cmd_abort(cmd);
		if (p->skel)
			probe_bpf_stop(p);
		log_die(p->fail == FAIL_NOBPF ? XP_NOBPF : p->fail == FAIL_METHOD ?
		    XP_METHOD : XP_RUNTIME, "%s", p->reason[0] ? p->reason :
		    strerror(-r));
	}
	return 0;
}

/* Without a command, the signals that ask to stop are taken by
 * wait_duration: one that comes while the probe loads ends the wait at
 * once, a late one cannot cut the report short (it is dropped at exit). */
static void block_stop_signals(void)
{
	sigset_t stop;

	stopsig_fill(&stop);
	sigprocmask(SIG_BLOCK, &stop, NULL);
}

/* Run the command (or wait); its exit code, or -1 without a command. */
static int measure(struct cli *c, struct probe_cmd *cmd, struct probe *p)
{
	__u64 rng = rng_seed();
	int r, st;

	if (!c->cmd) {
		wait_duration(c, p, &rng);
		return -1;
	}
	r = probe_cmd_release(cmd);
	if (r < 0) {
		probe_cmd_wait(cmd, &st);
		/* A signal passed on while the probe loaded ended the command
		 * before it could start: that is its status, and the report
		 * (of no exits) is still written, as for a later signal. */
		if (r == -EPIPE && WIFSIGNALED(st))
			return probe_cmd_exit_code(st);
		log_warn("cannot run '%s': %s", c->cmd[0], strerror(-r));
		probe_bpf_stop(p);
		exit(r == -ENOENT ? 127 : 126);
	}
	if (wait_command(c, cmd, p, &rng, &st) < 0)
		return XP_RUNTIME;
	return probe_cmd_exit_code(st);
}

/* fentry's exact histogram, or NULL (the report then has no mode). */
static struct probe_exact *read_exact(const struct probe *p)
{
	struct probe_exact *x;
	int r;

	if (p->used != METHOD_FENTRY || !(x = malloc(sizeof(*x))))
		return NULL;
	r = probe_bpf_read_exact(p, x);
	if (r == 0)
		return x;
	log_warn("cannot read the exact histogram: %s", strerror(-r));
	free(x);
	return NULL;
}

static int finish(struct cli *c, struct probe *p, struct probe_result *res)
{
	int r = probe_bpf_read(p, &res->c, &res->cost);
	struct probe_exact *x;

	res->method = p->used;
	res->reason = p->reason;
	res->period_ns = c->s.period_ns;
	res->nev = p->nev;
	if (r < 0) {
		log_warn("cannot read the probe's counters: %s", strerror(-r));
		return r;
	}
	x = read_exact(p);
	res->exact = x;
	if (c->summary && (r = probe_report_summary(res, c->summary)) < 0)
		log_warn("cannot write the summary %s: %s", c->summary,
			safe_strerror(-r));
	else if (!c->quiet)
		probe_report_text(res, c->cmd ? stderr : stdout);
	res->exact = NULL;
	free(x);
	return r < 0 ? r : 0;
}

int main(int argc, char **argv)
{
	struct cli c = { .s = { .method = METHOD_AUTO, .period_ns = 100000,
				.run_stats = true } };
	struct probe_result res = { 0 };
	struct probe_cmd cmd = { 0 };
	struct probe p;
	double t0;
	int code;

	log_init(argv[0]);
	parse_args(&c, argc, argv);
	check_start(&c);
	if (!c.cmd)
		block_stop_signals();
	start_probe(&c, &p, &cmd);
	t0 = mono_s();
	code = measure(&c, &cmd, &p);
	res.seconds = mono_s() - t0;
	if (finish(&c, &p, &res) < 0)
		code = XP_RUNTIME;
	probe_bpf_stop(&p);
	if (fflush(stdout) != 0 && code <= 0)
		code = XP_RUNTIME;
	return code < 0 ? 0 : code;
}
