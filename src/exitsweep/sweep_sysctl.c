// SPDX-License-Identifier: GPL-2.0-or-later
/* Save, set and restore kernel.task_delayacct. */
#include "sweep_sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "parse.h"

static char path_buf[256] = DELAYACCT_PATH;
static bool saved, changed, atexit_done;
static int original;
static char original_text[24];	/* pre-formatted for the signal path */

void sweep_sysctl_set_path(const char *path)
{
	snprintf(path_buf, sizeof(path_buf), "%s", path);
}

const char *sweep_sysctl_path(void)
{
	return path_buf;
}

int sweep_sysctl_read(int *val)
{
	char buf[32];
	ssize_t n;
	uint32_t v;
	int fd = open(path_buf, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (parse_u32(buf, 0, 1000, &v) < 0)
		return -EINVAL;
	*val = (int)v;
	return 0;
}

int sweep_sysctl_check_writable(void)
{
	int fd = open(path_buf, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int write_text(const char *text)
{
	size_t len = strlen(text);
	int r = 0, fd = open(path_buf, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		r = errno ? -errno : -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

static void restore_at_exit(void)
{
	int r = sweep_sysctl_restore();

	if (r < 0)
		log_warn("could not restore %s to %d: %s; set it by hand "
			"(sysctl kernel.task_delayacct=%d)", path_buf, original,
			strerror(-r), original);
}

int sweep_sysctl_save(void)
{
	int r = sweep_sysctl_read(&original);

	if (r < 0)
		return r;
	snprintf(original_text, sizeof(original_text), "%d\n", original);
	saved = true;
	changed = false;
	if (!atexit_done && atexit(restore_at_exit) == 0)
		atexit_done = true;
	return 0;
}

bool sweep_sysctl_saved(void)
{
	return saved;
}

int sweep_sysctl_original(void)
{
	return original;
}

int sweep_sysctl_set(int val)
{
	char text[24];
	int now, r = sweep_sysctl_read(&now);

	if (r < 0)
		return r;
	if (now == val)
		return 0;
	if (saved)
		changed = true;	/* before the write: a signal may land during it */
	snprintf(text, sizeof(text), "%d\n", val);
	r = write_text(text);
	if (r == 0 && (r = sweep_sysctl_read(&now)) == 0 && now != val)
		r = -EIO;
	return r;
}

int sweep_sysctl_restore(void)
{
	int now, r;

	if (!saved || !changed)
		return 0;
	r = write_text(original_text);
	if (r == 0 && (r = sweep_sysctl_read(&now)) == 0 && now != original)
		r = -EIO;
	if (r == 0)
		changed = false;
	return r;
}

void sweep_sysctl_restore_from_signal(void)
{
	int fd;

	if (!saved || !changed)
		return;
	fd = open(path_buf, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = write(fd, original_text, strlen(original_text));

		(void)n;
		close(fd);
	}
}
