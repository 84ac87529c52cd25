/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Minimal kernel type definitions for CO-RE: only the fields the BPF
 * programs read.  preserve_access_index makes libbpf relocate every field
 * access against the running kernel's BTF, so no vmlinux.h (and no kernel
 * headers) are needed to build. */
#ifndef EXITPROBE_PROBE_CORE_H
#define EXITPROBE_PROBE_CORE_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef int pid_t;
typedef _Bool bool;
#define true 1
#define false 0

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
};

enum { BPF_ANY = 0, BPF_NOEXIST = 1 };

struct list_head {
	struct list_head *next, *prev;
} __attribute__((preserve_access_index));

struct taskstats;

typedef struct {
	int counter;
} atomic_t;

struct signal_struct {
	atomic_t live;
	struct taskstats *stats;
} __attribute__((preserve_access_index));

struct rq {
	int cpu;
} __attribute__((preserve_access_index));

struct cfs_rq {
	struct rq *rq;
} __attribute__((preserve_access_index));

struct sched_entity {
	struct cfs_rq *cfs_rq;
} __attribute__((preserve_access_index));

#define PF_EXITING 0x00000004	/* set in do_exit() before taskstats_exit() */

struct task_struct {
	unsigned int flags;
	pid_t pid;
	pid_t tgid;
	struct sched_entity se;
	struct signal_struct *signal;
} __attribute__((preserve_access_index));

/* kernel/taskstats.c's per-CPU listener list and its entries. */
struct listener_list {
	struct list_head list;
} __attribute__((preserve_access_index));

struct listener {
	struct list_head list;
	pid_t pid;
	char valid;
} __attribute__((preserve_access_index));

/* The perf_event program's context is UAPI, not relocated: its layout
 * must be exact.  bpf_user_pt_regs_t is struct pt_regs on x86-64 (21
 * registers) and struct user_pt_regs on arm64 (34). */
#if defined(__TARGET_ARCH_x86)
#define PROBE_NREGS 21
#elif defined(__TARGET_ARCH_arm64)
#define PROBE_NREGS 34
#else
#error "exitprobe's BPF side knows x86 and arm64 (set __TARGET_ARCH_...)"
#endif

struct bpf_perf_event_data {
	__u64 regs[PROBE_NREGS];
	__u64 sample_period;	/* the period that ended with this sample */
	__u64 addr;
};

#endif
