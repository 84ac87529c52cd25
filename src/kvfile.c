/* key=value files and atomic file replacement. */
#include "kvfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void kv_init(struct kvbuf *kb)
{
	memset(kb, 0, sizeof(*kb));
}

void kv_free(struct kvbuf *kb)
{
	free(kb->s);
	kv_init(kb);
}

static void kv_appendf(struct kvbuf *kb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void kv_appendf(struct kvbuf *kb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (kb->err)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (kb->len + (size_t)n + 1 > kb->cap) {
		size_t cap = (kb->cap ? kb->cap * 2 : 512) + (size_t)n;
		char *s = realloc(kb->s, cap);

		if (!s) {
			kb->err = -ENOMEM;
			return;
		}
		kb->s = s;
		kb->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(kb->s + kb->len, kb->cap - kb->len, fmt, ap);
	va_end(ap);
	kb->len += (size_t)n;
}

void kv_u64(struct kvbuf *kb, const char *key, uint64_t v)
{
	kv_appendf(kb, "%s=%" PRIu64 "\n", key, v);
}

void kv_double(struct kvbuf *kb, const char *key, double v)
{
	kv_appendf(kb, "%s=%.6f\n", key, v);
}

void kv_str(struct kvbuf *kb, const char *key, const char *v)
{
	kv_appendf(kb, "%s=%s\n", key, v);
}

int file_replace_atomic(const char *path, const char *data, size_t len)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	int fd, r = 0;

	if (!tmp)
		return -ENOMEM;
	snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	while (len && r == 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno != EINTR)
			r = -errno;
		else if (n > 0)
			data += n, len -= (size_t)n;
	}
	if (r == 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
out:
	free(tmp);
	return r;
}

int kv_write_atomic(const char *path, const struct kvbuf *kb)
{
	if (kb->err)
		return kb->err;
	return file_replace_atomic(path, kb->s ? kb->s : "", kb->len);
}
