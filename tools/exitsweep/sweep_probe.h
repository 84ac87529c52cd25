/* exitprobe around each overhead run: what taskstats_exit() cost inside
 * the kernel, and what the exits met (tgid accumulator, listeners).  The
 * summary keys are exitprobe's contract, include/probe_summary.h. */
#ifndef EXITSWEEP_PROBE_H
#define EXITSWEEP_PROBE_H

#include "kvfile.h"
#include "sweep.h"

/* "auto", "fentry", "sample", "off".  0 or -EINVAL. */
int sweep_probe_parse_mode(const char *s, enum sweep_probe *mode);
/* exitprobe's --method value for a mode ("auto" for PROBE_AUTO). */
const char *sweep_probe_method_arg(enum sweep_probe mode);
/* A run's probe summary into v[M_TS_NS_PER_EXIT], v[M_TGID_ON_SHARE],
 * v[M_LISTENER_SHARE] and v[M_FOREIGN_EXITS].  0, or -EBADMSG when it
 * has no exit count (the shares would mean nothing). */
int sweep_probe_apply(const struct kvmap *kv, double *v);
/* "sample, period 100 us" from a summary, for the report's header. */
void sweep_probe_describe(const struct kvmap *kv, char *buf, size_t len);

#endif
