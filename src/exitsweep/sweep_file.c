// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole files into memory. */
#include "sweep_file.h"

#include <errno.h>
#include <stdlib.h>

int sweep_file_slurp(FILE *f, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *b = malloc(cap);

	*buf = NULL;
	*len = 0;
	errno = 0;
	while (b && n <= SWEEP_FILE_MAX &&
	       (got = fread(b + n, 1, cap - 1 - n, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *nb = realloc(b, cap * 2);

			if (!nb)
				break;
			b = nb;
			cap *= 2;
		}
	}
	if (!b || n + 1 == cap || n > SWEEP_FILE_MAX || ferror(f)) {
		int r = n > SWEEP_FILE_MAX ? -EFBIG : !b || n + 1 == cap ?
			-ENOMEM : errno ? -errno : -EIO;

		free(b);
		return r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int sweep_file_read(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "re");
	int r;

	*buf = NULL;
	*len = 0;
	if (!f)
		return -errno;
	r = sweep_file_slurp(f, buf, len);
	fclose(f);
	return r;
}
