/* Reading the key=value summary files exitmon and exitgen write (the
 * writer is include/kvfile.h).  Kept here until kvfile grows a reader. */
#ifndef EXITSWEEP_KV_H
#define EXITSWEEP_KV_H

#include <stddef.h>
#include <stdint.h>

struct sweep_kv {
	char *text;		/* the file, split in place */
	size_t n;
	char **key, **val;
};

/* Load path: one key=value per line, blank lines and lines starting with
 * '#' ignored.  0, -errno, or -EBADMSG for a line without '='. */
int sweep_kv_load(const char *path, struct sweep_kv *kv);
/* Same from a string (copied). */
int sweep_kv_parse(const char *text, struct sweep_kv *kv);
void sweep_kv_free(struct sweep_kv *kv);
/* The last value of key, or NULL. */
const char *sweep_kv_get(const struct sweep_kv *kv, const char *key);
/* key as a finite number: 0, -ENOENT (absent) or -EINVAL (not a number). */
int sweep_kv_double(const struct sweep_kv *kv, const char *key, double *out);

#endif
