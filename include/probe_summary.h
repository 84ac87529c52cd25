/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keys of exitprobe's --summary file (key=value, see kv.h): written by
 * exitprobe, read by exitsweep.  The per-class key is built from the class
 * names: ns_per_exit_<tgid_on|tgid_off>_<listener|nolistener>. */
#ifndef COMMON_PROBE_SUMMARY_H
#define COMMON_PROBE_SUMMARY_H

#define PROBE_KEY_METHOD		"method"	/* fentry | sample */
#define PROBE_KEY_METHOD_WHY		"method_reason"	/* why auto chose it */
#define PROBE_KEY_PERIOD_US		"period_us"	/* sample only */
#define PROBE_KEY_EXITS			"exits"
#define PROBE_KEY_EXITS_TGID_ON		"exits_tgid_on"
#define PROBE_KEY_EXITS_LISTENER	"exits_listener"
#define PROBE_KEY_EXITS_FOREIGN		"exits_foreign_listener"
#define PROBE_KEY_NS_PER_EXIT		"ns_per_exit"
#define PROBE_KEY_NS_PER_EXIT_CI95	"ns_per_exit_ci95"
#define PROBE_KEY_CLASS_PREFIX		"ns_per_exit_"
/* the unit of every ns key (and of period_us, in thousands): "ns", or
 * "instr" under the instruction clock (emulation.h) */
#define PROBE_KEY_UNIT			"unit"
/* the figure to read first: "mode" (fentry under the instruction clock:
 * mode_<class>, the common path's exact count) or "mean" */
#define PROBE_KEY_HEADLINE		"headline"
#define PROBE_KEY_MODE_PREFIX		"mode_"
/* the probe's own cost: samples taken (sample), its BPF programs' runs
 * and their run time (absent when kernel.bpf_stats could not be enabled) */
#define PROBE_KEY_SAMPLES		"samples"
#define PROBE_KEY_BPF_RUNS		"probe_bpf_runs"
#define PROBE_KEY_BPF_NS		"probe_bpf_ns"

#define PROBE_CLASS_TGID_ON		"tgid_on"
#define PROBE_CLASS_TGID_OFF		"tgid_off"
#define PROBE_CLASS_LISTENER		"listener"
#define PROBE_CLASS_NOLISTENER		"nolistener"

#endif
