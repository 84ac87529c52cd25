/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON Schema of exitmon's JSON lines records (exitmon --json-schema,
 * installed as exits.schema.json): every key, its type and its bounds,
 * made from the column table, so it describes exactly what format_json.c
 * writes. */
#ifndef COMMON_FORMAT_SCHEMA_H
#define COMMON_FORMAT_SCHEMA_H

#include <stddef.h>

#include "format_cols.h"

/* The schema (JSON Schema draft 2020-12, laid out for people) of records of
 * the columns cols (NULL: every column) written by exitmon `version`; the
 * caller frees it.  NULL when out of memory. */
char *format_schema(const struct format_cols *cols, const char *version,
		    size_t *len);

#endif
