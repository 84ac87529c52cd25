/* key=value reader. */
#include "sweep_kv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"

#define KV_MAX_BYTES (1 << 20)

int sweep_kv_parse(const char *text, struct sweep_kv *kv)
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
		sweep_kv_free(kv);
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
			sweep_kv_free(kv);
			return -EBADMSG;
		}
		*eq = '\0';
		kv->key[kv->n] = p;
		kv->val[kv->n] = eq + 1;
		kv->n++;
	}
	return 0;
}

int sweep_kv_load(const char *path, struct sweep_kv *kv)
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
		r = sweep_kv_parse(buf, kv);
	}
	free(buf);
	return r;
}

void sweep_kv_free(struct sweep_kv *kv)
{
	free(kv->text);
	free(kv->key);
	free(kv->val);
	memset(kv, 0, sizeof(*kv));
}

const char *sweep_kv_get(const struct sweep_kv *kv, const char *key)
{
	for (size_t i = kv->n; i > 0; i--)
		if (!strcmp(kv->key[i - 1], key))
			return kv->val[i - 1];
	return NULL;
}

int sweep_kv_double(const struct sweep_kv *kv, const char *key, double *out)
{
	const char *v = sweep_kv_get(kv, key);

	if (!v)
		return -ENOENT;
	return parse_double(v, -1e300, 1e300, out) < 0 ? -EINVAL : 0;
}
