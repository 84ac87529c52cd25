/* libFuzzer target: arbitrary bytes as exitmon's CSV (first byte even: the
 * first line is the header) or JSON lines (odd) through the readers.
 *
 * Besides what the sanitizers catch, it checks the readers' contract: they
 * answer 0 or a documented error; a record they accept has a type, a comm
 * within its bounds and no NUL in it; and it survives a round trip: written
 * by format.c (CSV and JSON) and read back, it is the same record. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "recread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz_recread: %s:%d: check failed: %s\n", \
			__FILE__, __LINE__, #cond); \
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p, *end;
	struct recread rr;
	struct exit_record r;
	bool csv, header;

	if (size < 1)
		return 0;
	csv = data[0] % 2 == 0;
	header = csv;
	p = (const char *)data + 1;
	end = (const char *)data + size;
	recread_init(&rr);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int ret;

		if (header) {
			ret = recread_csv_header(&rr, p, n);
			CHECK(ret == 0 || ret == -EPROTO || ret == -E2BIG);
			CHECK(rr.ncols <= RECREAD_MAX_COLS);
			if (ret < 0)
				return 0;
			header = false;
		} else {
			ret = csv ? recread_csv(&rr, p, n, &r) : recread_json(&rr, p, n, &r);
			CHECK(ret == 0 || ret == -EBADMSG);
			if (ret == 0)
				roundtrip(&r);
		}
		p += n + 1;
	}
	return 0;
}
