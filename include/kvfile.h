/* key=value summary files, replaced atomically (temp file + rename) so a
 * reader never sees half a file. */
#ifndef EXITMON_KVFILE_H
#define EXITMON_KVFILE_H

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
/* Write any bytes to path atomically (temp file in the same directory). */
int file_replace_atomic(const char *path, const char *data, size_t len);

/* A file's text built with stdio in memory, then put in place atomically:
 * f = memfile_open(&m); fprintf(f, ...); r = memfile_replace(&m, path); */
struct memfile {
	char *buf;
	size_t len;
	FILE *f;
};

FILE *memfile_open(struct memfile *m);
/* Close the stream and replace path with its text; 0 or -errno. */
int memfile_replace(struct memfile *m, const char *path);

/* Reading such files. */
struct kvmap {
	char *text;		/* the file, split in place */
	size_t n;
	char **key, **val;
};

/* Load path: one key=value per line, blank lines and lines starting with
 * '#' ignored.  0, -errno, or -EBADMSG for a line without '='. */
int kvmap_load(const char *path, struct kvmap *kv);
/* Same from a string (copied). */
int kvmap_parse(const char *text, struct kvmap *kv);
void kvmap_free(struct kvmap *kv);
/* The last value of key, or NULL. */
const char *kvmap_get(const struct kvmap *kv, const char *key);
/* key as a finite number: 0, -ENOENT (absent) or -EINVAL (not a number). */
int kvmap_double(const struct kvmap *kv, const char *key, double *out);

#endif
