// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of exitprobe's kallsyms reader (src/exitprobe/probe_ksyms.c)
 * and of its summary keys (probe_report.c) on made-up inputs. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kv.h"
#include "probe_ksyms.h"
#include "probe_report.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81100000 t fill_stats\n"		/* another file's */
	"ffffffff81100100 d some_data\n"
	"ffffffff81480000 t fill_stats\n"		/* taskstats.c's */
	"ffffffff81480100 t prepare_reply\n"
	"ffffffff81480200 t mk_reply\n"
	"ffffffff81480400 T taskstats_exit\n"
	"ffffffff81480a00 T taskstats_init_early\n"
	"garbage line\n"
	"ffffffff81e00000 T __alloc_skb\n"
	"ffffffff81e00400 T kfree_skb\n"
	"ffffffff81f00000 T netlink_unicast\n"
	"ffffffff81f00300 t netlink_foo\t[somemod]\n";

static int parse(const char *text, struct probe_range *r, __u32 *n)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = probe_ksyms_ranges(f, r, n);
	fclose(f);
	return rc;
}

static const struct probe_range *find(const struct probe_range *r, __u32 n,
				      uint64_t start)
{
	for (__u32 i = 0; i < n; i++)
		if (r[i].start == start)
			return &r[i];
	return NULL;
}

static void test_ranges(void **state)
{
	struct probe_range r[PROBE_MAX_RANGES];
	const struct probe_range *x;
	__u32 n = 0;

	(void)state;
	assert_int_equal(parse(kallsyms, r, &n), 0);
	assert_int_equal(r[0].start, 0xffffffff81480400ull);
	assert_int_equal(r[0].end, 0xffffffff81480a00ull);
	assert_int_equal(n, 6);	/* taskstats_exit + 5 callees found */
	/* The fill_stats next to taskstats_exit, ending at prepare_reply. */
	x = find(r, n, 0xffffffff81480000ull);
	assert_non_null(x);
	assert_int_equal(x->end, 0xffffffff81480100ull);
	assert_int_equal(x->callee, CALLEE_FILL_STATS);
	assert_null(find(r, n, 0xffffffff81100000ull));
	x = find(r, n, 0xffffffff81e00000ull);
	assert_non_null(x);
	assert_int_equal(x->callee, CALLEE_ALLOC);
	assert_int_equal(x->end, 0xffffffff81e00400ull);
	x = find(r, n, 0xffffffff81f00000ull);
	assert_non_null(x);
	assert_int_equal(x->callee, CALLEE_SEND);
}

static void test_refusals(void **state)
{
	struct probe_range r[PROBE_MAX_RANGES];
	__u32 n = 0;

	(void)state;
	assert_int_equal(parse("ffffffff81000000 T _stext\n", r, &n), -ENOENT);
	/* kptr_restrict: every address 0. */
	assert_int_equal(parse("0000000000000000 T _stext\n"
			       "0000000000000000 T taskstats_exit\n", r, &n),
			 -EPERM);
	assert_string_equal(probe_ksyms_callee_name(CALLEE_SEND), "netlink_unicast");
	assert_string_equal(probe_ksyms_callee_name(99), "?");
}

/* The summary has the keys exitsweep reads, per class that had exits. */
static void test_summary_keys(void **state)
{
	struct probe_result res = { .method = METHOD_SAMPLE, .reason = "test",
				    .period_ns = 100000, .seconds = 1 };
	struct kvmap kv;
	struct kvbuf kb;
	double v;

	(void)state;
	res.c.exits[PROBE_CLS_TGID] = 4000;
	res.c.samples[PROBE_CLS_TGID][CALLEE_TGID] = 8;
	res.c.sample_ns[PROBE_CLS_TGID][CALLEE_TGID] = 8 * 100000;
	res.c.exits[0] = 1000;
	res.c.exits[PROBE_CLS_LISTENER] = 1000;
	res.c.foreign[PROBE_CLS_LISTENER] = 1000;
	res.c.samples[PROBE_CLS_LISTENER][CALLEE_SEND] = 30;
	res.c.sample_ns[PROBE_CLS_LISTENER][CALLEE_SEND] = 30 * 100000;
	kv_init(&kb);
	assert_int_equal(probe_report_summary_text(&res, &kb), 0);
	assert_int_equal(kv_map_parse(kb.s, &kv), 0);
	assert_string_equal(kv_map_get(&kv, "method"), "sample");
	assert_string_equal(kv_map_get(&kv, "period_us"), "100");
	assert_string_equal(kv_map_get(&kv, "exits"), "6000");
	assert_string_equal(kv_map_get(&kv, "exits_tgid_on"), "4000");
	assert_string_equal(kv_map_get(&kv, "exits_listener"), "1000");
	assert_string_equal(kv_map_get(&kv, "exits_foreign_listener"), "1000");
	assert_int_equal(kv_map_double(&kv, "ns_per_exit", &v), 0);
	assert_true(v > 633.3 && v < 633.4);	/* 38 * 100000 / 6000 */
	assert_int_equal(kv_map_double(&kv, "ns_per_exit_ci95", &v), 0);
	assert_int_equal(kv_map_double(&kv, "ns_per_exit_tgid_on_nolistener", &v), 0);
	assert_true(v == 200);
	assert_int_equal(kv_map_double(&kv, "ns_per_exit_tgid_off_nolistener", &v), 0);
	assert_true(v == 0);
	assert_int_equal(kv_map_double(&kv, "ns_per_exit_tgid_off_listener", &v), 0);
	assert_true(v == 3000);
	assert_int_equal(kv_map_double(&kv, "ns_per_exit_in_netlink_unicast", &v), 0);
	assert_true(v == 500);	/* 30 * 100 us over all 6000 exits */
	assert_int_equal(kv_map_double(&kv, "ns_per_exit_tgid_on_listener", &v),
			 -ENOENT);	/* no exits in that class */
	kv_map_free(&kv);
	kv_free(&kb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_summary_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
