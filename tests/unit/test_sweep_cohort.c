// SPDX-License-Identifier: GPL-2.0-or-later
/* exitmon's CSV read for a cohort: the delays and lifetimes of the
 * cohort's records, the implausible ones left out, exitgen's finish times
 * and groups, a cut last row, a gzip'd file, and what is not exitmon's
 * CSV. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <cmocka.h>

#include "scratch.h"
#include "sweep_cohort.h"

/* exitmon's CSV (its real header) for a cohort of three plus noise. */
static void test_cohort_csv(void **state)
{
	struct sweep_run run;
	char p[256];

	(void)state;
	memset(&run, 0, sizeof(run));
	for (int m = 0; m < M_COUNT; m++)
		run.v[m] = NAN;
	scratch_put("mon.csv",
		    "type,pid,tgid,ppid,comm,uid,gid,exitcode,flags,nice,btime,elapsed_us,"
		    "utime_us,stime_us,minflt,majflt,cpu_run_real_ns,cpu_run_virtual_ns,"
		    "cpu_count,cpu_delay_ns,blkio_count,blkio_delay_ns,swapin_count,"
		    "swapin_delay_ns,freepages_delay_ns,thrashing_delay_ns,compact_delay_ns,"
		    "wpcopy_delay_ns,irq_delay_ns,nvcsw,nivcsw,hiwater_rss_kb,hiwater_vm_kb,"
		    "read_char,write_char,read_bytes,write_bytes,cancelled_write_bytes,version\n"
		    "pid,10,10,1,xsco,0,0,0,0,0,1,2000000,0,0,0,0,1000000000,0,1,500000000,0,"
		    "1000000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,16\n"
		    "pid,11,11,1,xsco,0,0,0,0,0,1,1000000,0,0,0,0,1000000000,0,1,100000000,0,"
		    "3000000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,16\n"
		    "pid,12,12,1,\"other,x\",0,0,0,0,0,1,9000000,0,0,0,0,0,0,1,9,0,9,0,0,0,0,"
		    "0,0,0,0,0,0,0,0,0,0,0,0,16\n"
		    "tgid,0,13,0,,0,0,0,0,0,1,9000000,0,0,0,0,0,0,1,9,0,9,0,0,0,0,0,0,0,0,0,"
		    "0,0,0,0,0,0,0,16\n"
		    "pid,13,13,1,xsco,0,0,0,0,0,1,3000000,0,0,0,0,1000000000,0,1,300000000,0,"
		    "2000000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,16\n"
		    /* "delay = uptime" right after the sysctl flips: 6 ms lived,
		     * 2,173,143 ms of I/O delay; and one through swapin */
		    "pid,14,14,1,xsco,0,0,0,0,0,1,6000,0,0,0,0,1000000,0,1,0,0,"
		    "2173143000000000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,16\n"
		    "pid,15,15,1,xsco,0,0,0,0,0,1,7000,0,0,0,0,1000000,0,1,0,0,"
		    "0,0,17010000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,16\n");
	scratch_path(p, sizeof(p), "mon.csv");
	assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), 0);
	assert_true(fabs(run.v[M_CPU_DELAY_MEAN] - 300) < 1e-9);	/* ms */
	assert_true(fabs(run.v[M_CPU_DELAY_MAX] - 500) < 1e-9);
	assert_true(fabs(run.v[M_BLKIO_DELAY_MEAN] - 2) < 1e-9);
	assert_true(fabs(run.v[M_BLKIO_DELAY_MAX] - 3) < 1e-9);
	assert_true(fabs(run.v[M_RUN_REAL_MEAN] - 1000) < 1e-9);
	/* the two implausible records are left out of the delays, counted */
	assert_true(run.v[M_EXCLUDED] == 2);
	/* no exitgen times: lifetimes (all five) stand in, sorted */
	assert_int_equal(run.n_exit_times, 5);
	assert_false(run.times_from_gen);
	assert_true(run.exit_times[0] == 0.006 && run.exit_times[4] == 3);
	/* exitgen's times replace them; its groups become 2+1 */
	assert_int_equal(sweep_cohort_set_times(&run, "0.52,0.51,1.02"), 0);
	assert_true(run.times_from_gen);
	assert_true(run.exit_times[0] == 0.51 && run.exit_times[2] == 1.02);
	sweep_cohort_set_groups(&run, "2,1");
	assert_string_equal(run.groups, "2+1");
	assert_true(run.v[M_GROUPS] == 2 && run.v[M_BIGGEST_GROUP] == 2);
	assert_int_equal(sweep_cohort_set_times(&run, "0.5,x"), -EINVAL);
	free(run.exit_times);
	scratch_put("bad.csv", "type,pid\npid,1\n");
	scratch_path(p, sizeof(p), "bad.csv");
	assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), -EBADMSG);
}

/* A last row cut short is not read; a gzip'd file reads like plain. */
static void test_cohort_csv_cut_and_gzip(void **state)
{
	static const char hdr[] = "type,pid,tgid,comm,elapsed_us,cpu_run_real_ns,"
				  "cpu_delay_ns,blkio_delay_ns,version\n";
	static const char rows[] = "pid,10,10,xsco,2000000,1000,0,0,16\n"
				   "pid,11,11,xsco,1000000,1000,0,0,16\n";
	struct sweep_run run;
	char p[256], text[256];
	gzFile g;

	(void)state;
	memset(&run, 0, sizeof(run));
	snprintf(text, sizeof(text), "%s%.*s", hdr, (int)strlen(rows) - 1, rows);
	scratch_put("cut.csv", text);
	scratch_path(p, sizeof(p), "cut.csv");
	assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), 0);
	assert_int_equal(run.n_exit_times, 1);
	free(run.exit_times);
	/* A header cut short, ended by the next start, which wrote its own
	 * header and rows: one damaged line, passed over to the header. */
	memset(&run, 0, sizeof(run));
	snprintf(text, sizeof(text), "type,pid,tg,,,,,,,\n%s%s", hdr, rows);
	scratch_put("damaged.csv", text);
	scratch_path(p, sizeof(p), "damaged.csv");
	assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), 0);
	assert_int_equal(run.n_exit_times, 2);
	free(run.exit_times);
	memset(&run, 0, sizeof(run));
	scratch_path(p, sizeof(p), "mon.csv.gz");
	g = gzopen(p, "wb");
	assert_non_null(g);
	gzprintf(g, "%s%s", hdr, rows);
	assert_int_equal(gzclose(g), Z_OK);
	assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), 0);
	assert_int_equal(run.n_exit_times, 2);
	assert_true(run.exit_times[0] == 1 && run.exit_times[1] == 2);
	free(run.exit_times);
	/* A row longer than any of exitmon's (an unclosed quote running on):
	 * not exitmon's CSV. */
	{
		size_t n = strlen(hdr) + (2u << 20);
		char *big = malloc(n + 1);

		assert_non_null(big);
		memset(big, 'x', n);
		memcpy(big, hdr, strlen(hdr));
		big[strlen(hdr)] = '"';
		big[n] = '\0';
		scratch_put("long.csv", big);
		free(big);
		memset(&run, 0, sizeof(run));
		scratch_path(p, sizeof(p), "long.csv");
		assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), -EBADMSG);
	}
}

/* A record shipped twice (the same run and seq in two rows, as a file
 * appended to by a replay of the same run) is counted once: three rows,
 * two records, and the mean is theirs. */
static void test_cohort_csv_repeat(void **state)
{
	static const char run_id[] = "0123456789abcdef0123456789abcdef";
	struct sweep_run run;
	char p[256], body[1024];

	(void)state;
	memset(&run, 0, sizeof(run));
	for (int m = 0; m < M_COUNT; m++)
		run.v[m] = NAN;
	snprintf(body, sizeof(body),
		 "run,seq,type,pid,comm,elapsed_us,cpu_run_real_ns,cpu_delay_ns,"
		 "blkio_delay_ns\n"
		 "%s,1,pid,10,xsco,2000000,1000000,100000000,0\n"
		 "%s,2,pid,11,xsco,2000000,1000000,300000000,0\n"
		 "%s,2,pid,11,xsco,2000000,1000000,300000000,0\n",
		 run_id, run_id, run_id);
	scratch_put("rep.csv", body);
	scratch_path(p, sizeof(p), "rep.csv");
	assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), 0);
	assert_int_equal(run.n_exit_times, 2);
	assert_true(fabs(run.v[M_CPU_DELAY_MEAN] - 200) < 1e-9);	/* ms */
	free(run.exit_times);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cohort_csv),
		cmocka_unit_test(test_cohort_csv_cut_and_gzip),
		cmocka_unit_test(test_cohort_csv_repeat),
	};

	return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
