/* exitsweep's files: key=value summaries read back, kernel.task_delayacct
 * saved, set and restored (on a stand-in file), exitmon's CSV read for a
 * cohort, the result CSV and JSON written and read back with a real JSON
 * reader (json-c), and compare lining two result files up. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <cmocka.h>

#include "sweep_analyze.h"
#include "sweep_cohort.h"
#include "sweep_compare.h"
#include "sweep_csv.h"
#include "sweep_json.h"
#include "kvfile.h"
#include "sweep_machine.h"
#include "sweep_plan.h"
#include "sweep_sysctl.h"
#include "sweep_table.h"

static char dir[] = "/tmp/test_sweep_files.XXXXXX";

static void path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void put_file(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	path(p, sizeof(p), name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_kv(void **state)
{
	struct kvmap kv;
	char p[256];
	double v;

	(void)state;
	put_file("s.sum", "records=12\nmatched=10\n# note\n\nmode=batch\n"
		 "seconds=0.132408\nmatched=11\r\nempty=\n");
	path(p, sizeof(p), "s.sum");
	assert_int_equal(kv_map_load(p, &kv), 0);
	assert_string_equal(kv_map_get(&kv, "mode"), "batch");
	assert_string_equal(kv_map_get(&kv, "empty"), "");
	assert_null(kv_map_get(&kv, "absent"));
	assert_int_equal(kv_map_double(&kv, "matched", &v), 0);	/* last wins */
	assert_true(v == 11);
	assert_int_equal(kv_map_double(&kv, "seconds", &v), 0);
	assert_true(fabs(v - 0.132408) < 1e-12);
	assert_int_equal(kv_map_double(&kv, "mode", &v), -EINVAL);
	assert_int_equal(kv_map_double(&kv, "absent", &v), -ENOENT);
	kv_map_free(&kv);
	assert_int_equal(kv_map_parse("novalue\n", &kv), -EBADMSG);
	assert_int_equal(kv_map_parse("=5\n", &kv), -EBADMSG);
	path(p, sizeof(p), "missing.sum");
	assert_int_equal(kv_map_load(p, &kv), -ENOENT);
}

static int read_int(const char *name)
{
	char p[256], buf[32] = "";
	FILE *f;

	path(p, sizeof(p), name);
	f = fopen(p, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	return atoi(buf);
}

/* Save 0, set 1, restore: 0 again; a second restore does nothing. */
static void test_dacct(void **state)
{
	char p[256];
	int v;

	(void)state;
	put_file("task_delayacct", "0\n");
	path(p, sizeof(p), "task_delayacct");
	sweep_sysctl_set_path(p);
	assert_int_equal(sweep_sysctl_read(&v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(sweep_sysctl_check_writable(), 0);
	assert_int_equal(sweep_sysctl_save(), 0);
	assert_true(sweep_sysctl_saved());
	assert_int_equal(sweep_sysctl_original(), 0);
	assert_int_equal(sweep_sysctl_set(1), 0);
	assert_int_equal(read_int("task_delayacct"), 1);
	assert_int_equal(sweep_sysctl_set(1), 0);	/* no change, no write */
	assert_int_equal(sweep_sysctl_restore(), 0);
	assert_int_equal(read_int("task_delayacct"), 0);
	put_file("task_delayacct", "1\n");	/* someone else changed it */
	assert_int_equal(sweep_sysctl_restore(), 0);	/* we did not: hands off */
	assert_int_equal(read_int("task_delayacct"), 1);
	/* the signal path writes the saved value too */
	assert_int_equal(sweep_sysctl_set(0), 0);
	put_file("task_delayacct", "1\n");
	sweep_sysctl_restore_from_signal();
	assert_int_equal(read_int("task_delayacct"), 0);
	put_file("task_delayacct", "junk\n");
	assert_int_equal(sweep_sysctl_read(&v), -EINVAL);
	path(p, sizeof(p), "no/such/file");
	sweep_sysctl_set_path(p);
	assert_int_equal(sweep_sysctl_read(&v), -ENOENT);
	assert_int_equal(sweep_sysctl_check_writable(), -ENOENT);
	sweep_sysctl_set_path(DELAYACCT_PATH);
}

/* exitmon's CSV (its real header) for a cohort of three plus noise. */
static void test_cohort_csv(void **state)
{
	struct sweep_run run;
	char p[256];

	(void)state;
	memset(&run, 0, sizeof(run));
	for (int m = 0; m < M_COUNT; m++)
		run.v[m] = NAN;
	put_file("mon.csv",
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
	path(p, sizeof(p), "mon.csv");
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
	put_file("bad.csv", "type,pid\npid,1\n");
	path(p, sizeof(p), "bad.csv");
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
	put_file("cut.csv", text);
	path(p, sizeof(p), "cut.csv");
	assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), 0);
	assert_int_equal(run.n_exit_times, 1);
	free(run.exit_times);
	memset(&run, 0, sizeof(run));
	path(p, sizeof(p), "mon.csv.gz");
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
		put_file("long.csv", big);
		free(big);
		memset(&run, 0, sizeof(run));
		path(p, sizeof(p), "long.csv");
		assert_int_equal(sweep_cohort_read_csv(p, "xsco", &run), -EBADMSG);
	}
}

static void test_table(void **state)
{
	struct sweep_table *t = sweep_table_new(3);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	sweep_table_right(t, 1);
	sweep_table_row(t);
	sweep_table_cell(t, "Rate");
	sweep_table_cell(t, "Sys");
	sweep_table_cell(t, "Note");
	sweep_table_row(t);
	sweep_table_cell(t, "max");
	sweep_table_cell(t, "+3.28 ±2.91~");
	sweep_table_cell(t, "x");
	sweep_table_print(t, f, "  ");
	fclose(f);
	assert_string_equal(buf,
		"  Rate           Sys  Note\n"
		"  ------------------------\n"
		"  max   +3.28 ±2.91~  x\n");
	assert_int_equal(sweep_table_text_width("±~"), 2);
	free(buf);
	sweep_table_free(t);
}

/* A tiny finished sweep: 2 cells x 2 runs with made-up values. */
static void fake_sweep(struct sweep_config *cfg, struct sweep_plan *plan,
		       struct sweep_machine *m, double sys_on)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->kind = KIND_OVERHEAD;
	cfg->runs = 2;
	cfg->count = 100;
	cfg->seed = 3;
	snprintf(cfg->command, sizeof(cfg->command), "exitsweep --runs 2");
	for (int d = 0; d < DIM_COUNT; d++)
		sweep_plan_single(&cfg->dim[d], 0, "-");
	assert_int_equal(sweep_plan_parse_rates("max", &cfg->dim[DIM_RATE]), 0);
	assert_int_equal(sweep_plan_parse_onoff("on,off", &cfg->dim[DIM_TGID]), 0);
	assert_int_equal(sweep_plan_parse_listeners("batch", &cfg->dim[DIM_LISTENER]), 0);
	assert_int_equal(sweep_plan_parse_dacct("keep", &cfg->dim[DIM_DACCT]), 0);
	assert_int_equal(sweep_plan_build(cfg, plan), 0);
	for (size_t i = 0; i < plan->n_runs; i++) {
		struct sweep_run *r = &plan->runs[i];
		bool on = cell_val(cfg, &plan->cells[r->cell], DIM_TGID);

		snprintf(r->tag, sizeof(r->tag), "xs1r%u", (unsigned)(i % 1000));
		r->done = true;
		r->v[M_USER] = 1;
		r->v[M_SYS] = (on ? sys_on : 1.0) + 0.01 * r->rep;
		r->v[M_ELAPSED] = 2;
		r->v[M_ACHIEVED] = 5000;
		r->v[M_EXITS] = 100;
		r->v[M_RECORDS] = 100 - r->rep;
		r->v[M_LOST] = r->rep;
		r->v[M_DROPPED] = r->rep;
		r->v[M_ENOBUFS] = r->rep;
	}
	memset(m, 0, sizeof(*m));
	snprintf(m->hostname, sizeof(m->hostname), "box, \"one\"");
	snprintf(m->kernel, sizeof(m->kernel), "6.18.0");
	snprintf(m->arch, sizeof(m->arch), "x86_64");
	snprintf(m->cpu_model, sizeof(m->cpu_model), "Some CPU, 2 cores");
	m->cpus = 2;
	m->struct_version = 16;
	snprintf(m->exitmon_version, sizeof(m->exitmon_version), "exitmon 0.1.0");
	snprintf(m->exitgen_version, sizeof(m->exitgen_version), "exitgen 0.1.0");
	snprintf(m->exitsweep_version, sizeof(m->exitsweep_version), "exitsweep 0.1.0");
	snprintf(m->started, sizeof(m->started), "2026-12-02T00:00:00Z");
}

static void test_csv_json_compare(void **state)
{
	struct sweep_config cfg;
	struct sweep_plan plan;
	struct sweep_machine m;
	struct analysis a;
	struct json_object *doc, *o, *arr;
	char pa[256], pb[256], pc[256], err[256], *buf = NULL, line[4096];
	const char *files[2];
	size_t len = 0, rows = 0;
	FILE *f;

	(void)state;
	fake_sweep(&cfg, &plan, &m, 1.5);
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);

	/* CSV: header, 4 run rows, 2 cell rows; quoted machine fields */
	path(pc, sizeof(pc), "r.csv");
	assert_int_equal(sweep_csv_write(pc, &cfg, &plan, &a, &m), 0);
	f = fopen(pc, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(strstr(line, "row,kind,cell,run,order,tag,rate,tgid,listener,"
			       "delayacct,n,user_s,sys_s"));
	while (fgets(line, sizeof(line), f)) {
		rows++;
		assert_non_null(strstr(line, ",\"box, \"\"one\"\"\",6.18.0,"));
		assert_non_null(strstr(line, ",\"Some CPU, 2 cores\",16,"));
	}
	fclose(f);
	assert_int_equal(rows, 6);

	/* JSON read back with json-c */
	path(pa, sizeof(pa), "a.json");
	assert_int_equal(sweep_json_write(pa, &cfg, &plan, &a, &m), 0);
	doc = json_object_from_file(pa);
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "format", &o));
	assert_string_equal(json_object_get_string(o), SWEEP_JSON_FORMAT);
	assert_true(json_object_object_get_ex(doc, "machine", &o));
	assert_true(json_object_object_get_ex(o, "hostname", &o));
	assert_string_equal(json_object_get_string(o), "box, \"one\"");
	assert_true(json_object_object_get_ex(doc, "runs", &arr));
	assert_int_equal(json_object_array_length(arr), 4);
	assert_true(json_object_object_get_ex(doc, "comparisons", &arr));
	o = json_object_array_get_idx(arr, 0);
	assert_true(json_object_object_get_ex(o, "section", &o));
	assert_string_equal(json_object_get_string(o), "tgid");
	assert_true(json_object_object_get_ex(doc, "loss", &arr));
	o = json_object_array_get_idx(arr, 0);
	assert_true(json_object_object_get_ex(o, "lost", &o));
	assert_true(json_object_get_double(o) == 1);
	json_object_put(doc);
	sweep_analyze_free(&a);
	sweep_plan_free(&plan);

	/* a second machine where tgid costs more; compare lines them up */
	fake_sweep(&cfg, &plan, &m, 2.0);
	snprintf(m.hostname, sizeof(m.hostname), "two");
	assert_int_equal(sweep_analyze(&cfg, &plan, &a), 0);
	path(pb, sizeof(pb), "b.json");
	assert_int_equal(sweep_json_write(pb, &cfg, &plan, &a, &m), 0);
	sweep_analyze_free(&a);
	sweep_plan_free(&plan);
	files[0] = pa;
	files[1] = pb;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 2, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(buf, "box, \"one\""));
	assert_non_null(strstr(buf, "two"));
	/* sys: (1.505 - 1.005) / 1.005 = +49.75%, (2.005 - 1.005) / 1.005 = +99.50% */
	assert_non_null(strstr(buf, "rate=max listener=batch delayacct=keep"));
	assert_non_null(strstr(buf, "+49.75 ±"));
	assert_non_null(strstr(buf, "+99.50 ±"));
	free(buf);

	/* not a result file: a clear error */
	put_file("x.json", "{\"format\": \"other\"}");
	path(pc, sizeof(pc), "x.json");
	files[1] = pc;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 2, err, sizeof(err)), -EBADMSG);
	fclose(f);
	free(buf);
	assert_non_null(strstr(err, "is not an exitsweep result file"));

	/* another kind: refused, naming both */
	put_file("r.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"kind\": \"reap\", "
		 "\"summary\": []}");
	path(pc, sizeof(pc), "r.json");
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 2, err, sizeof(err)), -EINVAL);
	fclose(f);
	free(buf);
	assert_non_null(strstr(err, "kind overhead but"));
	assert_non_null(strstr(err, "one of kind reap: compare result files of one kind"));

	/* an old file calling a zero-width interval significant: not shown so */
	put_file("z.json", "{\"format\": \"" SWEEP_JSON_FORMAT "\", \"kind\": "
		 "\"overhead\", \"runs_done\": 3, \"runs_planned\": 8, \"partial\": "
		 "true, \"summary\": [{\"section\": \"tgid\", \"title\": \"t\", "
		 "\"key\": \"k\", \"label\": \"User\", \"unit\": \"%\", \"value\": "
		 "-100, \"lo\": -100, \"hi\": -100, \"significant\": true}]}");
	path(pc, sizeof(pc), "z.json");
	files[0] = pc;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 1, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(buf, "-100.0 ±0.0~"));
	assert_non_null(strstr(buf, "3 of 8, partial"));
	free(buf);
}

static void test_cpu_model(void **state)
{
	char p[256], model[64];

	(void)state;
	put_file("cpuinfo", "processor\t: 0\nvendor_id\t: X\nmodel name\t: Fast CPU @ 3GHz\n");
	path(p, sizeof(p), "cpuinfo");
	sweep_machine_cpu_model(p, model, sizeof(model));
	assert_string_equal(model, "Fast CPU @ 3GHz");
	put_file("cpuinfo", "processor\t: 0\nBogoMIPS\t: 50\n");
	sweep_machine_cpu_model(p, model, sizeof(model));
	assert_string_equal(model, "unknown");
}

/* compare on what is not a result file: one line naming the file, where
 * it stops being one and what it is instead -- never json-c's own words. */
static void compare_err(const char *name, const char *text, const char *why)
{
	const char *files[1];
	char p[256], err[1024];
	FILE *f;
	char *buf = NULL;
	size_t len = 0;

	put_file(name, text);
	path(p, sizeof(p), name);
	files[0] = p;
	f = open_memstream(&buf, &len);
	assert_int_equal(sweep_compare_files(f, files, 1, err, sizeof(err)), -EBADMSG);
	fclose(f);
	assert_int_equal(len, 0);	/* no table */
	free(buf);
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, "is not an exitsweep result file"));
	if (!strstr(err, why))
		fail_msg("%s: \"%s\" lacks \"%s\"", name, err, why);
	assert_null(strstr(err, "json_tokener"));
	assert_null(strchr(err, '\n'));
}

static void test_compare_not_result(void **state)
{
	(void)state;
	compare_err("empty.json", "", "it is empty");
	compare_err("blank.json", " \n\n", "it is empty");
	compare_err("cut.json", "{\n  \"format\": \"exitsweep/1\",\n  \"summ",
		    "ends early, at line 3, column 8");
	compare_err("runs.csv", "row,kind,cell\nrun,overhead,1\n",
		    "not JSON at line 1, column 1 ('r')");
	compare_err("bool.csv", "true,false\n", "more follows its JSON, at line 1, column 5");
	compare_err("f.csv", "format,x\n", "not JSON at line 1, column 1 ('f')");
	compare_err("two.json", "{}\n{}\n", "more follows its JSON, at line 2, column 1");
	compare_err("arr.json", "[1, 2]", "without a \"format\" member");
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_dacct),
		cmocka_unit_test(test_cohort_csv),
		cmocka_unit_test(test_cohort_csv_cut_and_gzip),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_csv_json_compare),
		cmocka_unit_test(test_cpu_model),
		cmocka_unit_test(test_compare_not_result),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
