/* Buffered line input over zlib (see linein.h). */
#include "linein.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recread.h"

int linein_open(struct linein *l, const char *path)
{
	bool in = strcmp(path, "-") == 0;
	int fd = in ? fcntl(0, F_DUPFD_CLOEXEC, 0) : -1, r;

	memset(l, 0, sizeof(*l));
	if (in && fd < 0)
		return -errno;
	errno = 0;
	l->g = in ? gzdopen(fd, "rb") : gzopen(path, "rbe");
	if (!l->g) {
		r = errno ? -errno : -ENOMEM;
		if (fd >= 0)
			close(fd);
		return r;
	}
	gzbuffer(l->g, 256 * 1024);
	l->buf = malloc(LINEIN_BUF);
	if (!l->buf) {
		linein_close(l);
		return -ENOMEM;
	}
	return 0;
}

void linein_close(struct linein *l)
{
	free(l->buf);
	if (l->g)
		gzclose(l->g);
	memset(l, 0, sizeof(*l));
}

int linein_fill(struct linein *l)
{
	int got;

	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
	}
	if (l->end == LINEIN_BUF)
		return -E2BIG;
	got = gzread(l->g, l->buf + l->end, (unsigned)(LINEIN_BUF - l->end));
	if (got < 0)
		return -EIO;
	if (got == 0)
		l->eof = true;
	l->end += (size_t)got;
	return 0;
}

/* Whether the row from l->start up to nl ends inside quotes. */
static bool row_open(const struct linein *l, const char *nl)
{
	size_t n = (size_t)(nl - l->buf) - l->start;

	return memchr(l->buf + l->start, '"', n) &&
	       recread_csv_open_quote(l->buf + l->start, n);
}

int linein_next(struct linein *l, bool csv, const char **p, size_t *n)
{
	size_t from = l->start;

	for (;;) {
		char *nl = memchr(l->buf + from, '\n', l->end - from);

		if (nl && csv && row_open(l, nl)) {
			from = (size_t)(nl - l->buf) + 1;
			continue;
		}
		if (nl) {
			*p = l->buf + l->start;
			*n = (size_t)(nl - l->buf) - l->start;
			l->start += *n + 1;
			return 1;
		}
		if (l->eof) {
			*p = l->buf + l->start;
			*n = l->end - l->start;
			l->start = l->end;
			return *n ? 2 : 0;
		}
		from -= l->start;
		if (linein_fill(l) < 0)
			return l->end == LINEIN_BUF ? -E2BIG : -EIO;
	}
}

ssize_t linein_read(struct linein *l, void *buf, size_t size)
{
	size_t have = l->end - l->start;
	int got;

	if (have) {
		if (have > size)
			have = size;
		memcpy(buf, l->buf + l->start, have);
		l->start += have;
		return (ssize_t)have;
	}
	got = gzread(l->g, buf, (unsigned)(size > INT32_MAX ? INT32_MAX : size));
	return got < 0 ? -1 : got;
}
