// SPDX-License-Identifier: GPL-2.0-or-later
/* Option tables to getopt_long and to --help; one wording for errors. */
#include "opts.h"

#include <stdbool.h>
#include <string.h>

#include "log.h"
#include "parse.h"

void opts_init(struct opts *o, const struct opt_desc *t, size_t n)
{
	char *s = o->shortopts;
	size_t i;

	if (n > OPTS_MAX)
		n = OPTS_MAX;
	o->t = t;
	o->n = n;
	*s++ = ':';	/* report a missing argument as ':' */
	for (i = 0; i < n; i++) {
		o->lo[i] = (struct option){ t[i].name,
					    t[i].arg ? required_argument : no_argument,
					    NULL, t[i].key };
		if (t[i].key > 0 && t[i].key < 256) {
			*s++ = (char)t[i].key;
			if (t[i].arg)
				*s++ = ':';
		}
	}
	*s = '\0';
	memset(&o->lo[n], 0, sizeof(o->lo[n]));
	opterr = 0;
}

void opts_stop_at_operand(struct opts *o)
{
	memmove(o->shortopts + 1, o->shortopts, strlen(o->shortopts) + 1);
	o->shortopts[0] = '+';
}

static const char *name_of(const struct opts *o, int key)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (o->t[i].key == key)
			return o->t[i].name;
	return "?";
}

/* A long option getopt_long refused: ambiguous (a prefix of several,
 * named), a flag given a value (--quiet=yes: getopt_long then sets optopt
 * to the flag's key, which would name its short form), or unknown.  Exits
 * with a usage error. */
_Noreturn static void unknown_long(const struct opts *o, const char *arg)
{
	bool dashes = arg[0] == '-' && arg[1] == '-';
	const char *name = dashes ? arg + 2 : arg, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name), i, n = 0, last = 0;
	char which[256] = "";

	for (i = 0; dashes && i < o->n; i++) {
		if (!o->t[i].name || strncmp(o->t[i].name, name, len))
			continue;
		if (!o->t[i].name[len])	/* the whole name: no prefix of others */
			n = 0;
		if (n++ < 6)
			snprintf(which + strlen(which), sizeof(which) - strlen(which),
				 "%s--%s", n > 1 ? ", " : "", o->t[i].name);
		last = i;
		if (!o->t[i].name[len])
			break;
	}
	if (n > 1)
		log_usage_die("option '%.*s' is ambiguous: it could be %s%s",
			      (int)(len + 2), arg, which, n > 6 ? ", ..." : "");
	if (n == 1 && eq && !o->t[last].arg)
		log_usage_die("option --%s takes no value (given '%s')",
			      o->t[last].name, arg);
	log_usage_die("unknown option '%s'", arg);
}

/* Whether getopt_long refused arg as a flag given a value (--quiet=yes,
 * or a prefix of it): optopt is then the flag's key, which alone would
 * name its short form, and arg the long option itself. */
static bool flag_given_value(const struct opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');

	return optopt && eq && !strncmp(arg, "--", 2) && eq > arg + 2 &&
	       !strncmp(name_of(o, optopt), arg + 2, (size_t)(eq - arg - 2));
}

int opts_next(struct opts *o, int argc, char **argv)
{
	int key = getopt_long(argc, argv, o->shortopts, o->lo, NULL);
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";

	if (key == '?' && flag_given_value(o, arg))
		unknown_long(o, arg);
	if (key == '?' && optopt > 0 && optopt < 256)
		log_usage_die("unknown option '-%c'", optopt);
	if (key == '?')
		unknown_long(o, arg);
	if (key == ':')
		log_usage_die("option --%s needs a value", name_of(o, optopt));
	return key;
}

void opts_bad_value(const char *name, const char *val, const char *what)
{
	log_usage_die("bad value for --%s: '%s' (%s)", name, val, what);
}

typedef int parse_fn(const char *s, uint64_t min, uint64_t max, uint64_t *out);

static uint64_t checked(parse_fn *parse, const char *name, const char *val,
			uint64_t min, uint64_t max, const char *what)
{
	uint64_t v;

	if (parse(val, min, max, &v) < 0)
		opts_bad_value(name, val, what);
	return v;
}

uint64_t opts_u64(const char *name, const char *val, uint64_t min,
		  uint64_t max, const char *what)
{
	return checked(parse_u64, name, val, min, max, what);
}

uint32_t opts_u32(const char *name, const char *val, uint32_t min,
		  uint32_t max, const char *what)
{
	return (uint32_t)opts_u64(name, val, min, max, what);
}

uint64_t opts_size(const char *name, const char *val, uint64_t min,
		   uint64_t max, const char *what)
{
	return checked(parse_size, name, val, min, max, what);
}

double opts_double(const char *name, const char *val, double min, double max,
		   const char *what)
{
	double v;

	if (parse_double(val, min, max, &v) < 0)
		opts_bad_value(name, val, what);
	return v;
}

void opts_no_operands(int argc, char **argv)
{
	if (optind < argc)
		log_usage_die("unexpected argument '%s'", argv[optind]);
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
	struct opts o;
	int key;

	opts_init(&o, t, n);
	while ((key = opts_next(&o, argc, argv)) != -1)
		fn(ctx, key, optarg);
	return optind;
}
