/* Ending a line an earlier run left cut short (see cutline.h). */
#include "cutline.h"

#include <stdbool.h>
#include <string.h>

/* The fields of a CSV row begun in cut[0..len), and whether it stops inside
 * a quoted field.  A doubled quote inside a quoted field toggles twice. */
static size_t csv_fields(const char *cut, size_t len, bool *quoted)
{
	size_t fields = 1, i;

	*quoted = false;
	for (i = 0; i < len; i++) {
		if (cut[i] == '"')
			*quoted = !*quoted;
		else if (cut[i] == ',' && !*quoted)
			fields++;
	}
	return fields;
}

size_t cutline_end(enum out_format fmt, const char *cut, size_t len,
		   size_t ncols, char *out, size_t cap)
{
	size_t n = 0, fields;
	bool quoted;

	if (fmt == FMT_CSV) {
		fields = csv_fields(cut, len, &quoted);
		if (cap < CUTLINE_MAX(ncols))
			return 0;
		if (quoted)
			out[n++] = '"';
		for (; fields <= ncols; fields++)
			out[n++] = ',';
	}
	if (n + 1 > cap)
		return 0;
	out[n++] = '\n';
	return n;
}
