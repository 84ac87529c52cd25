/* Messages for people: one line, program name first, what went wrong and
 * what to do.  Only main() and start-up code call die(). */
#ifndef EXITMON_LOG_H
#define EXITMON_LOG_H

#include <stdarg.h>

extern const char *progname;

void log_init(const char *argv0);
void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A bad invocation: the message, a pointer to --help, exit status 2. */
_Noreturn void usage_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Exit statuses shared by the three programs. */
enum exit_status {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,	/* a run-time failure not listed below */
	EXIT_USAGE = 2,		/* bad option or option value */
	EXIT_NOPERM = 3,	/* no CAP_NET_ADMIN */
	EXIT_NAMESPACE = 4,	/* user or PID namespace other than the initial one */
	EXIT_DEAF = 5,		/* registered but no record arrives (network namespace) */
	EXIT_NOFAMILY = 6,	/* no TASKSTATS generic netlink family */
	EXIT_CPUMASK = 7,	/* cpu list not a subset of the possible CPUs */
	EXIT_OUTPUT = 8,	/* output file cannot be opened or written */
};

#endif
