/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `exitsweep compare A.json B.json ...`: several machines or kernels side
 * by side -- one column per file, rows lined up by what was measured. */
#ifndef EXITSWEEP_SWEEP_COMPARE_H
#define EXITSWEEP_SWEEP_COMPARE_H

#include <stdio.h>

/* The most files compare puts side by side (columns A to Z). */
#define SWEEP_COMPARE_MAX 26

/* Print the comparison of files[0..n-1] to out.  0, or -errno /
 * -EBADMSG with a one-line reason in err. */
int sweep_compare_files(FILE *out, const char *const *files, size_t n, char *err,
		  size_t errlen);

#endif
