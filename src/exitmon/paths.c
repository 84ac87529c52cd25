// SPDX-License-Identifier: GPL-2.0-or-later
/* Start-up checks of the files named on the command line. */
#include "paths.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "safe.h"

struct named {
	const char *opt, *path;
	struct stat st;
	bool exists;
};

static unsigned list_paths(const struct mon_config *cfg, struct named *n)
{
	const char *opt[] = { "--output", "--capture", "--summary",
			      "--metrics", "--pidfile", "--replay" };
	const char *path[] = { cfg->output, cfg->capture, cfg->summary,
			       cfg->metrics, cfg->pidfile, cfg->replay };
	unsigned i, k = 0;

	for (i = 0; i < 6; i++) {
		if (!path[i])
			continue;
		n[k].opt = opt[i];
		n[k].path = path[i];
		/* Identity only: a regular file, however it is spelled.  Two
		 * names of /dev/null are fine. */
		n[k].exists = stat(n[k].path, &n[k].st) == 0 &&
			      S_ISREG(n[k].st.st_mode);
		k++;
	}
	return k;
}

int paths_distinct(const struct mon_config *cfg)
{
	struct named n[6];
	unsigned i, j, k = list_paths(cfg, n);

	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++) {
			if (!n[i].exists || !n[j].exists ||
			    n[i].st.st_dev != n[j].st.st_dev ||
			    n[i].st.st_ino != n[j].st.st_ino)
				continue;
			log_warn("%s %s and %s %s are the same file: give each "
				"its own file", n[i].opt, n[i].path, n[j].opt,
				n[j].path);
			return EXIT_USAGE;
		}
	return 0;
}

int paths_check_replaced(const struct mon_config *cfg)
{
	const char *opt[] = { "--summary", "--metrics" };
	const char *path[] = { cfg->summary, cfg->metrics };
	unsigned i;
	int r;

	for (i = 0; i < 2; i++) {
		if (!path[i] || (r = safe_check_replace(path[i])) == 0)
			continue;
		log_warn("cannot write %s %s as uid %u: %s; %s", opt[i], path[i],
			(unsigned)geteuid(), safe_strerror(-r),
			r == -SAFE_EUNSAFELINK || r == -SAFE_EFOREIGN ?
			"choose another path" :
			"choose a directory that user can write");
		return EXIT_OUTPUT;
	}
	return 0;
}
