/* key=value summary files, replaced atomically (temp file + rename) so a
 * reader never sees half a file. */
#ifndef EXITMON_KVFILE_H
#define EXITMON_KVFILE_H

#include <stddef.h>
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

#endif
