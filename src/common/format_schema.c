// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON Schema of the JSON lines records, from the column table. */
#include "format_schema.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "columns.h"
#include "json_out.h"
#include "record.h"

/* An integer from min to max, or also null (a field a record may lack). */
static void integer(struct json_out *j, bool nullable, int64_t min,
		    uint64_t max)
{
	json_out_key(j, "type");
	if (nullable) {
		json_out_arr_begin(j);
		json_out_str(j, "integer");
		json_out_str(j, "null");
		json_out_arr_end(j);
	} else {
		json_out_str(j, "integer");
	}
	json_out_key(j, "minimum");
	json_out_i64(j, min);
	json_out_key(j, "maximum");
	json_out_u64(j, max);
}

/* What the schema says of each kind of column: how format_json.c writes
 * it.  A kernel field a record does not carry (an older struct version, a
 * pid record's group-only field) is null. */
static void column_schema(struct json_out *j, enum col_kind kind)
{
	json_out_obj_begin(j);
	switch (kind) {
	case C_RUN:
		json_out_key(j, "type");
		json_out_str(j, "string");
		json_out_key(j, "pattern");
		json_out_str(j, "^[0-9a-f]{32}$");
		json_out_key(j, "description");
		json_out_str(j, "The collector run that wrote the record: one "
			     "per start; (run, seq) is the record's key.");
		break;
	case C_SEQ:
		integer(j, false, 1, UINT64_MAX);
		json_out_key(j, "description");
		json_out_str(j, "The record's place in its run: 1, 2, 3 ... in "
			     "the order written; a number missing is a record "
			     "lost.");
		break;
	case C_TIME:
		integer(j, false, 0, UINT64_MAX);
		json_out_key(j, "description");
		json_out_str(j, "When the record was received: nanoseconds "
			     "since the epoch (CLOCK_REALTIME, to the "
			     "microsecond live).");
		break;
	case C_TYPE:
		json_out_key(j, "enum");
		json_out_arr_begin(j);
		json_out_str(j, "pid");
		json_out_str(j, "tgid");
		json_out_arr_end(j);
		break;
	case C_COMM:
		/* Every byte is the code point of the same value. */
		json_out_key(j, "type");
		json_out_str(j, "string");
		json_out_key(j, "pattern");
		json_out_str(j, "^[\\u0001-\\u00ff]*$");
		json_out_key(j, "description");
		json_out_str(j, "The command's bytes as sent, each as the code "
			     "point of its value (ISO-8859-1): "
			     "s.encode('latin-1') gives them back.");
		break;
	case C_NICE:
		integer(j, true, INT8_MIN, INT8_MAX);
		break;
	case C_VERSION:
		integer(j, false, 0, UINT16_MAX);
		json_out_key(j, "description");
		json_out_str(j, "The kernel's struct taskstats version.");
		break;
	default:	/* the kernel's unsigned fields, pid, tgid, btime */
		integer(j, true, 0, UINT64_MAX);
		break;
	}
	json_out_obj_end(j);
}

/* The columns in their order: cols', or the table's. */
static unsigned column_at(const struct format_cols *cols, unsigned i)
{
	return cols ? cols->col[i] : i;
}

char *format_schema(const struct format_cols *cols, const char *version,
		    size_t *len)
{
	unsigned i, n = cols ? cols->n : NCOLS;
	struct json_out j;
	char title[128];

	snprintf(title, sizeof(title), "exitmon %s JSON lines record", version);
	json_out_init(&j, true);
	json_out_obj_begin(&j);
	json_out_key(&j, "$schema");
	json_out_str(&j, "https://json-schema.org/draft/2020-12/schema");
	json_out_key(&j, "title");
	json_out_str(&j, title);
	json_out_key(&j, "description");
	json_out_str(&j, "One object per line, keys in this order, every key "
		     "always present (null: a field the record does not carry). "
		     "Numbers are whole decimals of up to 64 bits (above "
		     "2^53 a double loses them). Names and meanings "
		     "never change; a later exitmon may add keys. See "
		     "exitmon(8), COLUMNS.");
	json_out_key(&j, "type");
	json_out_str(&j, "object");
	json_out_key(&j, "properties");
	json_out_obj_begin(&j);
	for (i = 0; i < n; i++) {
		const struct column *c = &format_cols_table[column_at(cols, i)];

		json_out_key(&j, c->name);
		column_schema(&j, (enum col_kind)c->kind);
	}
	json_out_obj_end(&j);
	json_out_key(&j, "required");
	json_out_arr_begin(&j);
	for (i = 0; i < n; i++)
		json_out_str(&j, format_cols_table[column_at(cols, i)].name);
	json_out_arr_end(&j);
	/* Other keys are allowed: a later exitmon's records still pass. */
	json_out_obj_end(&j);
	return json_out_finish(&j, len);
}
