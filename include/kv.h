/* SPDX-License-Identifier: GPL-2.0-or-later */
/* key=value summary files, replaced atomically (temp file + rename) so a
 * reader never sees half a file. */
#ifndef COMMON_KV_H
#define COMMON_KV_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

struct kvbuf {
	char *s;
	size_t len, cap;
	int err;		/* first allocation failure, sticky */
};

void kv_init(struct kvbuf *kb);
void kv_free(struct kvbuf *kb);
void kv_u64(struct kvbuf *kb, const char *key, uint64_t v);
void kv_double(struct kvbuf *kb, const char *key, double v);
void kv_str(struct kvbuf *kb, const char *key, const char *v);
/* Write kb's text to path atomically; 0 or -errno. */
int kv_write_atomic(const char *path, const struct kvbuf *kb);
/* Reading such files. */
struct kvmap {
	char *text;		/* the file, split in place */
	size_t n;
	char **key, **val;
};

/* Load path: one key=value per line, blank lines and lines starting with
 * '#' ignored.  0, -errno, or -EBADMSG for a line without '='. */
int kv_map_load(const char *path, struct kvmap *kv);
/* Same from a string (copied). */
int kv_map_parse(const char *text, struct kvmap *kv);
void kv_map_free(struct kvmap *kv);
/* The last value of key, or NULL. */
const char *kv_map_get(const struct kvmap *kv, const char *key);
/* key as a finite number: 0, -ENOENT (absent) or -EINVAL (not a number). */
int kv_map_double(const struct kvmap *kv, const char *key, double *out);

#endif
