// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the one JSON writer (src/common/json_out.c): string
 * escaping in both modes, numbers, nesting in the compact and the pretty
 * (json-c) layout, and the failure cases.  Documents are read back with
 * json-c, which is what the project's readers use. */
#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json_out.h"

static char buf[JSON_OUT_ESCAPED_MAX(256) + 1];

static const char *esc(const char *s, size_t n, enum json_out_mode mode)
{
	char *end = json_out_escape(buf, s, n, mode);

	assert_true((size_t)(end - buf) <= JSON_OUT_ESCAPED_MAX(n));
	*end = '\0';
	return buf;
}

#define ESC(lit, mode) esc(lit, sizeof(lit) - 1, mode)

static void test_escape_ascii(void **state)
{
	(void)state;
	assert_string_equal(ESC("", JSON_OUT_BYTES), "\"\"");
	assert_string_equal(ESC("plain text", JSON_OUT_TEXT), "\"plain text\"");
	assert_string_equal(ESC("say \"hi\"", JSON_OUT_TEXT), "\"say \\\"hi\\\"\"");
	assert_string_equal(ESC("a\\b", JSON_OUT_BYTES), "\"a\\\\b\"");
	assert_string_equal(ESC("</script>", JSON_OUT_TEXT), "\"</script>\"");
	assert_string_equal(ESC("\b\f\n\r\t", JSON_OUT_TEXT),
			    "\"\\b\\f\\n\\r\\t\"");
	assert_string_equal(ESC("\x01\x1b\x1f", JSON_OUT_TEXT),
			    "\"\\u0001\\u001b\\u001f\"");
	/* An embedded NUL is a byte like any other. */
	assert_string_equal(ESC("a\0b", JSON_OUT_BYTES), "\"a\\u0000b\"");
}

static void test_escape_high_bytes(void **state)
{
	(void)state;
	/* TEXT: UTF-8 passes; DEL is not a control in JSON. */
	assert_string_equal(ESC("caf\xc3\xa9\x7f", JSON_OUT_TEXT),
			    "\"caf\xc3\xa9\x7f\"");
	/* BYTES: every byte >= 0x7f by its ISO-8859-1 code point, valid UTF-8
	 * (C3 A9), a lone lead byte, a cut sequence, an overlong alike. */
	assert_string_equal(ESC("caf\xc3\xa9", JSON_OUT_BYTES),
			    "\"caf\\u00c3\\u00a9\"");
	assert_string_equal(ESC("x\xc3(\x7f", JSON_OUT_BYTES),
			    "\"x\\u00c3(\\u007f\"");
	assert_string_equal(ESC("ab\xe6\x97", JSON_OUT_BYTES),
			    "\"ab\\u00e6\\u0097\"");
	assert_string_equal(ESC("\xc0\xaf\xff", JSON_OUT_BYTES),
			    "\"\\u00c0\\u00af\\u00ff\"");
}

/* Every byte value in BYTES mode reads back (json-c, then latin-1) as
 * itself. */
static void test_escape_every_byte_round_trip(void **state)
{
	char in[256];
	struct json_object *o;
	const char *got;
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < 256; i++)
		in[i] = (char)i;
	esc(in, sizeof(in), JSON_OUT_BYTES);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	got = json_object_get_string(o);
	/* json-c gives UTF-8: U+0080..U+00FF are two bytes each. */
	for (i = 0; i < 256; i++) {
		unsigned c = (unsigned char)got[n++];

		if (c >= 0xc2 && c <= 0xc3)
			c = (c & 0x1f) << 6 | ((unsigned char)got[n++] & 0x3f);
		assert_int_equal(c, i);
	}
	assert_int_equal(n, (size_t)json_object_get_string_len(o));
	json_object_put(o);
}

static char *finish(struct json_out *j)
{
	char *s = json_out_finish(j, NULL);

	assert_non_null(s);
	return s;
}

static void test_compact_document(void **state)
{
	struct json_out j;
	char *s;

	(void)state;
	json_out_init(&j, false);
	json_out_obj_begin(&j);
	json_out_key(&j, "u");
	json_out_u64(&j, UINT64_MAX);
	json_out_key(&j, "i");
	json_out_i64(&j, INT64_MIN);
	json_out_key(&j, "d");
	json_out_double(&j, 2.5, 3);
	json_out_key(&j, "g");
	json_out_double(&j, 1.0 / 3, JSON_OUT_SIG9);
	json_out_key(&j, "nan");
	json_out_double(&j, NAN, 2);
	json_out_key(&j, "inf");
	json_out_double(&j, INFINITY, JSON_OUT_SIG9);
	json_out_key(&j, "a");
	json_out_arr_begin(&j);
	json_out_bool(&j, true);
	json_out_bool(&j, false);
	json_out_null(&j);
	json_out_str(&j, NULL);
	json_out_obj_begin(&j);
	json_out_obj_end(&j);
	json_out_arr_begin(&j);
	json_out_arr_end(&j);
	json_out_arr_end(&j);
	json_out_key(&j, "k\"ey");
	json_out_str(&j, "v\n");
	json_out_obj_end(&j);
	s = finish(&j);
	assert_string_equal(s, "{\"u\":18446744073709551615,"
			    "\"i\":-9223372036854775808,\"d\":2.500,"
			    "\"g\":0.333333333,\"nan\":null,\"inf\":null,"
			    "\"a\":[true,false,null,null,{},[]],"
			    "\"k\\\"ey\":\"v\\n\"}");
	free(s);
}

/* The pretty layout is json-c's PRETTY|SPACED: exitsweep's files kept the
 * bytes they had when json-c wrote them. */
static void test_pretty_matches_json_c(void **state)
{
	struct json_object *o = json_object_new_object(), *a, *e;
	struct json_out j;
	char *s;

	(void)state;
	a = json_object_new_array();
	json_object_array_add(a, json_object_new_int64(-5));
	json_object_array_add(a, NULL);
	e = json_object_new_object();
	json_object_object_add(e, "x", json_object_new_string("y"));
	json_object_array_add(a, e);
	json_object_object_add(o, "a", a);
	json_object_object_add(o, "empty", json_object_new_array());
	json_object_object_add(o, "o", json_object_new_object());
	json_object_object_add(o, "s", json_object_new_string("t\x01/\xc3\xa9"));

	json_out_init(&j, true);
	json_out_obj_begin(&j);
	json_out_key(&j, "a");
	json_out_arr_begin(&j);
	json_out_i64(&j, -5);
	json_out_null(&j);
	json_out_obj_begin(&j);
	json_out_key(&j, "x");
	json_out_str(&j, "y");
	json_out_obj_end(&j);
	json_out_arr_end(&j);
	json_out_key(&j, "empty");
	json_out_arr_begin(&j);
	json_out_arr_end(&j);
	json_out_key(&j, "o");
	json_out_obj_begin(&j);
	json_out_obj_end(&j);
	json_out_key(&j, "s");
	json_out_str(&j, "t\x01/\xc3\xa9");
	json_out_obj_end(&j);
	s = finish(&j);
	assert_string_equal(s, json_object_to_json_string_ext(o,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE));
	free(s);
	json_object_put(o);
}

static void test_nesting_limits(void **state)
{
	struct json_out j;
	size_t len = 99;
	unsigned i;

	(void)state;
	/* Deepest allowed, then one more. */
	json_out_init(&j, false);
	for (i = 0; i < JSON_OUT_MAX_DEPTH; i++)
		json_out_arr_begin(&j);
	for (i = 0; i < JSON_OUT_MAX_DEPTH; i++)
		json_out_arr_end(&j);
	free(finish(&j));
	for (i = 0; i <= JSON_OUT_MAX_DEPTH; i++)
		json_out_arr_begin(&j);
	assert_null(json_out_finish(&j, &len));
	assert_int_equal(len, 99);
	/* Unclosed, closed too often, a key without its value. */
	json_out_obj_begin(&j);
	assert_null(json_out_finish(&j, NULL));
	json_out_arr_end(&j);
	assert_null(json_out_finish(&j, NULL));
	json_out_obj_begin(&j);
	json_out_key(&j, "k");
	json_out_obj_end(&j);
	assert_null(json_out_finish(&j, NULL));
	/* A long document grows the buffer. */
	json_out_arr_begin(&j);
	for (i = 0; i < 10000; i++)
		json_out_u64(&j, i);
	json_out_arr_end(&j);
	free(json_out_finish(&j, &len));
	assert_int_equal(len, 2 + 9999 + 10 + 90 * 2 + 900 * 3 + 9000 * 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_ascii),
		cmocka_unit_test(test_escape_high_bytes),
		cmocka_unit_test(test_escape_every_byte_round_trip),
		cmocka_unit_test(test_compact_document),
		cmocka_unit_test(test_pretty_matches_json_c),
		cmocka_unit_test(test_nesting_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
