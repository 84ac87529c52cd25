/* One option table per program: getopt_long's tables and --help are both
 * generated from it, so the help can never disagree with the parser. */
#ifndef EXITMON_OPTS_H
#define EXITMON_OPTS_H

#include <getopt.h>
#include <stdio.h>

struct opt_desc {
	const char *name;	/* long name */
	int key;		/* short letter, or a value >= 256 */
	const char *arg;	/* argument name, NULL for a flag */
	const char *help;
};

/* Fill `lo` (n + 1 entries) and `shortopts` (3n + 1 bytes). */
void opts_build(const struct opt_desc *t, size_t n, struct option *lo,
		char *shortopts);
void opts_help(FILE *f, const char *usage, const struct opt_desc *t, size_t n);
/* Parse argv by table t: each option goes to fn(ctx, key, arg); an unknown
 * option or a missing value is a usage error (one line, exit 2).  Returns
 * the index of the first operand. */
int opts_parse(int argc, char **argv, const struct opt_desc *t, size_t n,
	       void (*fn)(void *ctx, int key, const char *arg), void *ctx);

#endif
