/* Versioned parse of taskstats exit messages into struct exit_record.
 *
 * struct taskstats grows by appending, with two exceptions: version 1 had a
 * shorter header (padding instead of exit code and flags), and version 15
 * inserted the *_delay_max/_min pairs after each delay total (version 16 moved
 * them to the end).  We describe both layouts with our own structs, pick one
 * by the version, and read a field only when the attribute holds all of it.
 *
 * The layouts are mainline's include/uapi/linux/taskstats.h (version 17:
 * Linux 7.0, checked against the BTF of Debian's 7.3 kernel by `make
 * test-kernels`), never a patch posted to a list. */
#include "record.h"
#include "tsnl.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* The basic and extended accounting fields, alike in both layouts below
 * (only where they start differs). */
#define TS_ABI_ACCOUNTING \
	char comm[TS_COMM_LEN]; \
	uint8_t sched __attribute__((aligned(8))); \
	uint8_t pad[3]; \
	uint32_t uid __attribute__((aligned(8))); \
	uint32_t gid, pid, ppid, btime; \
	uint64_t etime __attribute__((aligned(8))); \
	uint64_t utime, stime, minflt, majflt; \
	uint64_t coremem, virtmem, hiwater_rss, hiwater_vm; \
	uint64_t read_char, write_char, read_syscalls, write_syscalls; \
	uint64_t read_bytes, write_bytes, cancelled_write_bytes; \
	uint64_t nvcsw, nivcsw; \
	uint64_t utimescaled, stimescaled, cpu_scaled_run_real_total; \
	uint64_t freepages_count, freepages_delay_total;

/* struct __kernel_timespec: 64-bit seconds and nanoseconds. */
struct ts_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

/* Append-only layout: versions 2..14 are prefixes, 16 and later too. */
struct ts_abi {
	uint16_t version;
	uint32_t exitcode;
	uint8_t flag, nice;
	uint64_t cpu_count __attribute__((aligned(8)));
	uint64_t cpu_delay_total, blkio_count, blkio_delay_total;
	uint64_t swapin_count, swapin_delay_total;
	uint64_t cpu_run_real_total, cpu_run_virtual_total;
	TS_ABI_ACCOUNTING
	uint64_t thrashing_count, thrashing_delay_total;
	uint64_t btime64;
	uint64_t compact_count, compact_delay_total;
	uint32_t tgid;
	uint64_t tgetime __attribute__((aligned(8)));
	uint64_t exe_dev, exe_inode;
	uint64_t wpcopy_count, wpcopy_delay_total;
	uint64_t irq_count, irq_delay_total;
	uint64_t cpu_delay_max, cpu_delay_min, blkio_delay_max, blkio_delay_min;
	uint64_t swapin_delay_max, swapin_delay_min;
	uint64_t freepages_delay_max, freepages_delay_min;
	uint64_t thrashing_delay_max, thrashing_delay_min;
	uint64_t compact_delay_max, compact_delay_min;
	uint64_t wpcopy_delay_max, wpcopy_delay_min;
	uint64_t irq_delay_max, irq_delay_min;
	struct ts_timespec cpu_delay_max_ts, blkio_delay_max_ts;
	struct ts_timespec swapin_delay_max_ts, freepages_delay_max_ts;
	struct ts_timespec thrashing_delay_max_ts, compact_delay_max_ts;
	struct ts_timespec wpcopy_delay_max_ts, irq_delay_max_ts;
};

/* Version 15 (Linux 6.14): peaks right after each delay total. */
struct ts_abi_v15 {
	uint16_t version;
	uint32_t exitcode;
	uint8_t flag, nice;
	uint64_t cpu_count __attribute__((aligned(8)));
	uint64_t cpu_delay_total, cpu_delay_max, cpu_delay_min;
	uint64_t blkio_count, blkio_delay_total, blkio_delay_max, blkio_delay_min;
	uint64_t swapin_count, swapin_delay_total, swapin_delay_max, swapin_delay_min;
	uint64_t cpu_run_real_total, cpu_run_virtual_total;
	TS_ABI_ACCOUNTING
	uint64_t freepages_delay_max, freepages_delay_min;
	uint64_t thrashing_count, thrashing_delay_total;
	uint64_t thrashing_delay_max, thrashing_delay_min;
	uint64_t btime64;
	uint64_t compact_count, compact_delay_total;
	uint64_t compact_delay_max, compact_delay_min;
	uint32_t tgid;
	uint64_t tgetime __attribute__((aligned(8)));
	uint64_t exe_dev, exe_inode;
	uint64_t wpcopy_count, wpcopy_delay_total;
	uint64_t wpcopy_delay_max, wpcopy_delay_min;
	uint64_t irq_count, irq_delay_total, irq_delay_max, irq_delay_min;
};

/* Version 1 (Linux 2.6.18 development): padding, then the delay fields. */
struct ts_abi_v1 {
	uint16_t version;
	uint16_t padding[3];
	uint64_t cpu_count, cpu_delay_total, blkio_count, blkio_delay_total;
	uint64_t swapin_count, swapin_delay_total;
	uint64_t cpu_run_real_total, cpu_run_virtual_total;
};

_Static_assert(sizeof(struct ts_abi_v1) == 72, "v1 layout");
_Static_assert(offsetof(struct ts_abi, tgid) == 368, "v12 layout");
_Static_assert(offsetof(struct ts_abi, cpu_delay_max) == 432, "v16 layout");
_Static_assert(sizeof(struct ts_abi_v15) == 560, "v15 layout");
_Static_assert(offsetof(struct ts_abi, cpu_delay_max_ts) == 560, "v17 layout");
_Static_assert(sizeof(struct ts_abi) == 688, "v17 layout");

#define NONE 0xffff
struct field_desc {
	const char *name;
	uint16_t off;		/* append-only layout */
	uint16_t off_v15;
	uint16_t off_v1;
	uint8_t size;
};

#define SZ(m) (uint8_t)sizeof(((struct ts_abi *)0)->m)
#define FD(id, m, nm) [id] = { nm, offsetof(struct ts_abi, m), \
	offsetof(struct ts_abi_v15, m), NONE, SZ(m) }
#define FD_NO15(id, m, nm) [id] = { nm, offsetof(struct ts_abi, m), NONE, \
	NONE, SZ(m) }
#define FD_V1(id, m, nm) [id] = { nm, offsetof(struct ts_abi, m), \
	offsetof(struct ts_abi_v15, m), offsetof(struct ts_abi_v1, m), SZ(m) }

/* Every field: X(how, id, member, name), where how says which layouts
 * hold it: FD every one but v1, FD_NO15 not v15 either (added after it),
 * FD_V1 v1 too. */
#define TS_FIELDS(X) \
	X(FD, F_EXITCODE, exitcode, "exitcode") \
	X(FD, F_FLAG, flag, "flags") \
	X(FD, F_NICE, nice, "nice") \
	X(FD_V1, F_CPU_COUNT, cpu_count, "cpu_count") \
	X(FD_V1, F_CPU_DELAY_TOTAL, cpu_delay_total, "cpu_delay_ns") \
	X(FD_V1, F_BLKIO_COUNT, blkio_count, "blkio_count") \
	X(FD_V1, F_BLKIO_DELAY_TOTAL, blkio_delay_total, "blkio_delay_ns") \
	X(FD_V1, F_SWAPIN_COUNT, swapin_count, "swapin_count") \
	X(FD_V1, F_SWAPIN_DELAY_TOTAL, swapin_delay_total, "swapin_delay_ns") \
	X(FD_V1, F_CPU_RUN_REAL_TOTAL, cpu_run_real_total, "cpu_run_real_ns") \
	X(FD_V1, F_CPU_RUN_VIRTUAL_TOTAL, cpu_run_virtual_total, "cpu_run_virtual_ns") \
	X(FD, F_SCHED, sched, "sched") \
	X(FD, F_UID, uid, "uid") \
	X(FD, F_GID, gid, "gid") \
	X(FD, F_PID, pid, "ac_pid") \
	X(FD, F_PPID, ppid, "ppid") \
	X(FD, F_BTIME, btime, "btime32") \
	X(FD, F_ETIME, etime, "elapsed_us") \
	X(FD, F_UTIME, utime, "utime_us") \
	X(FD, F_STIME, stime, "stime_us") \
	X(FD, F_MINFLT, minflt, "minflt") \
	X(FD, F_MAJFLT, majflt, "majflt") \
	X(FD, F_COREMEM, coremem, "coremem_mb_us") \
	X(FD, F_VIRTMEM, virtmem, "virtmem_mb_us") \
	X(FD, F_HIWATER_RSS, hiwater_rss, "hiwater_rss_kb") \
	X(FD, F_HIWATER_VM, hiwater_vm, "hiwater_vm_kb") \
	X(FD, F_READ_CHAR, read_char, "read_char") \
	X(FD, F_WRITE_CHAR, write_char, "write_char") \
	X(FD, F_READ_SYSCALLS, read_syscalls, "read_syscalls") \
	X(FD, F_WRITE_SYSCALLS, write_syscalls, "write_syscalls") \
	X(FD, F_READ_BYTES, read_bytes, "read_bytes") \
	X(FD, F_WRITE_BYTES, write_bytes, "write_bytes") \
	X(FD, F_CANCELLED_WRITE_BYTES, cancelled_write_bytes, "cancelled_write_bytes") \
	X(FD, F_NVCSW, nvcsw, "nvcsw") \
	X(FD, F_NIVCSW, nivcsw, "nivcsw") \
	X(FD, F_UTIMESCALED, utimescaled, "utimescaled_us") \
	X(FD, F_STIMESCALED, stimescaled, "stimescaled_us") \
	X(FD, F_CPU_SCALED_RUN_REAL_TOTAL, cpu_scaled_run_real_total, "cpu_scaled_run_real_ns") \
	X(FD, F_FREEPAGES_COUNT, freepages_count, "freepages_count") \
	X(FD, F_FREEPAGES_DELAY_TOTAL, freepages_delay_total, "freepages_delay_ns") \
	X(FD, F_THRASHING_COUNT, thrashing_count, "thrashing_count") \
	X(FD, F_THRASHING_DELAY_TOTAL, thrashing_delay_total, "thrashing_delay_ns") \
	X(FD, F_BTIME64, btime64, "btime64") \
	X(FD, F_COMPACT_COUNT, compact_count, "compact_count") \
	X(FD, F_COMPACT_DELAY_TOTAL, compact_delay_total, "compact_delay_ns") \
	X(FD, F_TGID, tgid, "ac_tgid") \
	X(FD, F_TGETIME, tgetime, "tgetime_us") \
	X(FD, F_EXE_DEV, exe_dev, "exe_dev") \
	X(FD, F_EXE_INODE, exe_inode, "exe_inode") \
	X(FD, F_WPCOPY_COUNT, wpcopy_count, "wpcopy_count") \
	X(FD, F_WPCOPY_DELAY_TOTAL, wpcopy_delay_total, "wpcopy_delay_ns") \
	X(FD, F_IRQ_COUNT, irq_count, "irq_count") \
	X(FD, F_IRQ_DELAY_TOTAL, irq_delay_total, "irq_delay_ns") \
	X(FD, F_CPU_DELAY_MAX, cpu_delay_max, "cpu_delay_max_ns") \
	X(FD, F_CPU_DELAY_MIN, cpu_delay_min, "cpu_delay_min_ns") \
	X(FD, F_BLKIO_DELAY_MAX, blkio_delay_max, "blkio_delay_max_ns") \
	X(FD, F_BLKIO_DELAY_MIN, blkio_delay_min, "blkio_delay_min_ns") \
	X(FD, F_SWAPIN_DELAY_MAX, swapin_delay_max, "swapin_delay_max_ns") \
	X(FD, F_SWAPIN_DELAY_MIN, swapin_delay_min, "swapin_delay_min_ns") \
	X(FD, F_FREEPAGES_DELAY_MAX, freepages_delay_max, "freepages_delay_max_ns") \
	X(FD, F_FREEPAGES_DELAY_MIN, freepages_delay_min, "freepages_delay_min_ns") \
	X(FD, F_THRASHING_DELAY_MAX, thrashing_delay_max, "thrashing_delay_max_ns") \
	X(FD, F_THRASHING_DELAY_MIN, thrashing_delay_min, "thrashing_delay_min_ns") \
	X(FD, F_COMPACT_DELAY_MAX, compact_delay_max, "compact_delay_max_ns") \
	X(FD, F_COMPACT_DELAY_MIN, compact_delay_min, "compact_delay_min_ns") \
	X(FD, F_WPCOPY_DELAY_MAX, wpcopy_delay_max, "wpcopy_delay_max_ns") \
	X(FD, F_WPCOPY_DELAY_MIN, wpcopy_delay_min, "wpcopy_delay_min_ns") \
	X(FD, F_IRQ_DELAY_MAX, irq_delay_max, "irq_delay_max_ns") \
	X(FD, F_IRQ_DELAY_MIN, irq_delay_min, "irq_delay_min_ns") \
	X(FD_NO15, F_CPU_DELAY_MAX_TS, cpu_delay_max_ts, "cpu_delay_max_ts_ns") \
	X(FD_NO15, F_BLKIO_DELAY_MAX_TS, blkio_delay_max_ts, "blkio_delay_max_ts_ns") \
	X(FD_NO15, F_SWAPIN_DELAY_MAX_TS, swapin_delay_max_ts, "swapin_delay_max_ts_ns") \
	X(FD_NO15, F_FREEPAGES_DELAY_MAX_TS, freepages_delay_max_ts, "freepages_delay_max_ts_ns") \
	X(FD_NO15, F_THRASHING_DELAY_MAX_TS, thrashing_delay_max_ts, "thrashing_delay_max_ts_ns") \
	X(FD_NO15, F_COMPACT_DELAY_MAX_TS, compact_delay_max_ts, "compact_delay_max_ts_ns") \
	X(FD_NO15, F_WPCOPY_DELAY_MAX_TS, wpcopy_delay_max_ts, "wpcopy_delay_max_ts_ns") \
	X(FD_NO15, F_IRQ_DELAY_MAX_TS, irq_delay_max_ts, "irq_delay_max_ts_ns")

#define FIELD_DESC(how, id, m, nm) how(id, m, nm),
static const struct field_desc fields[F__COUNT] = { TS_FIELDS(FIELD_DESC) };

/* Size of each struct version.  Versions 5, 6 and 8 changed no layout. */
static const uint16_t version_size[TS_KNOWN_VERSION + 1] = {
	[1] = 72, [2] = 248, [3] = 272, [4] = 288, [5] = 288, [6] = 312,
	[7] = 328, [8] = 328, [9] = 344, [10] = 352, [11] = 368, [12] = 400,
	[13] = 416, [14] = 432, [15] = 560, [16] = 560, [17] = 688,
};

/* Clocks differ a little between the delay and elapsed figures. */
#define DELAY_SLACK_NS 10000000ull

bool record_implausible(const struct exit_record *r)
{
	static const enum rec_field delays[] = {
		F_CPU_DELAY_TOTAL, F_BLKIO_DELAY_TOTAL, F_SWAPIN_DELAY_TOTAL,
		F_FREEPAGES_DELAY_TOTAL, F_THRASHING_DELAY_TOTAL,
		F_COMPACT_DELAY_TOTAL, F_WPCOPY_DELAY_TOTAL, F_IRQ_DELAY_TOTAL,
	};
	uint64_t lifetime_ns;
	unsigned i;

	for (i = F_CPU_DELAY_MAX_TS; i <= F_IRQ_DELAY_MAX_TS; i++)
		if (rec_has(r, i) && rec_get(r, i) == REC_TS_INVALID)
			return r->type == REC_PID;
	/* A tgid record sums its threads' waits: they may exceed its age. */
	if (r->type != REC_PID || !rec_has(r, F_ETIME))
		return false;
	lifetime_ns = rec_get(r, F_ETIME) * 1000 + DELAY_SLACK_NS;
	for (i = 0; i < sizeof(delays) / sizeof(delays[0]); i++)
		if (rec_has(r, delays[i]) && rec_get(r, delays[i]) > lifetime_ns)
			return true;
	return false;
}

const char *record_field_name(enum rec_field f)
{
	return (unsigned)f < F__COUNT ? fields[f].name : NULL;
}

size_t record_struct_size(unsigned version)
{
	return version <= TS_KNOWN_VERSION ? version_size[version] : 0;
}

bool record_has_unknown_fields(const struct exit_record *r)
{
	/* Layout 0 (a pid record saying version 0) was read as the newest. */
	unsigned layout = r->layout ? r->layout : TS_KNOWN_VERSION;

	return layout > TS_KNOWN_VERSION || r->stats_len > version_size[layout];
}

/* A struct __kernel_timespec as nanoseconds since the epoch, or
 * REC_TS_INVALID when it is no valid time. */
static uint64_t load_timespec(const unsigned char *p)
{
	struct ts_timespec t;

	memcpy(&t, p, sizeof(t));
	if (t.tv_sec < 0 || t.tv_nsec < 0 || t.tv_nsec >= 1000000000 ||
	    (uint64_t)t.tv_sec > (REC_TS_INVALID - 1 - (uint64_t)t.tv_nsec) / 1000000000u)
		return REC_TS_INVALID;
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline uint64_t load_le(const unsigned char *p, unsigned size)
{
	uint64_t v = 0;

	/* memcpy: the payload need not be aligned; hosts are little-endian
	 * or big-endian alike since the kernel writes native order. */
	switch (size) {
	case 1: return p[0];
	case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
	case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
	case 8: memcpy(&v, p, 8); return v;
	case sizeof(struct ts_timespec): return load_timespec(p);
	}
	return 0;
}

static uint16_t field_offset(const struct field_desc *d, unsigned layout)
{
	if (layout == 1)
		return d->off_v1;
	if (layout == 15)
		return d->off_v15;
	return d->off;
}

/* Each layout's fields sorted by where they end, so that the fields a
 * payload of length len holds are exactly the first k, and which fields
 * are present is a precomputed mask: the hot path is one tight loop with
 * no per-field bounds check or branch on the layout. */
struct layout_field {
	uint16_t off;
	uint8_t size;
	uint8_t field;
};

struct layout_table {
	unsigned n;
	struct layout_field f[F__COUNT];
	uint64_t prefix[F__COUNT + 1][REC_PRESENT_WORDS];
};

enum { L_APPEND, L_V15, L_V1, L__COUNT };
static struct layout_table layout_tables[L__COUNT];

static void build_layout(struct layout_table *t, unsigned layout)
{
	unsigned i, j;

	t->n = 0;
	for (i = 0; i < F__COUNT; i++) {
		struct layout_field lf = { field_offset(&fields[i], layout),
					   fields[i].size, (uint8_t)i };

		if (lf.off == NONE)
			continue;
		/* insertion sort by end offset */
		for (j = t->n; j > 0 && t->f[j - 1].off + t->f[j - 1].size >
					lf.off + lf.size; j--)
			t->f[j] = t->f[j - 1];
		t->f[j] = lf;
		t->n++;
	}
	memset(t->prefix[0], 0, sizeof(t->prefix[0]));
	for (i = 0; i < t->n; i++) {
		memcpy(t->prefix[i + 1], t->prefix[i], sizeof(t->prefix[i]));
		t->prefix[i + 1][t->f[i].field / 64] |= 1ull << (t->f[i].field % 64);
	}
}

/* Built before main(), so receive threads only ever read the tables. */
__attribute__((constructor)) static void build_layouts(void)
{
	build_layout(&layout_tables[L_APPEND], TS_KNOWN_VERSION);
	build_layout(&layout_tables[L_V15], 15);
	build_layout(&layout_tables[L_V1], 1);
}

static const struct layout_table *layout_table(unsigned layout)
{
	return &layout_tables[layout == 1 ? L_V1 : layout == 15 ? L_V15 : L_APPEND];
}

/* A field of the append-only layout at its (constant) offset, or 0 when
 * the payload ends before the field does. */
static inline __attribute__((always_inline)) uint64_t
load_append(const unsigned char *p, size_t len, size_t off, unsigned size)
{
	return off + size <= len ? load_le(p + off, size) : 0;
}

/* Every layout but v1 and v15 (all that kernels since 6.15 send): one
 * load per field at a constant offset, each checked against len, in
 * straight-line code generated from TS_FIELDS. */
static void read_append(const unsigned char *p, size_t len,
			struct exit_record *r)
{
#define READ_APPEND(how, id, m, nm) \
	r->v[id] = load_append(p, len, offsetof(struct ts_abi, m), SZ(m));
	TS_FIELDS(READ_APPEND)
#undef READ_APPEND
}

static void read_fields(const unsigned char *p, size_t len, unsigned layout,
			struct exit_record *r)
{
	const struct layout_table *t = layout_table(layout);
	unsigned k = t->n, i;

	while (k > 0 && (size_t)t->f[k - 1].off + t->f[k - 1].size > len)
		k--;
	memcpy(r->present, t->prefix[k], sizeof(r->present));
	if (layout != 1 && layout != 15) {
		read_append(p, len, r);
		return;
	}
	memset(r->v, 0, sizeof(r->v));
	for (i = 0; i < k; i++) {
		const struct layout_field *lf = &t->f[i];

		if (lf->size == 8)
			memcpy(&r->v[lf->field], p + lf->off, 8);
		else
			r->v[lf->field] = load_le(p + lf->off, lf->size);
	}
}

static void read_comm(const unsigned char *p, size_t len, unsigned layout,
		      struct exit_record *r)
{
	/* v15 inserted 48 bytes of peaks before comm. */
	size_t off = layout == 15 ? offsetof(struct ts_abi_v15, comm)
				  : offsetof(struct ts_abi, comm), n = 0;

	r->comm_len = 0;
	r->comm[0] = '\0';
	if (len < off + TS_COMM_LEN)
		return;
	while (n < TS_COMM_LEN && p[off + n] != '\0')
		n++;
	memcpy(r->comm, p + off, n);
	r->comm[n] = '\0';
	r->comm_len = (uint8_t)n;
}

int record_parse_stats(const void *payload, size_t len, unsigned layout_hint,
		       struct exit_record *r)
{
	const unsigned char *p = payload;
	unsigned layout;

	if (len < sizeof(uint16_t))
		return -EBADMSG;
	r->version = (uint16_t)load_le(p, 2);
	r->stats_len = (uint32_t)len;
	layout = r->version ? r->version : layout_hint;
	/* A struct too short for its own version's header is not taskstats. */
	if (len < (layout == 1 ? sizeof(struct ts_abi_v1)
				: offsetof(struct ts_abi, comm)))
		return -EBADMSG;
	r->layout = (uint16_t)layout;
	/* Bytes past a known version's size mean nothing in that version,
	 * even where a later one put a field: record_has_unknown_fields()
	 * counts them, nothing reads them. */
	if (layout <= TS_KNOWN_VERSION && len > version_size[layout] &&
	    version_size[layout])
		len = version_size[layout];
	read_fields(p, len, layout, r);
	if (layout == 1)
		r->comm_len = 0, r->comm[0] = '\0';
	else
		read_comm(p, len, layout, r);
	return 0;
}

/* Which attributes may appear where: the table is indexed by type up to
 * TASKSTATS_TYPE_NULL; newer types are skipped (later kernels may add
 * them), a known type in the wrong place is malformed. */
#define TYPE_BIT(t) (1u << (t))
static const struct nla_policy aggr_policy[TASKSTATS_TYPE_MAX + 1] = {
	[TASKSTATS_TYPE_PID] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[TASKSTATS_TYPE_TGID] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[TASKSTATS_TYPE_STATS] = { .type = NLA_UNSPEC },	/* checked by version */
};
static const struct nla_policy msg_policy[TASKSTATS_TYPE_MAX + 1] = {
	[TASKSTATS_TYPE_AGGR_PID] = { .type = NLA_NESTED },
	[TASKSTATS_TYPE_AGGR_TGID] = { .type = NLA_NESTED },
};

/* Only the types in `allowed` (and padding) are present in tb. */
static bool only_types(struct nlattr *const tb[], unsigned allowed)
{
	unsigned t, seen = 0;

	for (t = 0; t < TASKSTATS_TYPE_NULL; t++)
		seen |= (unsigned)(tb[t] != NULL) << t;
	return (seen & ~allowed) == 0;
}

/* One AGGR_PID or AGGR_TGID nest: an id and a stats struct. */
static int parse_aggr(const struct nlattr *nest, int id_type,
		      unsigned layout_hint, struct exit_record *r)
{
	struct nlattr *tb[TASKSTATS_TYPE_MAX + 1];
	const struct nlattr *stats;

	if (tsnl_attrs(tb, TASKSTATS_TYPE_MAX, tsnl_data(nest),
		       tsnl_len(nest), aggr_policy) < 0 ||
	    !only_types(tb, TYPE_BIT(id_type) | TYPE_BIT(TASKSTATS_TYPE_STATS)) ||
	    !tb[id_type] || !tb[TASKSTATS_TYPE_STATS])
		return -EBADMSG;
	r->id = tsnl_u32(tb[id_type]);
	stats = tb[TASKSTATS_TYPE_STATS];
	return record_parse_stats(tsnl_data(stats), tsnl_len(stats),
				  layout_hint, r);
}

static int parse_one(const struct nlattr *nest, bool pid, unsigned hint,
		     struct exit_record *r)
{
	memset(r, 0, offsetof(struct exit_record, v));
	r->type = pid ? REC_PID : REC_TGID;
	return parse_aggr(nest, pid ? TASKSTATS_TYPE_PID : TASKSTATS_TYPE_TGID,
			  hint, r);
}

int record_parse_attrs(const void *attrs, size_t len, struct exit_msg *out)
{
	struct nlattr *tb[TASKSTATS_TYPE_MAX + 1];
	const struct nlattr *pid, *tgid;

	out->n = 0;
	if (tsnl_attrs(tb, TASKSTATS_TYPE_MAX, attrs, len, msg_policy) < 0 ||
	    !only_types(tb, TYPE_BIT(TASKSTATS_TYPE_AGGR_PID) |
			    TYPE_BIT(TASKSTATS_TYPE_AGGR_TGID)))
		return -EBADMSG;
	pid = tb[TASKSTATS_TYPE_AGGR_PID];
	tgid = tb[TASKSTATS_TYPE_AGGR_TGID];
	/* Exactly: one AGGR_PID first, then at most one AGGR_TGID. */
	if (!pid || (tgid && tgid < pid) ||
	    parse_one(pid, true, 0, &out->rec[0]) < 0)
		return -EBADMSG;
	out->n = 1;
	if (!tgid)
		return 0;
	if (parse_one(tgid, false, out->rec[0].version ? out->rec[0].version
						       : TS_KNOWN_VERSION,
		      &out->rec[1]) < 0)
		return -EBADMSG;
	out->n = 2;
	/* Before v12 a pid record names no tgid; the message does.  The tgid
	 * record itself is left as the kernel sent it (no comm, uid, gid,
	 * ppid): a reader that wants them joins on rec[0]. */
	if (!rec_has(&out->rec[0], F_TGID))
		rec_set(&out->rec[0], F_TGID, out->rec[1].id);
	return 0;
}

int record_parse_nlmsg(const void *msg, size_t len, struct exit_msg *out)
{
	const struct nlattr *attrs;
	size_t attrs_len;
	uint8_t cmd;
	int r = tsnl_genl_msg(msg, len, &cmd, &attrs, &attrs_len);

	if (r < 0)
		return r;
	if (cmd != TASKSTATS_CMD_NEW)
		return -ENOMSG;
	return record_parse_attrs(attrs, attrs_len, out);
}
