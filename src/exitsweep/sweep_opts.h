/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitsweep's options (sweep_opts.c): parse the command line, then fill
 * the config once the kind is known.  Usage errors exit 2 here. */
#ifndef EXITSWEEP_SWEEP_OPTS_H
#define EXITSWEEP_SWEEP_OPTS_H

#include "sweep.h"

/* Raw option values; lists are parsed once the kind is known. */
struct sweep_opts_raw {
	const char *kind, *rates, *tgid, *listener, *delayacct, *runs, *count,
		   *seed, *background, *mmap, *kill_batch, *cohort, *work,
		   *workers, *batch, *probe;
};

/* Options into cfg (paths, flags) and raw (the rest); --help and
 * --version exit here. */
void sweep_opts_parse(int argc, char **argv, struct sweep_config *cfg,
		      struct sweep_opts_raw *raw);
/* The kind, its dimensions and numbers, defaults and --quick's. */
void sweep_opts_configure(struct sweep_config *cfg, const struct sweep_opts_raw *raw);
/* The command line into cfg->command, for the result files. */
void sweep_opts_record_command(struct sweep_config *cfg, int argc, char **argv);

#endif
