/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: exit records made field by field, as the parser would have
 * filled them in, for the tests of what reads records.  Header only, like
 * tsbuild.h. */
#ifndef EXITMON_TEST_RECBUILD_H
#define EXITMON_TEST_RECBUILD_H

#include <stdint.h>
#include <string.h>

#include "record.h"

/* A pid record of task id with this comm and no field yet. */
static inline struct exit_record rb_pid(const char *comm, uint32_t id)
{
	struct exit_record r;

	memset(&r, 0, sizeof(r));
	r.type = REC_PID;
	r.id = id;
	r.comm_len = (uint8_t)strlen(comm);
	memcpy(r.comm, comm, r.comm_len);
	return r;
}

#endif
