/* SPDX-License-Identifier: GPL-2.0-or-later */
/* systemd's readiness protocol (Type=notify), without libsystemd: one
 * datagram to $NOTIFY_SOCKET.  A no-op when not started by systemd. */
#ifndef EXITMON_NOTIFY_H
#define EXITMON_NOTIFY_H

/* Send `state` (e.g. "READY=1"); 0, or -errno; 0 when no socket is set. */
int notify_systemd(const char *state);

#endif
