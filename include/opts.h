/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One option-table machinery for every program: getopt_long's arrays and
 * --help are both generated from the program's table, so the help can never
 * disagree with the parser, and every program words its usage errors alike.
 *
 * Short options mean the same in every program; where two programs would
 * give one letter two meanings, the option is long-only (see README). */
#ifndef COMMON_OPTS_H
#define COMMON_OPTS_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

struct opt_desc {
	const char *name;	/* long name */
	int key;		/* short letter, or a value >= 256 */
	const char *arg;	/* argument name, NULL for a flag */
	const char *help;
};

#define OPTS_MAX 64

struct opts {
	const struct opt_desc *t;
	size_t n;
	struct option lo[OPTS_MAX + 1];
	char shortopts[3 * OPTS_MAX + 3];
};

/* Build the getopt_long tables from t (at most OPTS_MAX entries). */
void opts_init(struct opts *o, const struct opt_desc *t, size_t n);
/* Stop at the first operand (a command whose options are its own). */
void opts_stop_at_operand(struct opts *o);
/* The next option's key (its value in optarg), or -1 after the last one.
 * An unknown option or a missing value is a usage error (exit 2). */
int opts_next(struct opts *o, int argc, char **argv);
/* A usage error for a bad value: "bad value for --NAME: 'VAL' (WHAT)". */
_Noreturn void opts_bad_value(const char *name, const char *val,
			      const char *what);
/* An option's number (parse.h's checks: range, suffix, no junk), or a
 * usage error in opts_bad_value's wording; what says what --NAME takes,
 * such as "1 to 256". */
uint64_t opts_u64(const char *name, const char *val, uint64_t min,
		  uint64_t max, const char *what);
uint32_t opts_u32(const char *name, const char *val, uint32_t min,
		  uint32_t max, const char *what);
/* Bytes, with parse_size's K, M, G or T suffixes. */
uint64_t opts_size(const char *name, const char *val, uint64_t min,
		   uint64_t max, const char *what);
double opts_double(const char *name, const char *val, double min, double max,
		   const char *what);
/* After the options: an argument left over is a usage error. */
void opts_no_operands(int argc, char **argv);
/* "usage" (its own lines), then every option of the table. */
void opts_help(FILE *f, const char *usage, const struct opt_desc *t, size_t n);
/* Parse argv by table t: each option goes to fn(ctx, key, arg); an unknown
 * option or a missing value is a usage error (one line, exit 2).  Returns
 * the index of the first operand. */
int opts_parse(int argc, char **argv, const struct opt_desc *t, size_t n,
	       void (*fn)(void *ctx, int key, const char *arg), void *ctx);

#endif
