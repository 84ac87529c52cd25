// SPDX-License-Identifier: GPL-2.0-or-later
/* A listener socket with its own receive thread. */
#include "shard.h"
#include "clock.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "caps.h"
#include "mon_config.h"

#define REQUEST_TIMEOUT_MS 5000

/* Split `all` into n groups of consecutive CPUs, as even as possible. */
static void shard_split_cpus(const struct cpuset_bits *all, unsigned n,
			     unsigned i, struct cpuset_bits *out)
{
	unsigned total = cpulist_count(all), k = 0;
	unsigned lo = (unsigned)((unsigned long long)total * i / n);
	unsigned hi = (unsigned)((unsigned long long)total * (i + 1) / n);
	int cpu;

	memset(out, 0, sizeof(*out));
	for (cpu = cpulist_next(all, 0); cpu >= 0;
	     cpu = cpulist_next(all, (unsigned)cpu + 1), k++)
		if (k >= lo && k < hi)
			cpulist_set(out, (unsigned)cpu);
}

int shard_open(struct shard *s, const struct mon_config *cfg, unsigned index,
	       const struct collector_setup *w)
{
	int r;

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	s->index = index;
	s->cfg = cfg;
	atomic_init(&s->stop, false);
	s->ts.fd = -1;
	shard_split_cpus(&cfg->cpus, cfg->shards, index, &s->cpus);
	cpulist_format(&s->cpus, s->cpulist, sizeof(s->cpulist));
	if ((r = collector_init(&s->col, w)) < 0)
		return r;
	if ((r = tsnl_open(&s->ts)) < 0)
		return r;
	if ((r = receiver_init(&s->rx, s->ts.fd)) < 0)
		return r;
	/* The records and packets of one receive call share its time (the
	 * records' time_ns, the capture's timestamps). */
	s->rx.stamp = true;
	s->col.recv_time = &s->rx.when;
	return 0;
}

int shard_capture_to(struct shard *s, struct capture_writer *cap)
{
	return collector_capture_to(&s->col, cap);
}

/* A request's answer is read by tsnl, not the receiver, and exit records
 * may come with it: each datagram read then has its own clock read. */
static int request(struct shard *s, bool reg)
{
	int r;

	s->col.recv_time = NULL;
	caps_net_admin_effective(true);
	r = reg ? tsnl_register(&s->ts, s->cpulist, REQUEST_TIMEOUT_MS,
				collector_datagram, &s->col)
		: tsnl_deregister(&s->ts, s->cpulist, REQUEST_TIMEOUT_MS,
				  collector_datagram, &s->col);
	caps_net_admin_effective(false);
	s->col.recv_time = &s->rx.when;
	return r;
}

int shard_set_rcvbuf(struct shard *s)
{
	int r;

	caps_net_admin_effective(true);	/* SO_RCVBUFFORCE passes rmem_max */
	r = receiver_set_rcvbuf(s->ts.fd, s->cfg->rcvbuf, &s->rcvbuf);
	caps_net_admin_effective(false);
	return r;
}

int shard_register(struct shard *s)
{
	int r = request(s, true);

	s->registered = r == 0;
	return r;
}

/* --- the self-check: proof that registration works ---
 * A listener outside the initial network namespace registers without error
 * and then hears nothing; only a real exit on one of our CPUs catches it. */

#define SELFCHECK_COMM "exitmon-check"

static void *check_thread(void *arg)
{
	*(pid_t *)arg = gettid();
	prctl(PR_SET_NAME, SELFCHECK_COMM);
	return NULL;
}

/* A thread pinned to `cpu` that exits at once; its tid in *tid once it
 * has exited.  0 or -errno. */
static int check_spawn(int cpu, pid_t *tid)
{
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t set;
	int r;

	*tid = 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	r = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (r == 0)
		r = pthread_create(&t, &attr, check_thread, tid);
	pthread_attr_destroy(&attr);
	if (r)
		return -r;
	return -pthread_join(t, NULL);
}

static bool wait_for_check_record(struct shard *s, int timeout_ms,
				  const volatile sig_atomic_t *cancel)
{
	double deadline = mono_s() + timeout_ms / 1000.0;
	struct timespec tick = { 0, 5 * 1000 * 1000 };

	while (!s->col.watch_seen && mono_s() < deadline && !*cancel) {
		receiver_drain(&s->rx, collector_datagram, &s->col);
		if (!s->col.watch_seen)
			nanosleep(&tick, NULL);
	}
	return s->col.watch_seen;
}

int shard_self_check(struct shard *s, int timeout_ms,
		     const volatile sig_atomic_t *cancel)
{
	int attempt, r = -EINVAL, cpu;

	for (attempt = 0; attempt < 3 && !s->col.watch_seen; attempt++) {
		/* The first of our CPUs that lets a thread run on it. */
		for (cpu = cpulist_next(&s->cpus, 0); cpu >= 0;
		     cpu = cpulist_next(&s->cpus, (unsigned)cpu + 1))
			if ((r = check_spawn(cpu, &s->col.watch_tid)) == 0)
				break;
		if (r < 0)
			return r;
		if (wait_for_check_record(s, timeout_ms, cancel))
			break;
		/* Lost to an overflow is not deafness: try again. */
		receiver_update_drops(&s->rx);
		if (!s->rx.drops)
			break;
	}
	s->col.watch_tid = 0;
	return s->col.watch_seen;
}

static void publish(struct shard *s)
{
	if (receiver_update_drops(&s->rx) == 0)
		s->col.n.dropped = s->rx.drops;
	pthread_mutex_lock(&s->lock);
	s->published = s->col.n;
	s->published_version = s->col.last_version;
	pthread_mutex_unlock(&s->lock);
}

/* Slices of at most STOP_SLICE_MS, so a stop ends a long --interval at
 * once (signals go to the main thread, not here). */
#define STOP_SLICE_MS 50

static void sleep_until(struct shard *s, struct timespec *next,
			unsigned interval_ms)
{
	struct timespec now, slice;

	next->tv_nsec += (long)interval_ms * 1000000L;
	next->tv_sec += next->tv_nsec / 1000000000L;
	next->tv_nsec %= 1000000000L;
	do {
		clock_gettime(CLOCK_MONOTONIC, &now);
		slice = now;
		slice.tv_nsec += STOP_SLICE_MS * 1000000L;
		slice.tv_sec += slice.tv_nsec / 1000000000L;
		slice.tv_nsec %= 1000000000L;
		if (slice.tv_sec > next->tv_sec || (slice.tv_sec == next->tv_sec &&
						     slice.tv_nsec > next->tv_nsec))
			slice = *next;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &slice, NULL);
	} while ((slice.tv_sec != next->tv_sec || slice.tv_nsec != next->tv_nsec) &&
		 !atomic_load(&s->stop));
}

/* Sleep, drain everything queued, hand the lines over, repeat. */
static void loop_batched(struct shard *s)
{
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&s->stop)) {
		receiver_drain(&s->rx, collector_datagram, &s->col);
		collector_push(&s->col);
		publish(s);
		sleep_until(s, &next, s->cfg->interval_ms);
	}
}

/* The classic way: block for each record. */
static void loop_wakeup(struct shard *s)
{
	struct timeval tv = { 0, 200 * 1000 };	/* to notice a stop */
	double last = mono_s();

	setsockopt(s->rx.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (!atomic_load(&s->stop)) {
		double now;

		receiver_wait_one(&s->rx, collector_datagram, &s->col);
		now = mono_s();
		if (now - last >= s->cfg->interval_ms / 1000.0) {
			collector_push(&s->col);
			publish(s);
			last = now;
		}
	}
}

static void *shard_main(void *arg)
{
	struct shard *s = arg;
	sigset_t all;

	/* Signals belong to the main thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (s->cfg->wakeup)
		loop_wakeup(s);
	else
		loop_batched(s);
	return NULL;
}

int shard_start(struct shard *s)
{
	int r = pthread_create(&s->thread, NULL, shard_main, s);

	s->running = r == 0;
	return -r;
}

void shard_stop(struct shard *s)
{
	atomic_store(&s->stop, true);
}

void shard_join(struct shard *s)
{
	shard_stop(s);
	if (s->running)
		pthread_join(s->thread, NULL);
	s->running = false;
}

void shard_finish(struct shard *s)
{
	shard_join(s);
	receiver_drain(&s->rx, collector_datagram, &s->col);
	if (s->registered && request(s, false) == 0)
		s->registered = false;
	receiver_drain(&s->rx, collector_datagram, &s->col);
	collector_push(&s->col);
	publish(s);
}

void shard_close(struct shard *s)
{
	receiver_free(&s->rx);
	tsnl_close(&s->ts);
	collector_free(&s->col);
	pthread_mutex_destroy(&s->lock);
}

static void add(struct mon_counters *a, const struct mon_counters *b)
{
#define ADD(name, metric, help) a->name += b->name;
	MON_COUNTERS(ADD)
#undef ADD
}

void shard_read(struct shard *s, struct mon_counters *sum, uint16_t *version)
{
	pthread_mutex_lock(&s->lock);
	add(sum, &s->published);
	if (s->published_version)
		*version = s->published_version;
	pthread_mutex_unlock(&s->lock);
}

uint32_t shard_queue_bytes(struct shard *s, uint32_t *rcvbuf)
{
	struct queue_state q = { 0, 0 };

	receiver_queue(&s->rx, &q);
	*rcvbuf = q.rcvbuf;
	return q.rmem_alloc;
}
