// SPDX-License-Identifier: GPL-2.0-or-later
/* safe_check_create(): an output path tried before the work -- a fresh
 * name passes and leaves nothing behind; a directory, a missing directory,
 * a directory that takes no files (/proc) and another user's file in a
 * sticky shared directory are refused.  safe_replace() through our own
 * symbolic link writes its target and leaves the link a link. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "safe.h"

static char dir[] = "/tmp/test_safe.XXXXXX";

static int entries(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dp);
	return n;
}

static void test_fresh_and_own(void **state)
{
	char p[256];
	int fd;

	(void)state;
	snprintf(p, sizeof(p), "%s/out.svg", dir);
	assert_int_equal(safe_check_create(p), 0);
	assert_int_equal(entries(dir), 0);	/* the trial file is gone */
	fd = open(p, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(safe_check_create(p), 0);	/* our own file */
	assert_int_equal(entries(dir), 1);
	unlink(p);
}

/* A FIFO is never a blocking open: no reader is -SAFE_ENOREADER at once;
 * with a reader the fd blocks again, as the caller's flags ask. */
static void test_fifo(void **state)
{
	char p[256];
	bool created;
	int rd, fd;

	(void)state;
	snprintf(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(safe_open(p, O_WRONLY | O_CREAT, 0600, &created),
			 -SAFE_ENOREADER);
	assert_non_null(strstr(safe_strerror(SAFE_ENOREADER), "no reader"));
	rd = open(p, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	fd = safe_open(p, O_WRONLY | O_CREAT, 0600, &created);
	assert_true(fd >= 0);
	assert_false(created);
	assert_false(fcntl(fd, F_GETFL) & O_NONBLOCK);
	close(fd);
	close(rd);
	unlink(p);
}

static void test_refused(void **state)
{
	char p[256];

	(void)state;
	assert_int_equal(safe_check_create(dir), -EISDIR);
	snprintf(p, sizeof(p), "%s/sub", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(safe_check_create(p), -EISDIR);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/missing/out.svg", dir);
	assert_int_equal(safe_check_create(p), -ENOENT);
	/* root may "write" in /proc by its mode, but no file can be made */
	assert_true(safe_check_create("/proc/exitmon-test.svg") < 0);
	if (geteuid() == 0)
		assert_int_equal(safe_check_create("/proc/exitmon-test.svg"), -ENOENT);
}

/* Another user's file in a sticky world-writable directory (root only:
 * it takes a chown). */
static void test_foreign(void **state)
{
	char sticky[256], p[300];
	int fd;

	(void)state;
	if (geteuid() != 0)
		skip();
	snprintf(sticky, sizeof(sticky), "%s/shared", dir);
	assert_int_equal(mkdir(sticky, 0777), 0);
	assert_int_equal(chmod(sticky, 01777), 0);
	snprintf(p, sizeof(p), "%s/theirs.svg", sticky);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chown(p, 65534, 65534), 0);
	assert_int_equal(safe_check_create(p), -SAFE_EFOREIGN);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("/nonexistent", p), 0);
	assert_int_equal(lchown(p, 65534, 65534), 0);
	assert_int_equal(safe_check_create(p), -SAFE_EFOREIGN);
	unlink(p);
	rmdir(sticky);
}

static void test_replace_through_link(void **state)
{
	char target[256], link[256], buf[16] = "";
	struct stat st;
	int fd;

	(void)state;
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink("target", link), 0);
	assert_int_equal(safe_replace(link, "hello\n", 6, 0644), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	fd = open(target, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 6);
	close(fd);
	assert_string_equal(buf, "hello\n");
	unlink(link);
	unlink(target);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh_and_own),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_replace_through_link),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
