/* Summaries: records folded into one line per group (comm, uid, tgid or
 * executable), in a hash table whose size follows the number of groups,
 * never the number of records.
 *
 * Counting rule: only pid rows are summed.  A tgid row adds up the threads
 * of a group whose pid rows are already in the input, so summing it too
 * would count every thread twice; tgid rows are counted, not summed. */
#ifndef EXITSTAT_STAT_GROUP_H
#define EXITSTAT_STAT_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

enum group_by { BY_COMM, BY_UID, BY_TGID, BY_EXE };

/* The statistics of a group, in output order (names in group.c). */
enum stat_id {
	S_EXITS, S_CPU, S_CPU_RUN, S_ELAPSED,
	S_CPU_DELAY, S_CPU_AVG, S_CPU_MAX,
	S_BLKIO_DELAY, S_BLKIO_AVG, S_BLKIO_MAX,
	S_SWAPIN_DELAY, S_SWAPIN_AVG, S_SWAPIN_MAX,
	S_READ, S_WRITE, S_RSS, S_IMPLAUSIBLE,
	S__COUNT
};

struct gkey {
	uint64_t a, b;		/* uid / tgid / exe_dev:exe_inode */
	uint8_t len;		/* comm bytes */
	char comm[TS_COMM_LEN];
};

struct group {
	struct gkey key;
	bool used;
	uint64_t exits, cpu_us, cpu_run_ns, elapsed_us, implausible;
	uint64_t delay[3], count[3], max[3];	/* cpu, blkio, swapin */
	bool have_max[3];
	uint64_t read_bytes, write_bytes, rss_kb;
};

struct groups {
	enum group_by by;
	struct group *t;
	size_t cap, n;
	struct group total;
	uint64_t tgid_rows;
};

int stat_group_init(struct groups *g, enum group_by by);
void stat_group_free(struct groups *g);
/* Fold one pid row in (tgid rows: counted only).  -ENOMEM. */
int stat_group_add(struct groups *g, const struct exit_record *r);

const char *stat_group_stat_name(enum stat_id s);
int stat_group_stat_from_name(const char *name, enum stat_id *out);
/* The value of statistic s; false when the group has none (an average of
 * no waits, a peak no record carried). */
bool stat_group_value(const struct group *gr, enum stat_id s, uint64_t *v);

/* The groups as an array of pointers, sorted by s (descending unless
 * ascending), ties by key.  Caller frees. */
struct group **stat_group_sorted(const struct groups *g, enum stat_id s, bool ascending);

#endif
