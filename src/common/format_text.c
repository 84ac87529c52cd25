// SPDX-License-Identifier: GPL-2.0-or-later
/* Text, for people: a header and a fixed-width line per record with the
 * important columns (those with a text width in COLUMNS) and comm last, so
 * that its escaped length never shifts the others.
 *
 * comm shows \\ \n \r \t, \xNN for other control bytes, DEL, invalid
 * UTF-8 and invisible or direction-changing characters; other valid UTF-8
 * is shown as is.  Absent fields show "-".  Never read back. */
#include "format_wire.h"
#include "format_put.h"
#include "format_src.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const char hex_digits[] = "0123456789abcdef";

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

/* The shown columns' names, aligned as their values (cols: ignored, the
 * text format has its own choice). */
static char *text_header(char *p, const struct format_cols *cols)
{
	size_t i;

	(void)cols;
	for (i = 0; i < NCOLS; i++) {
		const struct column *c = &format_cols_table[i];
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

static ALWAYS_INLINE char *put_type(char *p, struct src s)
{
	return s_type(s) == REC_TGID ? put_lit(p, "tgid") : put_lit(p, "pid");
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

/* Text has its own columns: a choice (-F) is refused before this. */
static ALWAYS_INLINE char *text_cols(char *p, struct src s,
				     const struct format_cols *cols)
{
	(void)cols;
	return text_record(p, s);
}

FORMAT_ENTRY_WRITERS(text, text_record, text_cols)

const struct format_wire format_text = {
	.header = text_header,
	.record = text_rec,
	.view = text_view,
	.comm = text_comm,
};
