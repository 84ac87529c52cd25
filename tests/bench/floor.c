// SPDX-License-Identifier: GPL-2.0-or-later
/* The floor of what any taskstats collector can spend per record: register
 * for every possible CPU, drain the socket with recvmmsg every 10 ms and
 * discard what arrives.  Run next to exitmon, it receives exactly the same
 * records, so the two CPU figures compare without drift between runs
 * (tools/bench.sh).  Deliberately not built on the project's collector
 * code: it is the yardstick, not the thing measured.
 *
 *   floor [-w CAPTURE [-b BYTES]] [RCVBUF_BYTES [RECORDS_FILE]]   prints "ready" once
 *   registered, runs until SIGTERM/SIGINT, then prints datagrams=N drops=N
 *   cpu_us=N.
 *
 * With -w it is the floor of keeping a capture: every datagram goes to the
 * new file CAPTURE as a pcap record (one clock read per receive call, 128
 * KiB writes), and nothing is parsed.  Beside the plain floor, it is the
 * least that any listener writing what it hears to a file can spend.
 * With -b BYTES as well, each datagram adds exactly BYTES bytes (its own,
 * repeated as needed) and no pcap framing: the least any listener writing
 * lines of that length spends, whatever the format.
 *
 * With RECORDS_FILE it is also the e2e tests' reference listener: one line
 * per datagram, "pid btime elapsed_us comm" of its pid record (comm in hex), in arrival order,
 * so a test can tell which records another listener was sent in the same
 * window however busy the machine is (tests/e2e/12-exitmon-loss.t). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/taskstats.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define DGRAM 2048
/* Slots at page offsets 3584 and 1536, chosen rather than left to the
 * linker: a slot a few bytes past a 1 KiB boundary (where the kernel's
 * skb heads sit) slows the copy to user space by 4K aliasing, by 20% and
 * more (see src/exitmon/receive.h). */
#define SKEW 3584

static volatile sig_atomic_t stop;
static FILE *records;	/* RECORDS_FILE, or NULL */
static int capture = -1;	/* CAPTURE's fd, or -1 */

/* -w: pcap records staged here, written whole when the next does not fit. */
#define CAPTURE_CHUNK (128 * 1024)
#define MAX_LINE 65536
static char cap_buf[CAPTURE_CHUNK + MAX_LINE];
static size_t cap_len;
static unsigned line_bytes;	/* -b: bytes written per datagram, 0 for pcap */

struct pcap_rec { uint32_t sec, usec, incl, orig; };

static int cap_flush(void)
{
	ssize_t w = cap_len ? write(capture, cap_buf, cap_len) : 0;

	if (w != (ssize_t)cap_len) {
		perror("floor: capture");
		return -1;
	}
	cap_len = 0;
	return 0;
}

static int cap_open(const char *path)
{
	capture = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (capture < 0)
		perror("floor: capture");
	return capture < 0 ? -1 : 0;
}

/* The pcap file header (netlink link type), staged first. */
static void cap_header(void)
{
	static const uint32_t hdr[6] = { 0xa1b2c3d4u, 2 | 4u << 16, 0, 0, 65535, 253 };

	memcpy(cap_buf, hdr, sizeof(hdr));
	cap_len = sizeof(hdr);
}

/* -b: BYTES of the datagram, repeated as needed (the content does not
 * change what the copy into the page cache costs). */
static void line_add(const char *p, unsigned len)
{
	unsigned done = 0;

	if (cap_len + line_bytes > CAPTURE_CHUNK && cap_flush() < 0)
		exit(1);
	while (len && done < line_bytes) {
		unsigned n = line_bytes - done < len ? line_bytes - done : len;

		memcpy(cap_buf + cap_len + done, p, n);
		done += n;
	}
	cap_len += line_bytes;
}

static void cap_add(const void *p, unsigned len, const struct timespec *ts)
{
	struct pcap_rec h = { (uint32_t)ts->tv_sec, (uint32_t)(ts->tv_nsec / 1000), len, len };

	if (cap_len + sizeof(h) + len > CAPTURE_CHUNK && cap_flush() < 0)
		exit(1);
	memcpy(cap_buf + cap_len, &h, sizeof(h));
	memcpy(cap_buf + cap_len + sizeof(h), p, len);
	cap_len += sizeof(h) + len;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int cpu_mask(char *buf, int cap)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int ok = f && fgets(buf, cap, f);

	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

static int register_all(struct nl_sock *sk, int family, int cmd_attr)
{
	char cpus[256];
	struct nl_msg *m = nlmsg_alloc();
	int r = -1;

	if (m && cpu_mask(cpus, sizeof(cpus)) == 0 &&
	    genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_ACK,
			TASKSTATS_CMD_GET, TASKSTATS_VERSION) &&
	    nla_put_string(m, cmd_attr, cpus) == 0)
		r = nl_send_sync(sk, m);	/* frees m */
	else
		nlmsg_free(m);
	return r;
}

/* One line for the datagram's pid record; a datagram without one (there
 * are none today) still gets a line, so lines = datagrams. */
static void note(const void *buf, int len)
{
	const struct nlmsghdr *nh = buf;
	struct nlattr *a[TASKSTATS_TYPE_MAX + 1], *in[TASKSTATS_TYPE_MAX + 1];
	struct taskstats ts = { 0 };

	if (len >= (int)sizeof(*nh) && nlmsg_ok(nh, len) &&
	    genlmsg_parse((struct nlmsghdr *)nh, 0, a, TASKSTATS_TYPE_MAX,
			  NULL) == 0 && a[TASKSTATS_TYPE_AGGR_PID] &&
	    nla_parse_nested(in, TASKSTATS_TYPE_MAX, a[TASKSTATS_TYPE_AGGR_PID],
			     NULL) == 0 && in[TASKSTATS_TYPE_STATS]) {
		int n = nla_len(in[TASKSTATS_TYPE_STATS]);

		memcpy(&ts, nla_data(in[TASKSTATS_TYPE_STATS]),
		       n < (int)sizeof(ts) ? (size_t)n : sizeof(ts));
		fprintf(records, "%u %u %llu ", ts.ac_pid, ts.ac_btime,
			(unsigned long long)ts.ac_etime);
		for (n = 0; n < TS_COMM_LEN && ts.ac_comm[n]; n++)
			fprintf(records, "%02x", (unsigned char)ts.ac_comm[n]);
		fputc('\n', records);
	} else {
		fprintf(records, "- - - -\n");
	}
}

static unsigned long long drain(int fd)
{
	static char area[BATCH * DGRAM + 4096] __attribute__((aligned(4096)));
	struct iovec iov[BATCH];
	struct mmsghdr msgs[BATCH] = { 0 };
	unsigned long long n = 0;
	int i, got;

	for (i = 0; i < BATCH; i++) {
		iov[i] = (struct iovec){ area + SKEW + i * DGRAM, DGRAM };
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while ((got = recvmmsg(fd, msgs, BATCH, MSG_DONTWAIT, NULL)) > 0) {
		struct timespec now;

		n += (unsigned long long)got;
		for (i = 0; records && i < got; i++)
			note(iov[i].iov_base, (int)msgs[i].msg_len);
		if (capture < 0)
			continue;
		clock_gettime(CLOCK_REALTIME, &now);
		for (i = 0; i < got; i++) {
			if (line_bytes)
				line_add(iov[i].iov_base, msgs[i].msg_len);
			else
				cap_add(iov[i].iov_base, msgs[i].msg_len, &now);
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	int rcvbuf, fd, family, opt;
	uint32_t meminfo[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof(meminfo);
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	unsigned long long n = 0;
	struct nl_sock *sk = nl_socket_alloc();
	struct rusage ru;

	while ((opt = getopt(argc, argv, "w:b:")) != -1) {
		if (opt == 'w' && cap_open(optarg) < 0)
			return 1;
		if (opt == 'b' && (atoi(optarg) <= 0 || atoi(optarg) > MAX_LINE)) {
			fprintf(stderr, "floor: -b takes a line length of 1 to %d bytes\n", MAX_LINE);
			return 2;
		}
		if (opt == 'b')
			line_bytes = (unsigned)atoi(optarg);
		if (opt == '?') {
			fprintf(stderr, "usage: floor [-w FILE [-b BYTES]] [RCVBUF_BYTES [RECORDS_FILE]]\n");
			return 2;
		}
	}
	/* -b writes lines, not a pcap: no file header. */
	if (capture >= 0 && !line_bytes)
		cap_header();
	argc -= optind - 1;
	argv += optind - 1;
	rcvbuf = argc > 1 ? atoi(argv[1]) : 8 << 20;
	if (argc > 2 && !(records = fopen(argv[2], "w"))) {
		perror("floor: records file");
		return 1;
	}
	if (!sk || genl_connect(sk) < 0 ||
	    (family = genl_ctrl_resolve(sk, TASKSTATS_GENL_NAME)) < 0) {
		fprintf(stderr, "floor: no taskstats family\n");
		return 1;
	}
	/* Records carry sequence number 0: let them pass while acks are awaited. */
	nl_socket_disable_seq_check(sk);
	fd = nl_socket_get_fd(sk);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (register_all(sk, family, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK) < 0) {
		fprintf(stderr, "floor: cannot register (needs CAP_NET_ADMIN)\n");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (!stop) {
		nanosleep(&tick, NULL);
		n += drain(fd);
	}
	n += drain(fd);
	getsockopt(fd, SOL_SOCKET, SO_MEMINFO, meminfo, &len);
	/* A listener left registered costs every later exit a failed send. */
	register_all(sk, family, TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK);
	getrusage(RUSAGE_SELF, &ru);
	if (capture >= 0 && (cap_flush() < 0 || close(capture) != 0))
		return 1;
	if (records && fclose(records) != 0) {
		perror("floor: records file");
		return 1;
	}
	printf("datagrams=%llu drops=%u cpu_us=%lld\n", n,
	       meminfo[SK_MEMINFO_DROPS],
	       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return 0;
}
