#include "opts.h"

#include <string.h>

#include "log.h"

void opts_build(const struct opt_desc *t, size_t n, struct option *lo,
		char *shortopts)
{
	size_t i;
	char *s = shortopts;

	*s++ = ':';	/* report a missing argument as ':' */
	for (i = 0; i < n; i++) {
		lo[i] = (struct option){ t[i].name,
					 t[i].arg ? required_argument : no_argument,
					 NULL, t[i].key };
		if (t[i].key > 0 && t[i].key < 256) {
			*s++ = (char)t[i].key;
			if (t[i].arg)
				*s++ = ':';
		}
	}
	*s = '\0';
	memset(&lo[n], 0, sizeof(lo[n]));
}

void opts_help(FILE *f, const char *usage, const struct opt_desc *t, size_t n)
{
	size_t i;

	fprintf(f, "%s\n\nOptions:\n", usage);
	for (i = 0; i < n; i++) {
		char left[64];
		int short_opt = t[i].key > 0 && t[i].key < 256;

		snprintf(left, sizeof(left), "%s%c%s--%s%s%s",
			 short_opt ? "-" : "   ", short_opt ? t[i].key : ' ',
			 short_opt ? ", " : "", t[i].name, t[i].arg ? " " : "",
			 t[i].arg ? t[i].arg : "");
		fprintf(f, "  %-28s %s\n", left, t[i].help);
	}
}

int opts_parse(int argc, char **argv, const struct opt_desc *t, size_t n,
	       void (*fn)(void *ctx, int key, const char *arg), void *ctx)
{
	struct option lo[n + 1];
	char shortopts[3 * n + 2];
	int key;

	opts_build(t, n, lo, shortopts);
	opterr = 0;
	while ((key = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		if (key == '?')
			usage_die("unknown option '%s'", argv[optind - 1]);
		if (key == ':')
			usage_die("option '%s' needs a value", argv[optind - 1]);
		fn(ctx, key, optarg);
	}
	return optind;
}
