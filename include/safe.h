/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening output files so that a root process never follows a link that
 * someone else planted.  Every path component is walked with openat() and
 * O_NOFOLLOW; a symbolic link (in a directory or as the last component) is
 * followed only when it is owned by the caller's effective user or by root,
 * so a link in /tmp, or one owned by another user, is refused.  An existing
 * file in a sticky world-writable directory must be the caller's own (the
 * kernel's protected_regular, which also stops planted hard links). */
#ifndef COMMON_SAFE_H
#define COMMON_SAFE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Refusals, returned negated like -errno; safe_strerror() explains them. */
#define SAFE_EUNSAFELINK 4096	/* a symlink owned by another user */
#define SAFE_EFOREIGN 4097	/* another user's file in a sticky shared dir */
#define SAFE_ENOREADER 4098	/* a FIFO no one reads: opening it would block */

/* Mode for record files and captures: they hold every user's command
 * names, uids and I/O.  The umask still applies. */
#define SAFE_MODE_RECORDS 0640
/* Mode for summary, metrics and pid files (before the umask). */
#define SAFE_MODE_PUBLIC 0644

/* strerror() that also knows the two refusals above. */
const char *safe_strerror(int err);

/* The parent directory of path, walked safely: an O_PATH directory fd, and
 * the last component copied into base (NAME_MAX + 1 bytes).  fd or -errno. */
int safe_parent(const char *path, char *base);

/* open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode) through safe_parent.
 * *created says whether this call made the file.  An existing file is
 * opened without blocking and checked before the fd blocks as flags say:
 * a FIFO with no reader is -SAFE_ENOREADER at once, never a hang.  fd or
 * -errno. */
int safe_open(const char *path, int flags, mode_t mode, bool *created);

/* Replace path by a new file holding data (temp file + rename in the same
 * directory).  Its mode is mode minus the umask, and never wider than the
 * file it replaces.  A symbolic link (that safe_open would follow), device
 * or FIFO there is written through in place instead, never replaced: so
 * /dev/stdout stays a link.  0 or -errno. */
int safe_replace(const char *path, const char *data, size_t len, mode_t mode);

/* Would safe_replace(path) work for the current effective user?  Checks the
 * directory (write, search) and an existing file's owner.  0 or -errno. */
int safe_check_replace(const char *path);

/* safe_check_replace(), then tried for real before the work that leads to
 * the file: path must not name a directory (-EISDIR), and a file made
 * beside it is removed at once (so /proc or a read-only mount refuses now,
 * not after an hour).  0 or -errno. */
int safe_check_create(const char *path);

/* Remove path if it is still the file (dev, ino).  0 or -errno. */
int safe_unlink_same(const char *path, dev_t dev, ino_t ino);

/* A file's text built with stdio in memory, then put in place atomically:
 *   f = safe_memfile_open(&m); fprintf(f, ...);
 *   r = safe_memfile_replace(&m, path); */
struct memfile {
	char *buf;
	size_t len;
	FILE *f;
};

FILE *safe_memfile_open(struct memfile *m);
/* Close the stream and replace path with its text; 0 or -errno. */
int safe_memfile_replace(struct memfile *m, const char *path);

#endif
