// SPDX-License-Identifier: GPL-2.0-or-later
/* Symlink-safe opening of output files: see safe.h for the rules. */
#include "safe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define MAX_LINKS 40
#define PROC_MAGIC 0x9fa0	/* PROC_SUPER_MAGIC: the kernel's own links */

struct walk {
	int dir;		/* O_PATH fd of the directory reached so far */
	char path[PATH_MAX];	/* what is left to walk, from pos */
	size_t pos;
	int links;
};

const char *safe_strerror(int err)
{
	if (err == SAFE_EUNSAFELINK)
		return "it goes through a symbolic link owned by another user "
		       "(refused, as the kernel's protected_symlinks would)";
	if (err == SAFE_EFOREIGN)
		return "it is another user's file in a world-writable sticky "
		       "directory (refused)";
	if (err == SAFE_ENOREADER)
		return "it is a FIFO with no reader (start its reader first)";
	return strerror(err);
}

static bool trusted_owner(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

static bool shared_sticky(const struct stat *dir)
{
	return (dir->st_mode & S_ISVTX) && (dir->st_mode & S_IWOTH);
}

static int walk_init(struct walk *w, const char *path)
{
	w->dir = -1;
	if (!*path)
		return -ENOENT;
	if (strlen(path) >= sizeof(w->path))
		return -ENAMETOOLONG;
	strcpy(w->path, path);
	w->pos = 0;
	w->links = 0;
	w->dir = open(path[0] == '/' ? "/" : ".",
		      O_PATH | O_DIRECTORY | O_CLOEXEC);
	return w->dir < 0 ? -errno : 0;
}

/* Continue the walk at a link's target, then at what followed the link. */
static int follow(struct walk *w, int lfd, const struct stat *st,
		  const char *after)
{
	char target[PATH_MAX], next[PATH_MAX];
	ssize_t n;

	if (!trusted_owner(st))
		return -SAFE_EUNSAFELINK;
	if (++w->links > MAX_LINKS)
		return -ELOOP;
	n = readlinkat(lfd, "", target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (snprintf(next, sizeof(next), "%s%s%s", target, *after ? "/" : "",
		     after) >= (int)sizeof(next))
		return -ENAMETOOLONG;
	strcpy(w->path, next);
	w->pos = 0;
	if (target[0] == '/') {
		close(w->dir);
		w->dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (w->dir < 0)
			return -errno;
	}
	return 0;
}

/* One directory component: enter it, or follow it if it is a link. */
static int step(struct walk *w, const char *name, const char *after)
{
	int fd = openat(w->dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	int r = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
	} else if (S_ISDIR(st.st_mode)) {
		close(w->dir);
		w->dir = fd;
		w->pos = (size_t)(after - w->path);
		return 0;
	} else if (S_ISLNK(st.st_mode)) {
		r = follow(w, fd, &st, after);
	} else {
		r = -ENOTDIR;
	}
	close(fd);
	return r;
}

/* Walk every directory component; leave the last one in base. */
static int walk_dirs(struct walk *w, char *base)
{
	for (;;) {
		char *p = w->path + w->pos, *slash;
		size_t n;
		int r;

		p += strspn(p, "/");
		slash = strchr(p, '/');
		if (slash && slash[strspn(slash, "/")] != '\0') {
			*slash = '\0';
			if ((r = step(w, p, slash + 1)) < 0)
				return r;
			continue;
		}
		if (slash || !*p)
			return -EISDIR;	/* names a directory, not a file */
		if ((n = strlen(p)) > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(base, p, n + 1);
		return 0;
	}
}

int safe_parent(const char *path, char *base)
{
	struct walk w;
	int r = walk_init(&w, path);

	if (r == 0 && (r = walk_dirs(&w, base)) == 0)
		return w.dir;
	if (w.dir >= 0)
		close(w.dir);
	return r;
}

/* An existing file in a shared sticky directory must be our own. */
static int check_foreign(int dir, int fd)
{
	struct stat d, f;

	if (fstat(dir, &d) < 0 || fstat(fd, &f) < 0)
		return -errno;
	if (shared_sticky(&d) && f.st_uid != geteuid())
		return -SAFE_EFOREIGN;
	return 0;
}

/* The last component is a link: follow it by the same rule (0: the walk
 * goes on at its target), or open a procfs link such as /dev/stdout's
 * target, which the kernel made (*fd).  0 or -errno. */
static int last_link(struct walk *w, const char *base, int flags, int *fd)
{
	int lfd = openat(w->dir, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct statfs fs;
	struct stat st;
	int r = 0;

	if (lfd < 0)
		return -errno;
	if (fstat(lfd, &st) < 0 || fstatfs(lfd, &fs) < 0) {
		r = -errno;
	} else if (!S_ISLNK(st.st_mode)) {
		r = -ELOOP;
	} else if (fs.f_type == PROC_MAGIC && trusted_owner(&st)) {
		*fd = openat(w->dir, base, (flags & ~O_CREAT) | O_CLOEXEC);
		if (*fd < 0)
			r = -errno;
	} else {
		r = follow(w, lfd, &st, "");
	}
	close(lfd);
	return r;
}

#define LAST_IS_LINK (-8192)

/* fd, LAST_IS_LINK, or -errno. */
static int open_last(struct walk *w, const char *base, int flags,
		     mode_t mode, bool *created)
{
	int fd = -1;

	*created = false;
	if (flags & O_CREAT) {
		fd = openat(w->dir, base, flags | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode);
		if (fd >= 0)
			*created = true;
		else if (errno != EEXIST)
			return -errno;
	}
	/* An existing file never blocks the open: a FIFO (planted or not) with
	 * no reader fails at once (ENXIO) instead of hanging us before any
	 * check; safe_open() checks its owner, then the flag is cleared. */
	if (fd < 0)
		fd = openat(w->dir, base, (flags & ~O_CREAT) | O_NOFOLLOW |
			    O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? LAST_IS_LINK : -errno;
	return fd;
}

/* Why an existing FIFO at base could not be opened without blocking
 * (ENXIO): another user's in a shared sticky directory, or no reader. */
static int fifo_refusal(int dir, const char *base)
{
	struct stat d, f;

	if (fstatat(dir, base, &f, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISFIFO(f.st_mode))
		return -ENXIO;
	if (fstat(dir, &d) == 0 && shared_sticky(&d) && f.st_uid != geteuid())
		return -SAFE_EFOREIGN;
	return -SAFE_ENOREADER;
}

/* The existing file just opened: checked, then blocking as asked.
 * fd or -errno (fd closed). */
static int checked_existing(int dir, int fd, int flags)
{
	int r = check_foreign(dir, fd), fl;

	if (r == 0 && !(flags & O_NONBLOCK) &&
	    ((fl = fcntl(fd, F_GETFL)) < 0 ||
	     fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0))
		r = -errno;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int safe_open(const char *path, int flags, mode_t mode, bool *created)
{
	char base[NAME_MAX + 1];
	struct walk w;
	int fd = -1, r;

	*created = false;
	r = walk_init(&w, path);
	while (r == 0 && (r = walk_dirs(&w, base)) == 0) {
		r = open_last(&w, base, flags, mode, created);
		if (r == LAST_IS_LINK) {
			r = last_link(&w, base, flags, &fd);
			if (r == 0 && fd >= 0)
				r = fd;
			else
				continue;
		} else if (r >= 0 && !*created) {
			r = checked_existing(w.dir, r, flags);
		} else if (r == -ENXIO) {
			r = fifo_refusal(w.dir, base);
		}
		break;
	}
	if (w.dir >= 0)
		close(w.dir);
	return r;
}

/* A fresh temporary name beside base; O_EXCL makes the pick safe. */
static int open_temp(int dir, const char *base, mode_t mode, char *tmp,
		     size_t len)
{
	static unsigned seq;
	int i, fd = -1;

	for (i = 0; i < 100 && fd < 0; i++) {
		if (snprintf(tmp, len, ".%s.%d.%u", base, (int)getpid(),
			     __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED)) >= (int)len)
			return -ENAMETOOLONG;
		fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	return fd < 0 ? -EEXIST : fd;
}

/* The mode of a replacement: never wider than the file it replaces. */
static int replace_mode(int dir, const char *base, mode_t *mode)
{
	struct stat st, d;

	if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(dir, &d) < 0)
		return -errno;
	if (shared_sticky(&d) && st.st_uid != geteuid())
		return -SAFE_EFOREIGN;
	if (S_ISREG(st.st_mode))
		*mode &= st.st_mode;
	return 0;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			data += n, len -= (size_t)n;
	}
	return 0;
}

/* Does the last component name something a rename must not replace: a
 * symbolic link (--json /dev/stdout: the link would become a file), a
 * device or a FIFO?  Those are written in place instead. */
static bool replace_in_place(int dir, const char *base)
{
	struct stat st;

	return fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Write data through safe_open (which follows only a trusted link and
 * refuses the rest), truncating what is there. */
static int write_in_place(const char *path, const char *data, size_t len,
			  mode_t mode)
{
	bool created;
	int fd = safe_open(path, O_WRONLY | O_CREAT | O_TRUNC, mode, &created), r;

	if (fd < 0)
		return fd;
	r = write_all(fd, data, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int safe_replace(const char *path, const char *data, size_t len, mode_t mode)
{
	char base[NAME_MAX + 1], tmp[NAME_MAX + 1];
	int dir = safe_parent(path, base), fd, r;

	if (dir < 0)
		return dir;
	mode &= 0777;
	if ((r = replace_mode(dir, base, &mode)) < 0)
		goto out;
	if (replace_in_place(dir, base)) {
		r = write_in_place(path, data, len, mode);
		goto out;
	}
	if ((r = fd = open_temp(dir, base, mode, tmp, sizeof(tmp))) < 0)
		goto out;
	r = write_all(fd, data, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dir, tmp, dir, base) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dir, tmp, 0);
out:
	close(dir);
	return r;
}

int safe_check_replace(const char *path)
{
	char base[NAME_MAX + 1];
	mode_t mode = 0;
	int dir = safe_parent(path, base), r = 0;

	if (dir < 0)
		return dir;
	if (faccessat(dir, ".", W_OK | X_OK, AT_EACCESS) < 0)
		r = -errno;
	else
		r = replace_mode(dir, base, &mode);
	/* What safe_replace() will write through in place (a link, a device,
	 * a FIFO) is opened now by the same rule, so a link it will refuse
	 * is refused before the work, not after it; nothing is written, and
	 * a FIFO's reader may come later. */
	if (r == 0 && replace_in_place(dir, base)) {
		bool created;
		int fd = safe_open(path, O_WRONLY, 0, &created);

		if (fd >= 0)
			close(fd);
		else if (fd != -SAFE_ENOREADER)
			r = fd;
	}
	close(dir);
	return r;
}

int safe_check_create(const char *path)
{
	char base[NAME_MAX + 1], tmp[NAME_MAX + 1];
	struct stat st;
	int dir, fd, r = safe_check_replace(path);

	if (r < 0)
		return r;
	dir = safe_parent(path, base);
	if (dir < 0)
		return dir;
	if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
		r = -EISDIR;
	} else if ((fd = open_temp(dir, base, 0600, tmp, sizeof(tmp))) < 0) {
		r = fd;
	} else {
		close(fd);
		unlinkat(dir, tmp, 0);
	}
	close(dir);
	return r;
}

int safe_unlink_same(const char *path, dev_t dev, ino_t ino)
{
	char base[NAME_MAX + 1];
	struct stat st;
	int dir = safe_parent(path, base), r = 0;

	if (dir < 0)
		return dir;
	if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		r = -errno;
	else if (st.st_dev != dev || st.st_ino != ino)
		r = -ESTALE;
	else if (unlinkat(dir, base, 0) < 0)
		r = -errno;
	close(dir);
	return r;
}

FILE *safe_memfile_open(struct memfile *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f;
}

int safe_memfile_replace(struct memfile *m, const char *path)
{
	int r = -ENOMEM;

	if (fclose(m->f) == 0)
		r = safe_replace(path, m->buf, m->len, SAFE_MODE_PUBLIC);

	free(m->buf);
	m->buf = NULL;
	m->f = NULL;
	return r;
}
