// SPDX-License-Identifier: GPL-2.0-or-later
/* Run the fuzz target over saved inputs without libFuzzer: each argument is
 * a file, or a directory whose regular files are all run.  Used by
 * `make sanitize` to replay tests/fuzz/regress/ and the seed corpus under
 * ASan/UBSan on every check. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!fp || fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0) {
		perror(path);
		if (fp)
			fclose(fp);
		return -1;
	}
	rewind(fp);
	/* An exact-size heap copy, so ASan sees any read past the end. */
	buf = malloc(len ? (size_t)len : 1);
	if (!buf || fread(buf, 1, (size_t)len, fp) != (size_t)len) {
		perror(path);
		free(buf);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

static int run_path(const char *path, unsigned *count)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		++*count;
		return run_file(path);
	}
	d = opendir(path);
	if (!d) {
		perror(path);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;	/* ., .., and .gitkeep-style markers */
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (stat(sub, &st) == 0 && S_ISREG(st.st_mode)) {
			++*count;
			if (run_file(sub) != 0)
				ret = -1;
		}
	}
	closedir(d);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int i, ret = 0;

	for (i = 1; i < argc; i++)
		if (run_path(argv[i], &count) != 0)
			ret = 1;
	printf("replay: %u inputs, %s\n", count, ret ? "errors" : "all passed");
	return ret;
}
