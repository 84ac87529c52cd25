#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The system call sandbox of a systemd unit, without systemd.

  unit_sandbox.py allowed UNIT          print the allowed system calls
  unit_sandbox.py exec UNIT CMD [ARG]   run CMD under the unit's filter

The allow list is derived from the unit's own SystemCallFilter= lines the
way systemd reads them: the first line decides whether the list is an allow
list (no "~") or a deny list; then each line in order adds its calls to the
allow list, or ("~") removes them; @groups are expanded by
`systemd-analyze syscall-filter`.  Everything else fails with the unit's
SystemCallErrorNumber= (EPERM by default).  RestrictAddressFamilies= is
applied to socket(2) too.  The filter is loaded through libseccomp (the
library systemd itself uses) with ctypes, so no build step is needed; the
caller sets the unit's users, capabilities and no-new-privs (setpriv)."""

import ctypes
import errno
import os
import socket
import subprocess
import sys

_groups = {}


def expand(name):
    """The system calls a SystemCallFilter= name stands for."""
    if not name.startswith("@"):
        return {name}
    if name not in _groups:
        out = subprocess.run(["systemd-analyze", "syscall-filter", name],
                             check=True, capture_output=True, text=True).stdout
        calls = set()
        for line in out.splitlines()[1:]:
            line = line.strip()
            if line and not line.startswith("#"):
                calls |= expand(line)
        _groups[name] = calls
    return _groups[name]


def settings(unit, key):
    """Every value of key= in the unit, continuation lines joined."""
    text = open(unit).read().replace("\\\n", " ")
    vals = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(key + "="):
            vals.append(line[len(key) + 1:].strip())
    return vals


def allowed(unit):
    allow, first = set(), True
    for v in settings(unit, "SystemCallFilter"):
        deny = v.startswith("~")
        names = set()
        for n in v.lstrip("~").split():
            names |= expand(n)
        if first and deny:
            sys.exit("unit_sandbox: a deny-list-only filter is not handled")
        first = False
        allow = allow - names if deny else allow | names
    return allow


SCMP_ACT_ALLOW = 0x7fff0000
SCMP_CMP_EQ = 4


def scmp_errno(e):
    return 0x00050000 | (e & 0xffff)


class ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


def load_filter(unit):
    lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [
        ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
        ctypes.POINTER(ArgCmp)]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    err = settings(unit, "SystemCallErrorNumber") or ["EPERM"]
    ctx = lib.seccomp_init(scmp_errno(getattr(errno, err[-1])))
    families = " ".join(settings(unit, "RestrictAddressFamilies")).split()
    calls = allowed(unit)
    if families:
        calls.discard("socket")
        nr = lib.seccomp_syscall_resolve_name(b"socket")
        for fam in families:
            cmp = ArgCmp(0, SCMP_CMP_EQ, getattr(socket, fam), 0)
            if lib.seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, 1,
                                          ctypes.byref(cmp)) < 0:
                sys.exit("unit_sandbox: cannot add the socket rule")
    for c in sorted(calls):
        nr = lib.seccomp_syscall_resolve_name(c.encode())
        if nr < 0:          # not a call of this architecture
            continue
        if lib.seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, 0, None) < 0:
            sys.exit("unit_sandbox: cannot allow " + c)
    if lib.seccomp_load(ctx) < 0:
        sys.exit("unit_sandbox: cannot load the filter (no-new-privs?)")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "allowed":
        print("\n".join(sorted(allowed(sys.argv[2]))))
    elif len(sys.argv) >= 4 and sys.argv[1] == "exec":
        load_filter(sys.argv[2])
        os.execv(sys.argv[3], sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
