/* The collector's pipeline: raw datagram -> capture -> parse -> filter ->
 * output, with every record and every loss counted. */
#ifndef EXITMON_COLLECT_H
#define EXITMON_COLLECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "filter.h"
#include "format.h"
#include "output.h"

struct capture_writer;

struct loss_counters {
	uint64_t records, records_pid, records_tgid;
	uint64_t matched, filtered;
	uint64_t dropped;	/* exact, from the socket's drop counter */
	uint64_t enobufs;	/* ENOBUFS episodes reported by recv */
	uint64_t truncated;	/* datagrams larger than our buffer */
	uint64_t malformed;	/* messages that failed the parser's checks */
	uint64_t other;		/* well-formed messages that are not records */
	uint64_t implausible;	/* pid records that waited longer than they lived */
	uint64_t capture_errors;
};

struct collector {
	const struct filter *filter;
	struct output *out;		/* NULL: count only */
	struct capture_writer *cap;	/* NULL: no --capture */
	struct loss_counters n;
	uint64_t limit;			/* stop after this many matched; 0: no limit */
	atomic_ullong *taken;		/* matched so far, shared by all shards */
	char *stage;			/* formatted lines not yet given to out */
	size_t stage_len;
	uint64_t stage_lines;
	pid_t watch_tid;		/* self-check thread: seen, not counted */
	bool watch_seen;
	uint16_t last_version;		/* struct version of the last pid record */
};

/* One datagram as received.  flags: MSG_TRUNC when the datagram did not
 * fit (len is what we got); -ENOBUFS (with msg NULL) for a loss episode. */
void collector_datagram(void *collector, const void *msg, size_t len,
			int flags);
bool collector_done(const struct collector *c);
/* Allocate the staging buffer; 0 or -ENOMEM. */
int collector_init(struct collector *c);
void collector_free(struct collector *c);
/* Give the staged lines to the output (as one uninterleaved chunk). */
void collector_push(struct collector *c);

#endif
