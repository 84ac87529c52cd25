/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole files into memory: gnuplot's picture before it goes into place,
 * a result file before compare parses it, kernel config text. */
#ifndef EXITSWEEP_SWEEP_FILE_H
#define EXITSWEEP_SWEEP_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Largest file read whole: a result file, a picture or a config is far
 * smaller; /dev/zero or a wrong file must not grow toward all memory. */
#define SWEEP_FILE_MAX (64u << 20)

/* The rest of f into a malloc'd buffer with a NUL after its len bytes.
 * 0 or -errno (-EFBIG past SWEEP_FILE_MAX, -ENOMEM, -EIO). */
int sweep_file_slurp(FILE *f, char **buf, size_t *len);
/* The same for the file at path.  0 or -errno. */
int sweep_file_read(const char *path, char **buf, size_t *len);

#endif
