// SPDX-License-Identifier: GPL-2.0-or-later
/* key=value files: written in memory and replaced atomically, read back. */
#include "kv.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "safe.h"

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

int kv_write_atomic(const char *path, const struct kvbuf *kb)
{
	if (kb->err)
		return kb->err;
	return safe_replace(path, kb->s ? kb->s : "", kb->len, SAFE_MODE_PUBLIC);
}

/* --- reading --- */

#define KV_MAX_BYTES (1 << 20)

int kv_map_parse(const char *text, struct kvmap *kv)
{
	size_t lines = 1;
	char *p, *save = NULL;

	memset(kv, 0, sizeof(*kv));
	kv->text = strdup(text);
	if (!kv->text)
		return -ENOMEM;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	kv->key = calloc(lines, sizeof(*kv->key));
	kv->val = calloc(lines, sizeof(*kv->val));
	if (!kv->key || !kv->val) {
		kv_map_free(kv);
		return -ENOMEM;
	}
	for (p = strtok_r(kv->text, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		char *eq;
		size_t len = strlen(p);

		if (len && p[len - 1] == '\r')
			p[--len] = '\0';
		if (len == 0 || p[0] == '#')
			continue;
		eq = strchr(p, '=');
		if (!eq || eq == p) {
			kv_map_free(kv);
			return -EBADMSG;
		}
		*eq = '\0';
		kv->key[kv->n] = p;
		kv->val[kv->n] = eq + 1;
		kv->n++;
	}
	return 0;
}

int kv_map_load(const char *path, struct kvmap *kv)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t len;
	int r;

	memset(kv, 0, sizeof(*kv));
	if (!f)
		return -errno;
	buf = malloc(KV_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	len = fread(buf, 1, KV_MAX_BYTES, f);
	r = ferror(f) ? -EIO : 0;
	if (r == 0 && !feof(f))
		r = -EFBIG;
	fclose(f);
	if (r == 0) {
		buf[len] = '\0';
		r = kv_map_parse(buf, kv);
	}
	free(buf);
	return r;
}

void kv_map_free(struct kvmap *kv)
{
	free(kv->text);
	free(kv->key);
	free(kv->val);
	memset(kv, 0, sizeof(*kv));
}

const char *kv_map_get(const struct kvmap *kv, const char *key)
{
	for (size_t i = kv->n; i > 0; i--)
		if (!strcmp(kv->key[i - 1], key))
			return kv->val[i - 1];
	return NULL;
}

int kv_map_double(const struct kvmap *kv, const char *key, double *out)
{
	const char *v = kv_map_get(kv, key);

	if (!v)
		return -ENOENT;
	return parse_double(v, -1e300, 1e300, out) < 0 ? -EINVAL : 0;
}
