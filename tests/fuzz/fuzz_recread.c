// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target for the readers of collected records: the first byte
 * is flags, the rest a file.
 *
 * First the rest is split into lines and given to recread.c directly,
 * as exitmon's CSV (header first) or, starting with '{', JSON lines: the
 * readers answer 0 or a documented error; a record they accept has a
 * type, a comm within its bounds and no NUL in it; and it survives a
 * round trip (written by format.c as CSV and JSON, read back: the same).
 *
 * Then the rest, gzip'd first when flags bit 1 is set, is read as a file
 * the way exitstat reads one (stat_input.c: linein.c's lines over its
 * inflate loop, the CSV and JSON readers, capture.c and the netlink walk
 * for a pcap), decoding every column (bit 0) or a summary's few; every
 * record it hands out is held to the same contract.  Seeds, with the
 * hostile inputs of issue #21: tests/fuzz/corpus-recread/ (made by
 * mkseeds_recread.py). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "format.h"
#include "recread.h"
#include "stat_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *report;	/* the real stderr: the readers' notes are muted */

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(report ? report : stderr, "fuzz_recread: %s:%d: check " \
			"failed: %s\n", __FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

static void check_same(const struct exit_record *a, const struct exit_record *b)
{
	CHECK(a->type == b->type && a->id == b->id && a->version == b->version);
	CHECK(a->comm_len == b->comm_len && !memcmp(a->comm, b->comm, a->comm_len));
	CHECK(!memcmp(a->present, b->present, sizeof(a->present)));
	for (unsigned f = 0; f < F__COUNT; f++)
		CHECK(!rec_has(a, (enum rec_field)f) ||
		      rec_get(a, (enum rec_field)f) == rec_get(b, (enum rec_field)f));
}

/* Written by format.c and read back: the same record. */
static void roundtrip(const struct exit_record *r)
{
	static char head[FORMAT_MAX_LINE], line[FORMAT_MAX_LINE];
	struct recread rr;
	struct exit_record b;
	size_t n;

	CHECK(r->type == REC_PID || r->type == REC_TGID);
	CHECK(r->comm_len <= TS_COMM_LEN && r->comm[r->comm_len] == '\0');
	CHECK(!memchr(r->comm, '\0', r->comm_len));
	recread_init(&rr);
	n = format_header(FMT_CSV, head, sizeof(head));
	CHECK(recread_csv_header(&rr, head, n - 1) == 0);
	n = format_record(FMT_CSV, r, line, sizeof(line));
	CHECK(recread_csv(&rr, line, n - 1, &b) == 0);
	check_same(r, &b);
	n = format_record(FMT_JSONL, r, line, sizeof(line));
	CHECK(recread_json(&rr, line, n - 1, &b) == 0);
	check_same(r, &b);
}

static void lines(const char *p, const char *end)
{
	bool csv = p == end || *p != '{', header = csv;
	struct recread rr;
	struct exit_record r;

	recread_init(&rr);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int ret;

		if (header) {
			ret = recread_csv_header(&rr, p, n);
			CHECK(ret == 0 || ret == -EPROTO || ret == -E2BIG || ret == -EEXIST);
			CHECK(rr.ncols <= RECREAD_MAX_COLS);
			if (ret < 0)
				return;
			header = false;
		} else {
			ret = csv ? recread_csv(&rr, p, n, &r) : recread_json(&rr, p, n, &r);
			CHECK(ret == 0 || ret == -EBADMSG || ret == -ENOKEY);
			if (ret == 0)
				roundtrip(&r);
		}
		p += n + 1;
	}
}

/* A record from a capture is written with its 64-bit begin time in the
 * 32-bit one's column: the round trip holds from the first reading on. */
static void on_record(void *arg, const struct exit_record *r,
		      const struct exit_record *who)
{
	static char head[FORMAT_MAX_LINE], line[FORMAT_MAX_LINE];
	struct recread rr;
	struct exit_record b;
	size_t n;

	(*(uint64_t *)arg)++;
	CHECK(who->type == REC_PID || who->type == REC_TGID);
	CHECK(r->type == REC_PID || r->type == REC_TGID);
	CHECK(r->comm_len <= TS_COMM_LEN && !memchr(r->comm, '\0', r->comm_len));
	recread_init(&rr);
	n = format_header(FMT_CSV, head, sizeof(head));
	CHECK(recread_csv_header(&rr, head, n - 1) == 0);
	n = format_record(FMT_CSV, r, line, sizeof(line));
	CHECK(recread_csv(&rr, line, n - 1, &b) == 0);
	roundtrip(&b);
}

/* data as gzip (one member): its length in *n, or NULL. */
static unsigned char *gzip(const uint8_t *data, size_t size, size_t *n)
{
	z_stream z = { 0 };
	unsigned char *out;
	size_t cap;

	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	cap = deflateBound(&z, size) + 32;
	out = malloc(cap);
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)size;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (!out || deflate(&z, Z_FINISH) != Z_STREAM_END) {
		free(out);
		out = NULL;
	}
	*n = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

/* As a file (a memfd), through exitstat's reader. */
static void as_file(uint8_t flags, const uint8_t *data, size_t size)
{
	static const enum rec_field few[] = { F_UID, F_UTIME, F_CPU_DELAY_TOTAL };
	unsigned char *z = NULL;
	struct in_counts n = { 0 };
	struct recread proto;
	uint64_t seen = 0;
	char path[64];
	int fd, r;

	if (flags & 2) {
		z = gzip(data, size, &size);
		CHECK(z);
		data = z;
	}
	fd = memfd_create("fuzz_recread", MFD_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(write(fd, data, size) == (ssize_t)size);
	free(z);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	recread_init(&proto);
	if (!(flags & 1))
		recread_want_fields(&proto, few, sizeof(few) / sizeof(few[0]));
	r = stat_input_read(path, &proto, on_record, &seen, &n);
	CHECK(r == 0 || r == -EPROTO);
	CHECK(n.records == seen);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!report) {
		report = fdopen(dup(2), "w");
		setvbuf(report, NULL, _IONBF, 0);
		stderr = fopen("/dev/null", "w");	/* the notes; ASan writes to fd 2 */
	}
	if (size < 1)
		return 0;
	lines((const char *)data + 1, (const char *)data + size);
	as_file(data[0], data + 1, size - 1);
	return 0;
}
