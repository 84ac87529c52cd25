/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keys of exitgen's --summary file (key=value, see kv.h) and of its
 * --json object: written by genreport.c, read by exitsweep.  A contract
 * between programs: add keys, never rename one. */
#ifndef COMMON_GEN_SUMMARY_H
#define COMMON_GEN_SUMMARY_H

#define GEN_KEY_EXITS		"exits"		/* tasks (groups for group:K) */
#define GEN_KEY_TASKS_EXITED	"tasks_exited"	/* every thread of every group */
#define GEN_KEY_TARGET_RATE	"target_rate"	/* number or "max" */
#define GEN_KEY_ACHIEVED_RATE	"achieved_rate"
#define GEN_KEY_ELAPSED		"elapsed"	/* seconds */
/* getrusage, self + children, seconds: the sum is exact, the split is
 * tick-sampled (see README "Why user and sys mislead"). */
#define GEN_KEY_USER		"user"
#define GEN_KEY_SYS		"sys"
#define GEN_KEY_USER_SELF	"user_self"
#define GEN_KEY_SYS_SELF	"sys_self"
#define GEN_KEY_USER_CHILDREN	"user_children"
#define GEN_KEY_SYS_CHILDREN	"sys_children"
/* Exact CPU over the run, in cpu_unit: "ns", or "instr" under the
 * instruction clock (emulation_unit()).  Self from
 * CLOCK_PROCESS_CPUTIME_ID (exited threads included), children the reaped
 * children's user + sys, whose sum the kernel keeps equal to their
 * sum_exec_runtime (to the us); per exit is the total over "exits". */
#define GEN_KEY_CPU_UNIT	"cpu_unit"
#define GEN_KEY_CPU_SELF	"cpu_self"
#define GEN_KEY_CPU_CHILDREN	"cpu_children"
#define GEN_KEY_CPU_TOTAL	"cpu_total"
#define GEN_KEY_CPU_PER_EXIT	"cpu_per_exit"
#define GEN_KEY_SATURATED	"saturated"
#define GEN_KEY_LATE_P50	"late_p50_us"
#define GEN_KEY_LATE_P99	"late_p99_us"
#define GEN_KEY_LATE_MAX	"late_max_us"
#define GEN_KEY_SHAPE		"shape"
#define GEN_KEY_TAG		"tag"
#define GEN_KEY_TASKS_CREATED	"tasks_created"
#define GEN_KEY_STOPPED_BY	"stopped_by"
#define GEN_KEY_MODE		"mode"
#define GEN_KEY_WORKERS		"workers"
#define GEN_KEY_THREADS_PER_TASK "threads_per_task"
#define GEN_KEY_EXIT_BY		"exit_by"
#define GEN_KEY_REAP_P50	"reap_p50_us"
#define GEN_KEY_REAP_P99	"reap_p99_us"
#define GEN_KEY_REAP_MAX	"reap_max_us"
#define GEN_KEY_CHILDREN_LEFT	"children_left"
#define GEN_KEY_BATCH		"batch"
#define GEN_KEY_BACKGROUND	"background"
#define GEN_KEY_KILL_BACKGROUND	"kill_background_s"
#define GEN_KEY_MMAP_BYTES	"mmap_bytes"
#define GEN_KEY_KILL_REAP	"kill_reap_s"
#define GEN_KEY_COHORT_N	"cohort_n"
#define GEN_KEY_COHORT_FIRST	"cohort_first_s"
#define GEN_KEY_COHORT_LAST	"cohort_last_s"
#define GEN_KEY_COHORT_SPREAD	"cohort_spread_s"
#define GEN_KEY_COHORT_MEDIAN	"cohort_median_s"
#define GEN_KEY_COHORT_NGROUPS	"cohort_ngroups"
#define GEN_KEY_COHORT_GROUPS	"cohort_groups"	/* sizes in exit order, "2,2,2" */
#define GEN_KEY_COHORT_FINISH	"cohort_finish_s" /* "0.51,0.52,..." */

#endif
