// SPDX-License-Identifier: GPL-2.0-or-later
/* The collector's files: the pid file, the capture, the output, checked
 * and opened as the user that will write them; removed again when start-up
 * fails. */
#include "mon_sinks.h"

#include <errno.h>

#include "capture.h"
#include "log.h"
#include "paths.h"
#include "safe.h"
#include "shard.h"

static int open_pidfile(struct mon *m)
{
	long holder;
	int r = pidfile_lock(&m->pidfile, m->cfg->pidfile, &holder);

	if (r == -EAGAIN && holder)
		log_warn("another exitmon (pid %ld) holds the pid file %s: stop "
			"it first, or give this one its own --pidfile",
			holder, m->cfg->pidfile);
	else if (r == -EAGAIN)
		log_warn("another exitmon holds the pid file %s: stop it first, "
			"or give this one its own --pidfile", m->cfg->pidfile);
	else if (r < 0)
		log_warn("cannot open pid file %s: %s", m->cfg->pidfile,
			safe_strerror(-r));
	return r == -EAGAIN ? EXIT_RUNTIME : r < 0 ? EXIT_OUTPUT : 0;
}

/* Every file, opened as the user that will write it, before registering;
 * the checks run again once the files exist, so two spellings of one new
 * file are caught too. */
int mon_sinks_open(struct mon *m)
{
	const struct mon_config *cfg = m->cfg;
	const char *older;
	unsigned i;
	int r;

	if ((r = paths_distinct(cfg)) || (r = paths_check_replaced(cfg)))
		return r;
	if (cfg->pidfile && (r = open_pidfile(m)))
		return r;
	if (cfg->capture && (r = capture_open(cfg->capture, &m->cap)) < 0) {
		log_warn("cannot open capture file %s: %s", cfg->capture,
			r == -EINVAL ? "it exists and is not a netlink pcap "
			"capture; choose a new file" : safe_strerror(-r));
		return EXIT_OUTPUT;
	}
	for (i = 0; i < m->n_opened; i++)	/* opened after the shards */
		if (shard_capture_to(&m->shards[i], m->cap) < 0) {
			log_warn("out of memory");
			return EXIT_RUNTIME;
		}
	if ((r = paths_distinct(cfg)))
		return r;
	m->out_open = true;	/* set up even when the open fails */
	if ((r = output_open(&m->out, cfg->output, cfg->fmt, cfg->cols)) < 0) {
		log_warn("cannot open output %s: %s%s", cfg->output ? cfg->output :
			"(stdout)", output_strerror(-r), r == -OUTPUT_EOTHERCOLS ?
			"" : "; choose a writable file with -o");
		return EXIT_OUTPUT;
	}
	if ((older = output_older_say(&m->out)))
		log_warn("%s %s", cfg->output, older);
	if (m->out.cut_bytes)
		log_warn("%s ended in a line cut short (%llu bytes, an earlier "
			"run stopped mid-write): ended it as a damaged line, "
			"which readers count and pass over, and appending after "
			"it", cfg->output, (unsigned long long)m->out.cut_bytes);
	return paths_distinct(cfg);
}

/* A start that failed leaves no file it created behind. */
void mon_sinks_remove_created(struct mon *m)
{
	dev_t dev;
	ino_t ino;

	if (m->out_open && m->out.created)
		safe_unlink_same(m->cfg->output, m->out.dev, m->out.ino);
	if (m->cap && capture_identity(m->cap, &dev, &ino))
		safe_unlink_same(m->cfg->capture, dev, ino);
}
