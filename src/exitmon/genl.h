/* The taskstats generic netlink family: resolve it, register and
 * deregister a listener for a set of CPUs.  The listener socket is the one
 * records then arrive on, so messages that arrive while we wait for the
 * kernel's answer are handed to the caller, never dropped. */
#ifndef EXITMON_GENL_H
#define EXITMON_GENL_H

#include <stddef.h>

struct nl_sock;

/* Called for every message that is not the answer being waited for. */
typedef void (*ts_msg_fn)(void *arg, const void *msg, size_t len, int flags);

struct ts_conn {
	struct nl_sock *sk;
	int fd;
	int family;
	char ack_msg[256];	/* kernel's extended-ack text of the last error */
};

/* 0, -ENOENT (no TASKSTATS family: CONFIG_TASKSTATS off), -errno. */
int ts_open(struct ts_conn *c);
void ts_close(struct ts_conn *c);

/* Register (or deregister) the socket as listener for `cpulist`.  Waits at
 * most timeout_ms for the kernel's ack.  Returns 0 or the kernel's -errno
 * (ack_msg then holds its extended-ack message, if any). */
int ts_register(struct ts_conn *c, const char *cpulist, int timeout_ms,
		ts_msg_fn fn, void *arg);
int ts_deregister(struct ts_conn *c, const char *cpulist, int timeout_ms,
		  ts_msg_fn fn, void *arg);

#endif
