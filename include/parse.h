/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checked parsing of every number a user gives us: range, suffix,
 * trailing junk.  Returns 0, or -EINVAL (not a number / junk) or -ERANGE. */
#ifndef COMMON_PARSE_H
#define COMMON_PARSE_H

#include <stdint.h>

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
/* Byte counts with an optional K, M, G or T suffix (powers of 1024),
 * optionally followed by "iB" or "B": "8M", "512KiB", "4096". */
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* A finite decimal number such as "2.5" or "10". */
int parse_double(const char *s, double min, double max, double *out);

#endif
