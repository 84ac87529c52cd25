# SPDX-License-Identifier: GPL-2.0-or-later
# exitsweep looks for exitmon (and exitprobe) in the sbin directory they
# are installed into, not only next to itself and in PATH.  The stamp holds
# the SBINDIR of the last build, so `make install PREFIX=/usr` after a
# plain `make` rebuilds with the right one.
SWEEP_SBINDIR_STAMP := $(B)/src/exitsweep/sbindir.stamp
$(shell mkdir -p $(B)/src/exitsweep && { echo '$(SBINDIR)' | cmp -s - $(SWEEP_SBINDIR_STAMP) || echo '$(SBINDIR)' > $(SWEEP_SBINDIR_STAMP); })
$(B)/src/exitsweep/sweep_proc.o: ALL_CFLAGS += -DEXITSWEEP_SBINDIR='"$(SBINDIR)"'
$(B)/src/exitsweep/sweep_proc.o: $(SWEEP_SBINDIR_STAMP)
