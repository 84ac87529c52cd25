// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: arbitrary bytes as a netlink message through the parser
 * and every record it yields through every output format.
 *
 * Besides what the sanitizers catch, it checks what the collector relies on:
 * the parser answers 0, -EBADMSG or -ENOMSG and never claims bytes it was not
 * given; every formatted line is shorter than FORMAT_MAX_LINE, NUL-terminated
 * at the returned length, ends in '\n' and holds no other line break (in CSV
 * only inside quotes); JSON lines are pure ASCII; a small buffer gets a
 * prefix of the same line and the same length. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz_record: %s:%d: check failed: %s\n", \
			__FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

static void check_record(const struct exit_record *r, size_t size)
{
	size_t i;

	CHECK(r->type == REC_PID || r->type == REC_TGID);
	CHECK(r->stats_len <= size);
	CHECK(r->comm_len <= TS_COMM_LEN);
	CHECK(r->comm[r->comm_len] == '\0');
	for (i = 0; i < r->comm_len; i++)
		CHECK(r->comm[i] != '\0');
}

static void check_line(enum out_format f, const char *s, size_t n)
{
	int quoted = 0;
	size_t i;

	CHECK(n > 0 && n < FORMAT_MAX_LINE);
	CHECK(strlen(s) == n);
	CHECK(s[n - 1] == '\n');
	for (i = 0; i + 1 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (f == FMT_CSV && c == '"')
			quoted = !quoted;
		if (c == '\n' || c == '\r')
			CHECK(f == FMT_CSV && quoted);
		if (f == FMT_JSONL)
			CHECK(c >= 0x20 && c < 0x7f);
		if (f == FMT_TEXT)
			CHECK(c >= 0x20 && c != 0x7f);
	}
	CHECK(!quoted);
}

static void check_formats(const struct exit_record *r, size_t cap)
{
	static const enum out_format fmts[] = { FMT_TEXT, FMT_CSV, FMT_JSONL };
	static char line[FORMAT_MAX_LINE], small[FORMAT_MAX_LINE];
	unsigned i;

	for (i = 0; i < 3; i++) {
		size_t n = format_record(fmts[i], r, line, sizeof(line)), m;

		check_line(fmts[i], line, n);
		/* The same line, cut to cap bytes, with the same length. */
		m = format_record(fmts[i], r, small, cap);
		CHECK(m == n);
		if (cap) {
			size_t keep = n < cap - 1 ? n : cap - 1;

			CHECK(memcmp(small, line, keep) == 0 && small[keep] == '\0');
		}
	}
}

/* The collector formats from views of the bytes, the readers from
 * records: the same line, every format, and the same verdicts. */
static void check_views(const uint8_t *data, size_t size, int ret,
			const struct exit_msg *out)
{
	static const enum out_format fmts[] = { FMT_TEXT, FMT_CSV, FMT_JSONL };
	static char a[FORMAT_MAX_LINE], b[FORMAT_MAX_LINE];
	struct exit_views v;
	unsigned k, i;

	CHECK(record_view_nlmsg(data, size, &v) == ret);
	if (ret < 0)
		return;
	CHECK(v.n == out->n);
	CHECK(v.tgid_malformed == out->tgid_malformed);
	for (k = 0; k < v.n; k++) {
		const struct exit_record *r = &out->rec[k];

		CHECK(record_view_implausible(&v.rec[k]) == record_implausible(r));
		CHECK(record_view_unknown_fields(&v.rec[k]) ==
		      record_has_unknown_fields(r));
		for (i = 0; i < 3; i++) {
			size_t n = format_view(fmts[i], &v.rec[k], a, sizeof(a));

			CHECK(n == format_record(fmts[i], r, b, sizeof(b)));
			CHECK(memcmp(a, b, n) == 0);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exit_msg out;
	struct exit_record r;
	unsigned k;
	int ret;

	ret = record_parse_nlmsg(data, size, &out);
	CHECK(ret == 0 || ret == -EBADMSG || ret == -ENOMSG);
	check_views(data, size, ret, &out);
	if (ret == 0) {
		CHECK(out.n == 1 || out.n == 2);
		CHECK(!out.tgid_malformed || out.n == 1);	/* the pid half kept */
		for (k = 0; k < out.n; k++) {
			check_record(&out.rec[k], size);
			check_formats(&out.rec[k], size % 97);
		}
		if (out.n == 2)
			CHECK(out.rec[0].type == REC_PID &&
			      out.rec[1].type == REC_TGID);
	}
	/* The same bytes as bare attributes and as a bare stats struct reach
	 * the inner parsers without the headers in the way. */
	ret = record_parse_attrs(data, size, &out);
	CHECK(ret == 0 || ret == -EBADMSG);
	for (k = 0; ret == 0 && k < out.n; k++)
		check_record(&out.rec[k], size);
	memset(&r, 0, sizeof(r));
	r.type = REC_PID;
	if (record_parse_stats(data, size, size ? data[0] % 20 : 0, &r) == 0) {
		check_record(&r, size);
		check_formats(&r, size % 61);
	}
	return 0;
}
