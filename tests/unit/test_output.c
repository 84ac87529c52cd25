// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the record writer (src/exitmon/output.c) on a regular file
 * that fills up (RLIMIT_FSIZE makes a write stop part way, as a full disk
 * does): the file is never cut back; a line written in part is finished
 * when the file takes writes again; a line an earlier run left cut is
 * ended before appending; every record is counted written or unwritten. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "output.h"
#include "scratch.h"

#define L1 "{\"seq\":1,\"comm\":\"one\"}\n"
#define L2 "{\"seq\":2,\"comm\":\"two\"}\n"
#define L3 "{\"seq\":3,\"comm\":\"three\"}\n"
#define L4 "{\"seq\":4,\"comm\":\"four\"}\n"

static char *slurp(const char *name)
{
	static char buf[65536];
	char p[256];
	size_t n;
	FILE *f;

	scratch_path(p, sizeof(p), name);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Files may grow to `bytes` from now on (the soft limit; 0: the hard). */
static void file_limit(rlim_t bytes)
{
	struct rlimit r;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &r), 0);
	r.rlim_cur = bytes ? bytes : r.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &r), 0);
}

static void open_jsonl(struct output *o, const char *name)
{
	char p[256];

	scratch_path(p, sizeof(p), name);
	assert_int_equal(output_open(o, p, FMT_JSONL, NULL), 0);
}

static void assert_counts(struct output *o, uint64_t w, uint64_t u)
{
	uint64_t written, unwritten;

	output_counts(o, &written, &unwritten);
	assert_int_equal(written, w);
	assert_int_equal(unwritten, u);
}

static void test_line_finished_after_full(void **state)
{
	struct output o;

	(void)state;
	open_jsonl(&o, "full.jsonl");
	/* room for L1 and half of L2: L3 is lost, L2's rest waits */
	file_limit(strlen(L1) + 10);
	output_put(&o, L1 L2 L3, strlen(L1 L2 L3), 3);
	assert_int_not_equal(output_error(&o), 0);
	assert_counts(&o, 1, 1);
	assert_true(o.midline);
	/* still full: nothing moves, nothing is cut back */
	output_put(&o, L4, strlen(L4), 1);
	assert_counts(&o, 1, 2);
	assert_int_equal(strlen(slurp("full.jsonl")), strlen(L1) + 10);
	/* room again: L2 is finished first, then the new line */
	file_limit(0);
	output_put(&o, L4, strlen(L4), 1);
	assert_int_equal(output_error(&o), 0);
	assert_counts(&o, 3, 2);
	assert_string_equal(slurp("full.jsonl"), L1 L2 L4);
	output_close(&o);
}

static void test_drain_counts_the_cut_line(void **state)
{
	struct output o;

	(void)state;
	open_jsonl(&o, "drain.jsonl");
	file_limit(5);
	output_put(&o, L1 L2, strlen(L1 L2), 2);
	output_drain(&o, 0);
	file_limit(0);
	assert_counts(&o, 0, 2);
	output_close(&o);
	/* the cut stays for the next start to end */
	assert_string_equal(slurp("drain.jsonl"), "{\"seq");
}

static void test_start_ends_a_cut_line(void **state)
{
	struct output o;

	(void)state;
	scratch_put("cut.jsonl", L1 "{\"seq\":2,\"co");
	open_jsonl(&o, "cut.jsonl");
	assert_int_equal(o.cut_bytes, strlen("{\"seq\":2,\"co"));
	output_put(&o, L3, strlen(L3), 1);
	assert_counts(&o, 1, 0);
	output_close(&o);
	assert_string_equal(slurp("cut.jsonl"), L1 "{\"seq\":2,\"co\n" L3);
}

static void test_start_full_keeps_the_end(void **state)
{
	struct output o;

	(void)state;
	/* the disk is full at start: the cut line's end is kept, and no
	 * record is glued to the cut line when there is room again */
	scratch_put("cutfull.jsonl", L1 "{\"se");
	file_limit(strlen(L1) + 4);
	open_jsonl(&o, "cutfull.jsonl");
	output_put(&o, L2, strlen(L2), 1);
	assert_counts(&o, 0, 1);
	file_limit(0);
	output_put(&o, L3, strlen(L3), 1);
	assert_counts(&o, 1, 1);
	output_close(&o);
	assert_string_equal(slurp("cutfull.jsonl"), L1 "{\"se\n" L3);
}

static void test_csv_cut_header(void **state)
{
	char p[256], hdr[FORMAT_MAX_LINE];
	size_t n = format_header_cols(FMT_CSV, NULL, hdr, sizeof(hdr));
	struct output o;
	const char *got;

	(void)state;
	/* killed while writing the header: the cut header is ended as a
	 * line no reader takes, and a whole header follows */
	hdr[n] = '\0';
	scratch_put("cuthdr.csv", "run,seq,ti");
	scratch_path(p, sizeof(p), "cuthdr.csv");
	assert_int_equal(output_open(&o, p, FMT_CSV, NULL), 0);
	output_put(&o, "x\n", 2, 1);
	assert_counts(&o, 1, 0);
	output_close(&o);
	got = slurp("cuthdr.csv");
	assert_memory_equal(got, "run,seq,ti,", 11);
	got = strchr(got, '\n') + 1;
	assert_memory_equal(got, hdr, n);
	assert_string_equal(got + n, "x\n");
	/* a third start: the damaged line and the header after it are the
	 * file's head, appended under with no header more (it used to be
	 * refused as "other columns", the service down for good) */
	assert_int_equal(output_open(&o, p, FMT_CSV, NULL), 0);
	output_put(&o, "y\n", 2, 1);
	assert_counts(&o, 1, 0);
	output_close(&o);
	got = strchr(slurp("cuthdr.csv"), '\n') + 1;
	assert_memory_equal(got, hdr, n);
	assert_string_equal(got + n, "x\ny\n");
	/* a header cut after more fields than this one has (another -F)
	 * still ends in an empty field, the damaged line readers pass */
	scratch_put("cutwide.csv", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,"
		    "x,y,z,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,"
		    "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,a,b,c,d,e,"
		    "f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,a,b,c,d,e,f,g,h,i,j,k");
	scratch_path(p, sizeof(p), "cutwide.csv");
	assert_int_equal(output_open(&o, p, FMT_CSV, NULL), 0);
	output_close(&o);
	got = slurp("cutwide.csv");
	assert_memory_equal(strchr(got, '\n') - 2, "k,\n", 3);
	assert_int_equal(output_open(&o, p, FMT_CSV, NULL), 0);
	output_close(&o);
}

/* Rotate rot.jsonl to rot.jsonl.1 while the rest of L1 waits, the file
 * still full (`full`) or not, and write L3 after. */
static void rotate_cut(struct output *o, bool full)
{
	char p[256], q[256];
	uint64_t lost;

	scratch_path(p, sizeof(p), "rot.jsonl");
	unlink(p);
	open_jsonl(o, "rot.jsonl");
	file_limit(5);
	output_put(o, L1 L2, strlen(L1 L2), 2);
	if (!full)
		file_limit(0);
	scratch_path(q, sizeof(q), "rot.jsonl.1");
	assert_int_equal(rename(p, q), 0);
	assert_int_equal(output_reopen(o, &lost), 0);
	file_limit(0);
	output_put(o, L3, strlen(L3), 1);
	output_close(o);
}

static void test_reopen_finishes_the_line(void **state)
{
	struct output o;

	(void)state;
	rotate_cut(&o, false);
	assert_string_equal(slurp("rot.jsonl.1"), L1);
	assert_string_equal(slurp("rot.jsonl"), L3);
}

static void test_reopen_leaves_the_cut(void **state)
{
	struct output o;

	(void)state;
	/* the rest of a line begun in the old file never goes to the new */
	rotate_cut(&o, true);
	assert_string_equal(slurp("rot.jsonl.1"), "{\"seq");
	assert_string_equal(slurp("rot.jsonl"), L3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_finished_after_full),
		cmocka_unit_test(test_drain_counts_the_cut_line),
		cmocka_unit_test(test_start_ends_a_cut_line),
		cmocka_unit_test(test_start_full_keeps_the_end),
		cmocka_unit_test(test_csv_cut_header),
		cmocka_unit_test(test_reopen_finishes_the_line),
		cmocka_unit_test(test_reopen_leaves_the_cut),
	};

	/* a write past the limit fails with EFBIG instead of a signal */
	signal(SIGXFSZ, SIG_IGN);
	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
