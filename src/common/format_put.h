/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Appending to a line: decimal integers with their separator, bytes and
 * literals, and a command name that no format needs to escape.  Private to
 * the writers (format*.c), all inline: every column of every record goes
 * through these, with its separator a constant at each call.
 *
 * No bounds checks: the caller's line is FORMAT_MAX_LINE bytes and the
 * longest line is bounded at compile time (LINE_BOUND in format.c), with
 * SLACK bytes past a line's end that some of these may write (they store
 * whole chunks and keep part of them; what follows overwrites the rest). */
#ifndef COMMON_FORMAT_PUT_H
#define COMMON_FORMAT_PUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* The longest value in decimal (2^64 - 1), and what may be written past a
 * line's end. */
#define MAX_VALUE 20
#define SLACK 32

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/* A 16-bit word stored as two bytes, lowest first, whatever the
 * machine's byte order. */
static inline void store_le16(char *p, uint16_t x)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap16(x);
#endif
	memcpy(p, &x, 2);
}
/* 100 <= v < 10^4, the most common long values: two digit pairs (v / 100
 * as v * 5243 >> 19, exact below 43699). */
static ALWAYS_INLINE char *put_3_4_digits(char *p, uint32_t v)
{
	uint32_t hi = v * 5243 >> 19, lo = v - hi * 100;

	if (hi < 10) {
		*p++ = (char)('0' + hi);
	} else {
		memcpy(p, digit_pairs + 2 * hi, 2);
		p += 2;
	}
	memcpy(p, digit_pairs + 2 * lo, 2);
	return p + 2;
}

/* Exactly 4 digits of v < 10^4. */
static ALWAYS_INLINE char *put_4_digits(char *p, uint32_t v)
{
	uint32_t hi = v * 5243 >> 19;

	memcpy(p, digit_pairs + 2 * hi, 2);
	memcpy(p + 2, digit_pairs + 2 * (v - hi * 100), 2);
	return p + 4;
}

/* Exactly 8 digits of v < 10^8. */
static ALWAYS_INLINE char *put_8_digits(char *p, uint32_t v)
{
	return put_4_digits(put_4_digits(p, v / 10000), v % 10000);
}

/* 10^4 <= v < 10^6: one or two digits, then four. */
static ALWAYS_INLINE char *put_5_6_digits(char *p, uint32_t v)
{
	uint32_t hi = v / 10000;

	if (hi < 10) {
		*p++ = (char)('0' + hi);
	} else {
		memcpy(p, digit_pairs + 2 * hi, 2);
		p += 2;
	}
	return put_4_digits(p, v - hi * 10000);
}

/* 0 < v < 10^8 in decimal, by digit pairs: most values that are not
 * one digit are under 10^8 (times in microseconds, sizes in kB, counts). */
static ALWAYS_INLINE char *put_u32_any(char *p, uint32_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, digit_pairs + 2 * v, 2);
		return p + 2;
	}
	if (v < 10000)
		return put_3_4_digits(p, v);
	if (v < 1000000)
		return put_5_6_digits(p, v);
	return put_4_digits(put_3_4_digits(p, v / 10000), v % 10000);
}

/* v >= 100 in decimal; from 10^8 on, the low digits in chunks of 8 (at
 * most 8 bytes past the digits are overwritten: the line bound leaves
 * room for them). */
static inline char *put_u64_long(char *p, uint64_t v)
{
	uint64_t hi;

	if (v < 10000)
		return put_3_4_digits(p, (uint32_t)v);
	if (v < 1000000)
		return put_5_6_digits(p, (uint32_t)v);
	if (v < 100000000)
		return put_4_digits(put_3_4_digits(p, (uint32_t)v / 10000),
				    (uint32_t)v % 10000);
	hi = v / 100000000;
	if (hi < 100000000)
		p = put_u32_any(p, (uint32_t)hi);
	else
		p = put_8_digits(put_u32_any(p, (uint32_t)(hi / 100000000)),
				 (uint32_t)(hi % 100000000));
	return put_8_digits(p, (uint32_t)(v % 100000000));
}

/* Append v in decimal, then the separator sep (none when 0: the
 * separator is a constant at every call, so the test folds away).
 * Inlined at every column: most fields of most records are one digit
 * (often 0), which is then two stores. */
static ALWAYS_INLINE char *put_u64_sep(char *p, uint64_t v, char sep)
{
	if (__builtin_expect(v < 10, 1)) {
		if (!sep) {
			*p = (char)('0' + v);
			return p + 1;
		}
		store_le16(p, (uint16_t)('0' + v + ((unsigned)sep << 8)));
		return p + 2;
	}
	if (v < 100) {
		memcpy(p, digit_pairs + 2 * v, 2);
		p[2] = sep;
		return p + 2 + (sep != 0);
	}
	p = put_u64_long(p, v);
	*p = sep;
	return p + (sep != 0);
}

/* ac_nice holds task_nice() (-20..19) stored in an unsigned byte. */
static inline char *put_nice(char *p, uint64_t v, char sep)
{
	int8_t n = (int8_t)(uint8_t)v;

	if (n < 0) {
		*p++ = '-';
		return put_u64_sep(p, (uint64_t)(-(int)n), sep);
	}
	return put_u64_sep(p, (uint64_t)n, sep);
}

static inline char *put_mem(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* A string literal: its length is a constant, so the copy is a few moves. */
#define put_lit(p, s) put_mem(p, s, sizeof(s) - 1)

/* Most names are printable ASCII with nothing any format escapes or
 * quotes: such a name is copied as it is checked, in one pass; any other
 * byte sends the name to its format's own writer.  The bytes that do:
 * control bytes, DEL and above, and ',' '"' '\\'. */
static const uint8_t comm_special[256] = {
	[0 ... 0x1f] = 1, [','] = 1, ['"'] = 1, ['\\'] = 1, [0x7f ... 0xff] = 1,
};

/* The n bytes at s copied to p if all are plain; NULL if not. */
static inline char *put_comm_plain(char *p, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++) {
		if (comm_special[u[i]])
			return NULL;
		p[i] = (char)u[i];
	}
	return p + n;
}

#endif
