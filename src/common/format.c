/* Text, CSV and JSON lines output of exit records.
 *
 * One column table (COLUMNS in columns.h) drives every format: the CSV header, the
 * JSON keys and the text layout are all generated from it.
 *
 * comm is untrusted bytes (any task can name itself anything but NUL), so
 * each format has its own rule, chosen so that the exact bytes survive:
 *
 *   csv    RFC 4180.  comm is written as its raw bytes; the field is quoted
 *          when it holds a comma, quote, CR or LF or starts or ends with a
 *          space or tab, and embedded quotes are doubled.  Bytes that are not
 *          UTF-8 are left as they are (a reader that wants the bytes opens
 *          the file as latin-1 or with errors="surrogateescape").  Lines end
 *          in LF, not CRLF: every common CSV reader takes both.
 *   jsonl  RFC 8259, written with json_out (the project's one JSON writer).
 *          Every byte of comm becomes the code point of the same value
 *          (ISO-8859-1 mapping, JSON_OUT_BYTES): printable ASCII as itself,
 *          \" \\ \b \f \n \r \t, and \u00XX for every other control
 *          byte, DEL and every byte >= 0x80, valid UTF-8 or not.  A reader
 *          gets the bytes back with s.encode("latin-1").  Absent fields are
 *          null.  Numbers are
 *          plain unsigned decimals (beware: above 2^53 in JavaScript).
 *   text   For people: a fixed-width line with the important columns and
 *          comm last, so its escaped length never shifts the others.  comm
 *          shows \\ \n \r \t, \xNN for other control bytes, DEL, invalid
 *          UTF-8 and invisible or direction-changing characters; other valid
 *          UTF-8 is shown as is.  Absent fields show "-".
 *
 * Speed: the collector formats tens of thousands of records a second, so
 * values are appended with our own integer conversion straight into the
 * caller's buffer (no snprintf per field); the worst-case line length is
 * bounded at compile time, which lets the inner loops skip bounds checks. */
#include "format.h"
#include "columns.h"
#include "format_put.h"
#include "format_src.h"
#include "tsabi.h"
#include "json_out.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* The column table (name, kind, field, text width) is COLUMNS in
 * columns.h; its order is the CSV column order and the JSON key order.
 * The header writers walk this table; the record writers are generated
 * from COLUMNS as straight-line code (see "records" below). */
struct column {
	const char *name;
	uint8_t name_len;
	uint8_t kind;
	uint8_t text_width;
};

#define COL_ENTRY(nm, kind, field, tw) { #nm, sizeof(#nm) - 1, kind, tw },
static const struct column columns[] = { COLUMNS(COL_ENTRY) };
#define NCOLS (sizeof(columns) / sizeof(columns[0]))

/* Each column's index in the table: COL_pid, COL_comm, ... */
#define COL_INDEX(nm, kind, field, tw) COL_##nm,
enum { COLUMNS(COL_INDEX) COL__COUNT };
_Static_assert(COL__COUNT <= FORMAT_MAX_COLS, "FORMAT_MAX_COLS too small");

/* Compile-time bound on a line, so that FORMAT_MAX_LINE is provably enough
 * and the writers below need no per-byte bounds checks.  Every value is at
 * most 20 digits ("null" and "-" are shorter); comm is at most
 * TS_COMM_LEN bytes of up to 6 output bytes each (\u00XX); text pads to
 * <= 16.  Some writers store whole words and keep part of them: SLACK
 * bytes past a line's end may be written (and are overwritten by what
 * follows). */
#define MAX_NAME 28
#define COL_CHECK(nm, kind, field, tw) \
	_Static_assert(sizeof(#nm) - 1 <= MAX_NAME, "column name too long"); \
	_Static_assert((tw) <= 16 && (unsigned)(field) < F__COUNT, #nm);
COLUMNS(COL_CHECK)
#define COL_COUNT_ONE(nm, kind, field, tw) + 1
#define NCOLS_CONST (0 COLUMNS(COL_COUNT_ONE))
#define LINE_BOUND (NCOLS_CONST * (MAX_NAME + 4 + MAX_VALUE + 16) + \
		    6 * TS_COMM_LEN + 8 + SLACK)
_Static_assert(LINE_BOUND < FORMAT_MAX_LINE, "FORMAT_MAX_LINE too small");

int format_from_name(const char *name, enum out_format *out)
{
	static const struct { const char *name; enum out_format f; } names[] = {
		{ "text", FMT_TEXT }, { "csv", FMT_CSV }, { "jsonl", FMT_JSONL },
	};
	size_t i;

	for (i = 0; name && i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i].name) == 0) {
			*out = names[i].f;
			return 0;
		}
	}
	return -EINVAL;
}

const char *format_name(enum out_format f)
{
	switch (f) {
	case FMT_TEXT: return "text";
	case FMT_CSV: return "csv";
	case FMT_JSONL: return "jsonl";
	}
	return "?";
}

static const char hex_digits[] = "0123456789abcdef";

/* ---- records ------------------------------------------------------------ */

/* Each format's record writer is COLUMNS expanded into straight-line code:
 * one call of the always-inlined column writer per column, with the kind
 * and field as constants, so every column compiles to a presence test and
 * an integer conversion (no table walk, no switch on the kind at run
 * time).  Each column is followed by its separator; the last one is
 * overwritten by the line's end. */
/* ---- CSV ---------------------------------------------------------------- */

static bool csv_needs_quotes(const unsigned char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return false;
	if (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t')
		return true;
	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return true;
	return false;
}

static char *csv_comm(char *p, const char *comm, size_t n)
{
	const unsigned char *s = (const unsigned char *)comm;
	size_t i;

	if (!csv_needs_quotes(s, n))
		return put_mem(p, comm, n);
	*p++ = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = (char)s[i];
	}
	*p++ = '"';
	return p;
}

static char *csv_header(char *p)
{
	size_t i;

	for (i = 0; i < NCOLS; i++) {
		if (i)
			*p++ = ',';
		p = put_mem(p, columns[i].name, columns[i].name_len);
	}
	*p++ = '\n';
	return p;
}

static ALWAYS_INLINE char *csv_col(char *p, struct src s,
				   enum col_kind kind, enum rec_field f)
{
	size_t n;
	const char *comm;
	char *plain;

	if (kind == C_TYPE)
		return s_type(s) == REC_TGID ? put_lit(p, "tgid,")
					     : put_lit(p, "pid,");
	if (kind == C_COMM) {
		comm = s_comm(s, &n);
		plain = n && (comm[0] == ' ' || comm[n - 1] == ' ') ? NULL
				: put_comm_plain(p, comm, n);
		p = plain ? plain : csv_comm(p, comm, n);
		*p++ = ',';
		return p;
	}
	return put_col(p, s, kind, f, ',', ",", 1);
}

/* Runs of zeros.  Many columns side by side in the table are 8-byte
 * fields side by side in the struct (the delay counts and totals, the
 * peaks, the I/O figures), and most of them are 0 in most records: such a
 * run is tested with one OR of its words and, all zero, written with one
 * store.  Which columns make a run is worked out from the tables below at
 * compile time (constant indexes into constant arrays fold away), for the
 * writer of payloads that hold every field up to version 16 only, where
 * no field needs a presence test. */
struct col_def {
	uint8_t kind, field;
};
#define COL_DEF(nm, kind, field, tw) { kind, field },
static const struct col_def col_defs[] = { COLUMNS(COL_DEF) { C_TYPE, 0 } };
#undef COL_DEF

/* Column c is a whole 8-byte field that this writer loads with no test. */
static ALWAYS_INLINE bool col_is_word(struct src s, unsigned c)
{
	enum rec_field f = (enum rec_field)col_defs[c].field;

	return s.mode == S_APPEND_V16 && col_defs[c].kind == C_FIELD &&
	       REC_FIELD_SIZE(f) == 8 && ts_append_off(f) + 8 <= V16_LEN;
}

/* Columns c and c + 1 are words side by side in the struct. */
static ALWAYS_INLINE bool col_pairs(struct src s, unsigned c)
{
	return col_is_word(s, c) && col_is_word(s, c + 1) &&
	       ts_append_off((enum rec_field)col_defs[c + 1].field) ==
		       ts_append_off((enum rec_field)col_defs[c].field) + 8;
}

/* The n words from column c's field on are all 0. */
static ALWAYS_INLINE bool words_zero(struct src s, unsigned c, unsigned n)
{
	const unsigned char *q =
		s.p + ts_append_off((enum rec_field)col_defs[c].field);
	uint64_t w, any = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		memcpy(&w, q + 8 * i, 8);
		any |= w;
	}
	return any == 0;
}

/* How many columns before c continue its run (a run is at most 16 long:
 * the peaks, so the count never needs to go past 15), so that runs are tried from their start in fours and twos
 * and never again from inside one that was tried. */
static ALWAYS_INLINE unsigned run_pos(struct src s, unsigned c)
{
	/* Written out, not a loop: every test must fold to a constant. */
#define BACK(k) (c > (k) && col_pairs(s, c - 1 - (k)))
	return !BACK(0) ? 0 : !BACK(1) ? 1 : !BACK(2) ? 2 : !BACK(3) ? 3 :
	       !BACK(4) ? 4 : !BACK(5) ? 5 : !BACK(6) ? 6 : !BACK(7) ? 7 :
	       !BACK(8) ? 8 : !BACK(9) ? 9 : !BACK(10) ? 10 :
	       !BACK(11) ? 11 : !BACK(12) ? 12 : !BACK(13) ? 13 :
	       !BACK(14) ? 14 : 15;
#undef BACK
}

/* Columns c .. c + n - 1 (n: 2 or 4) make a run from c's place in it. */
static ALWAYS_INLINE bool run_from(struct src s, unsigned c, unsigned n)
{
	return run_pos(s, c) % n == 0 && col_pairs(s, c) &&
	       (n == 2 || (col_pairs(s, c + 1) && col_pairs(s, c + 2)));
}

/* CSV column c, or a run of zeros from it: *skip is how many of the
 * following columns the run wrote. */
static ALWAYS_INLINE char *csv_col_run(char *p, struct src s, unsigned c,
				       enum col_kind kind, enum rec_field f,
				       unsigned *skip)
{
	if (*skip) {
		--*skip;
		return p;
	}
	if (run_from(s, c, 4) && __builtin_expect(words_zero(s, c, 4), 1)) {
		*skip = 3;
		return put_lit(p, "0,0,0,0,");
	}
	if (run_from(s, c, 2) && __builtin_expect(words_zero(s, c, 2), 1)) {
		*skip = 1;
		return put_lit(p, "0,0,");
	}
	return csv_col(p, s, kind, f);
}

static ALWAYS_INLINE char *csv_record(char *p, struct src s)
{
	unsigned skip = 0;

#define CSV_COL(nm, kind, field, tw) \
	p = csv_col_run(p, s, COL_##nm, kind, (enum rec_field)(field), &skip);
	COLUMNS(CSV_COL)
#undef CSV_COL
	p[-1] = '\n';
	return p;
}

/* ---- JSON lines ----------------------------------------------------------- */

/* comm as JSON_OUT_BYTES: every byte survives (see json_out.h). */
static char *json_comm(char *p, const char *comm, size_t n)
{
	return json_out_escape(p, comm, n, JSON_OUT_BYTES);
}

static ALWAYS_INLINE char *json_col(char *p, struct src s,
				    enum col_kind kind, enum rec_field f)
{
	size_t n;
	const char *comm;
	char *plain;

	if (kind == C_TYPE)
		return s_type(s) == REC_TGID ? put_lit(p, "\"tgid\",")
					     : put_lit(p, "\"pid\",");
	if (kind == C_COMM) {
		comm = s_comm(s, &n);
		*p = '"';
		plain = put_comm_plain(p + 1, comm, n);
		if (plain) {
			*plain = '"';
			p = plain + 1;
		} else {
			p = json_comm(p, comm, n);
		}
		*p++ = ',';
		return p;
	}
	return put_col(p, s, kind, f, ',', "null,", 5);
}

/* Each column's key, "name": (constant indexes fold to the literal). */
#define JSON_KEY(nm, kind, field, tw) "\"" #nm "\":",
static const char *const json_keys[] = { COLUMNS(JSON_KEY) };
#undef JSON_KEY
#define JSON_KEY_LEN(nm, kind, field, tw) sizeof("\"" #nm "\":") - 1,
static const uint8_t json_key_lens[] = { COLUMNS(JSON_KEY_LEN) };
#undef JSON_KEY_LEN

/* Column c's key and a 0. */
static ALWAYS_INLINE char *json_zero(char *p, unsigned c)
{
	p = put_mem(p, json_keys[c], json_key_lens[c]);
	return put_lit(p, "0,");
}

/* JSON column c with its key, or a run of zeros from it (as CSV's). */
static ALWAYS_INLINE char *json_col_run(char *p, struct src s, unsigned c,
					enum col_kind kind, enum rec_field f,
					unsigned *skip)
{
	if (*skip) {
		--*skip;
		return p;
	}
	if (run_from(s, c, 4) && __builtin_expect(words_zero(s, c, 4), 1)) {
		*skip = 3;
		p = json_zero(json_zero(p, c), c + 1);
		return json_zero(json_zero(p, c + 2), c + 3);
	}
	if (run_from(s, c, 2) && __builtin_expect(words_zero(s, c, 2), 1)) {
		*skip = 1;
		return json_zero(json_zero(p, c), c + 1);
	}
	p = put_mem(p, json_keys[c], json_key_lens[c]);
	return json_col(p, s, kind, f);
}

static ALWAYS_INLINE char *json_record(char *p, struct src s)
{
	unsigned skip = 0;

	*p++ = '{';
#define JSON_COL(nm, kind, field, tw) \
	p = json_col_run(p, s, COL_##nm, kind, (enum rec_field)(field), &skip);
	COLUMNS(JSON_COL)
#undef JSON_COL
	p[-1] = '}';
	*p++ = '\n';
	return p;
}

/* ---- a choice of columns ------------------------------------------------ */

/* One column by its index: a jump to that column's straight-line code. */
static ALWAYS_INLINE char *csv_one(char *p, struct src s, unsigned col)
{
	switch (col) {
#define CSV_ONE(nm, kind, field, tw) \
	case COL_##nm: return csv_col(p, s, kind, (enum rec_field)(field));
	COLUMNS(CSV_ONE)
#undef CSV_ONE
	}
	return p;
}

static ALWAYS_INLINE char *json_one(char *p, struct src s, unsigned col)
{
	switch (col) {
#define JSON_ONE(nm, kind, field, tw) \
	case COL_##nm: \
		p = put_lit(p, "\"" #nm "\":"); \
		return json_col(p, s, kind, (enum rec_field)(field));
	COLUMNS(JSON_ONE)
#undef JSON_ONE
	}
	return p;
}

/* The chosen columns, one loop per format (the format's test out of the
 * loop: each turn is then a jump to the column's code). */
static ALWAYS_INLINE char *cols_record(enum out_format f, struct src s,
				       const struct format_cols *cols, char *p)
{
	const uint8_t *col = cols->col, *end = col + cols->n;

	if (f == FMT_JSONL) {
		*p++ = '{';
		while (col < end)
			p = json_one(p, s, *col++);
		p[-1] = '}';
		*p++ = '\n';
		return p;
	}
	while (col < end)
		p = csv_one(p, s, *col++);
	p[-1] = '\n';
	return p;
}

int format_cols_parse(const char *list, struct format_cols *out, char *bad,
		      size_t bad_size)
{
	uint8_t seen[COL__COUNT] = { 0 };
	const char *p = list;
	unsigned i;

	out->n = 0;
	if (strcmp(list, "all") == 0) {
		for (i = 0; i < NCOLS; i++)
			out->col[out->n++] = (uint8_t)i;
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");

		for (i = 0; i < NCOLS; i++)
			if (n == columns[i].name_len &&
			    memcmp(p, columns[i].name, n) == 0)
				break;
		if (i == NCOLS || seen[i]) {
			snprintf(bad, bad_size, "%.*s", (int)n, p);
			return i == NCOLS ? -EINVAL : -EEXIST;
		}
		seen[i] = 1;
		out->col[out->n++] = (uint8_t)i;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

size_t format_col_names(char *buf, size_t cap)
{
	size_t i, n = 0;

	for (i = 0; i < NCOLS; i++)
		n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0,
				      "%s%s", i ? "," : "", columns[i].name);
	return n;
}

/* ---- text ------------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at s (at most n bytes) and its code
 * point, or 0 when s does not start one (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;
	uint32_t c;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, c = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, c = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	*cp = c;
	return len;
}

/* Characters a terminal would not show, or that reorder what follows:
 * shown as escapes so a name cannot hide or disguise itself. */
static bool text_invisible(uint32_t cp)
{
	return cp < 0xa0 || cp == 0xad || cp == 0x61c ||
	       (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x206f) ||
	       cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb);
}

static char *text_escape_byte(char *p, unsigned char b)
{
	*p++ = '\\';
	switch (b) {
	case '\\': *p++ = '\\'; break;
	case '\n': *p++ = 'n'; break;
	case '\r': *p++ = 'r'; break;
	case '\t': *p++ = 't'; break;
	default:
		*p++ = 'x';
		*p++ = hex_digits[b >> 4];
		*p++ = hex_digits[b & 15];
	}
	return p;
}

static char *text_comm(char *p, const char *comm, size_t n)
{
	const unsigned char *s = (const unsigned char *)comm;
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		size_t len;

		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\') {
			*p++ = (char)s[i++];
			continue;
		}
		len = s[i] >= 0x80 ? utf8_seq(s + i, n - i, &cp) : 0;
		if (len && !text_invisible(cp)) {
			p = put_mem(p, (const char *)s + i, len);
			i += len;
		} else {
			p = text_escape_byte(p, s[i++]);
		}
	}
	return p;
}

static char *pad_to(char *p, const char *start, unsigned width)
{
	while ((unsigned)(p - start) < width)
		*p++ = ' ';
	return p;
}

/* Right-align the text written at start..p in width columns. */
static char *align_right(char *start, char *p, unsigned width)
{
	size_t n = (size_t)(p - start);

	if (n >= width)
		return p;
	memmove(start + (width - n), start, n);
	memset(start, ' ', width - n);
	return start + width;
}

/* comm is not in this list: the text format always ends with it. */
static bool text_shown(const struct column *c)
{
	return c->text_width != 0;
}

static char *text_header(char *p)
{
	size_t i;

	for (i = 0; i < NCOLS; i++) {
		const struct column *c = &columns[i];
		char *start = p;

		if (!text_shown(c))
			continue;
		p = put_mem(p, c->name, c->name_len);
		p = c->kind == C_TYPE ? pad_to(p, start, c->text_width)
				      : align_right(start, p, c->text_width);
		*p++ = ' ';
	}
	p = put_mem(p, "comm\n", 5);
	return p;
}

/* 16 spaces at p (a text column is at most that wide), two word stores. */
static ALWAYS_INLINE void put_16_spaces(char *p)
{
	memcpy(p, "                ", 16);
}

/* A shown column: type left-aligned, numbers right-aligned, then a space.
 * Columns with no text width compile to nothing.  The number is written
 * aside first, so that its length places it: the column is blanked and
 * the number copied in at its place with fixed-size copies (no memmove,
 * no loop). */
static ALWAYS_INLINE char *text_col(char *p, struct src s,
				    enum col_kind kind, enum rec_field f,
				    unsigned width)
{
	char num[32];
	size_t n, shift;

	if (!width)
		return p;
	put_16_spaces(p);
	if (kind == C_TYPE) {
		n = (size_t)(put_type(p, s) - p);
		p += n > width ? n : width;
	} else {
		n = (size_t)(put_col(num, s, kind, f, 0, "-", 1) - num);
		shift = n < width ? width - n : 0;
		memcpy(p + shift, num, MAX_VALUE);
		p += shift + n;
	}
	*p++ = ' ';
	return p;
}

static ALWAYS_INLINE char *text_record(char *p, struct src s)
{
	const char *comm;
	char *plain;
	size_t n;

#define TEXT_COL(nm, kind, field, tw) \
	p = text_col(p, s, kind, (enum rec_field)(field), tw);
	COLUMNS(TEXT_COL)
#undef TEXT_COL
	comm = s_comm(s, &n);
	plain = put_comm_plain(p, comm, n);
	p = plain ? plain : text_comm(p, comm, n);
	*p++ = '\n';
	return p;
}

/* ---- snprintf-like entry points ---------------------------------------- */

/* Lines are built where they fit for sure: straight in the caller's buffer
 * when it is FORMAT_MAX_LINE or more, else on the stack and copied. */
static size_t deliver(const char *line, size_t n, char *buf, size_t cap)
{
	if (line != buf && cap > 0) {
		size_t k = n < cap ? n : cap - 1;

		memcpy(buf, line, k);
		buf[k] = '\0';
	}
	return n;
}

static char *csv_header_cols(char *p, const struct format_cols *cols)
{
	unsigned i;

	for (i = 0; i < cols->n; i++) {
		const struct column *c = &columns[cols->col[i]];

		if (i)
			*p++ = ',';
		p = put_mem(p, c->name, c->name_len);
	}
	*p++ = '\n';
	return p;
}

size_t format_header_cols(enum out_format f, const struct format_cols *cols,
			  char *buf, size_t cap)
{
	char tmp[FORMAT_MAX_LINE];
	char *line = cap >= FORMAT_MAX_LINE ? buf : tmp, *end = line;

	if (!cols || f == FMT_TEXT)
		return format_header(f, buf, cap);
	if (f == FMT_CSV)
		end = csv_header_cols(line, cols);
	*end = '\0';
	return deliver(line, (size_t)(end - line), buf, cap);
}

size_t format_header(enum out_format f, char *buf, size_t cap)
{
	char tmp[FORMAT_MAX_LINE];
	char *line = cap >= FORMAT_MAX_LINE ? buf : tmp, *end = line;

	if (f == FMT_CSV)
		end = csv_header(line);
	else if (f == FMT_TEXT)
		end = text_header(line);
	*end = '\0';
	return deliver(line, (size_t)(end - line), buf, cap);
}

/* One record in format f at line (FORMAT_MAX_LINE bytes); its end. */
static ALWAYS_INLINE char *format_any(enum out_format f, struct src s,
				      char *line)
{
	switch (f) {
	case FMT_CSV: return csv_record(line, s);
	case FMT_JSONL: return json_record(line, s);
	case FMT_TEXT: return text_record(line, s);
	}
	return line;
}

static char *format_rec_at(enum out_format f, const struct exit_record *r,
			   char *line)
{
	return format_any(f, src_of_rec(r), line);
}

static char *format_view_at(enum out_format f, const struct exit_view *v,
			    char *line)
{
	struct exit_record r;

	if (record_view_append(v) && v->len >= V16_LEN)
		return format_any(f, src_of_view(v, S_APPEND_V16), line);
	if (record_view_append(v))
		return format_any(f, src_of_view(v, S_APPEND), line);
	record_from_view(v, &r);
	return format_rec_at(f, &r, line);
}

size_t format_record(enum out_format f, const struct exit_record *r,
		     char *buf, size_t cap)
{
	char tmp[FORMAT_MAX_LINE];
	char *line = cap >= FORMAT_MAX_LINE ? buf : tmp;
	char *end = format_rec_at(f, r, line);

	*end = '\0';
	return deliver(line, (size_t)(end - line), buf, cap);
}

size_t format_view(enum out_format f, const struct exit_view *v,
		   char *buf, size_t cap)
{
	char tmp[FORMAT_MAX_LINE];
	char *line = cap >= FORMAT_MAX_LINE ? buf : tmp;
	char *end = format_view_at(f, v, line);

	*end = '\0';
	return deliver(line, (size_t)(end - line), buf, cap);
}

static char *cols_view_append(enum out_format f, const struct exit_view *v,
			      const struct format_cols *cols, char *line)
{
	if (v->len >= V16_LEN)
		return cols_record(f, src_of_view(v, S_APPEND_V16), cols, line);
	return cols_record(f, src_of_view(v, S_APPEND), cols, line);
}

static char *cols_rec(enum out_format f, const struct exit_record *r,
		      const struct format_cols *cols, char *line)
{
	return cols_record(f, src_of_rec(r), cols, line);
}

size_t format_view_cols(enum out_format f, const struct format_cols *cols,
			const struct exit_view *v, char *buf, size_t cap)
{
	char tmp[FORMAT_MAX_LINE];
	char *line = cap >= FORMAT_MAX_LINE ? buf : tmp, *end;
	struct exit_record r;

	if (!cols || f == FMT_TEXT) {
		end = format_view_at(f, v, line);
	} else if (record_view_append(v)) {
		end = cols_view_append(f, v, cols, line);
	} else {
		record_from_view(v, &r);
		end = cols_rec(f, &r, cols, line);
	}
	*end = '\0';
	return deliver(line, (size_t)(end - line), buf, cap);
}

size_t format_comm(enum out_format f, const char *comm, size_t len,
		   char *buf, size_t cap)
{
	char tmp[8 * TS_COMM_LEN];
	char *end = tmp;

	if (len > TS_COMM_LEN)
		len = TS_COMM_LEN;
	switch (f) {
	case FMT_CSV: end = csv_comm(tmp, comm, len); break;
	case FMT_JSONL: end = json_comm(tmp, comm, len); break;
	case FMT_TEXT: end = text_comm(tmp, comm, len); break;
	}
	*end = '\0';
	return deliver(tmp, (size_t)(end - tmp), buf, cap);
}
