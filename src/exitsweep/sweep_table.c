// SPDX-License-Identifier: GPL-2.0-or-later
/* Text tables. */
#include "sweep_table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct sweep_table {
	size_t ncols, nrows, cap;
	char **cell;		/* nrows * ncols, NULL = empty */
	bool *right;
	bool oom;
};

struct sweep_table *sweep_table_new(size_t ncols)
{
	struct sweep_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->ncols = ncols;
	t->right = calloc(ncols, sizeof(*t->right));
	if (!t->right) {
		free(t);
		return NULL;
	}
	return t;
}

void sweep_table_free(struct sweep_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->right);
	free(t);
}

void sweep_table_right(struct sweep_table *t, size_t col)
{
	if (t && col < t->ncols)
		t->right[col] = true;
}

void sweep_table_row(struct sweep_table *t)
{
	if (!t || t->oom)
		return;
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		char **c = realloc(t->cell, cap * t->ncols * sizeof(*c));

		if (!c) {
			t->oom = true;
			return;
		}
		t->cell = c;
		t->cap = cap;
	}
	memset(&t->cell[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cell));
	t->nrows++;
}

/* Control bytes (a newline, a terminal escape) as '?': a cell may hold
 * what another machine's result file says (compare), which must not reach
 * the terminal as anything but text. */
static void visible(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

void sweep_table_cell(struct sweep_table *t, const char *fmt, ...)
{
	char **row;
	size_t i;
	va_list ap;

	if (!t || t->oom || t->nrows == 0)
		return;
	row = &t->cell[(t->nrows - 1) * t->ncols];
	for (i = 0; i < t->ncols && row[i]; i++)
		;
	if (i == t->ncols)
		return;
	va_start(ap, fmt);
	if (vasprintf(&row[i], fmt, ap) < 0)
		row[i] = NULL, t->oom = true;
	va_end(ap);
	if (row[i])
		visible(row[i]);
}

size_t sweep_table_text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

void sweep_table_print(const struct sweep_table *t, FILE *f, const char *indent)
{
	size_t *w, total = 0;

	if (!t || t->nrows == 0)
		return;
	w = calloc(t->ncols, sizeof(*w));
	if (!w)
		return;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->cell[r * t->ncols + c];
			size_t sw = s ? sweep_table_text_width(s) : 0;

			if (sw > w[c])
				w[c] = sw;
		}
	for (size_t c = 0; c < t->ncols; c++)
		total += w[c] + (c ? 2 : 0);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs(indent, f);
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->cell[r * t->ncols + c];
			size_t sw = s ? sweep_table_text_width(s) : 0;
			bool last = c + 1 == t->ncols;

			if (c)
				fputs("  ", f);
			if (t->right[c])
				pad(f, w[c] - sw);
			fputs(s ? s : "", f);
			if (!t->right[c] && !last)
				pad(f, w[c] - sw);
		}
		fputc('\n', f);
		if (r == 0) {
			fputs(indent, f);
			for (size_t i = 0; i < total; i++)
				fputc('-', f);
			fputc('\n', f);
		}
	}
	free(w);
}
