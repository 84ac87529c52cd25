# SPDX-License-Identifier: GPL-2.0-or-later
# exitprobe's BPF side: bpf/exitprobe.bpf.c (a folder of its own, so the
# program rule's *.c does not take it for host code) compiled for the BPF target (CO-RE,
# minimal type definitions in probe_core.h: no kernel headers needed), then
# turned into a skeleton header that probe_bpf.c includes.  Both generated
# files live under build/.
BPF_CLANG      ?= clang
BPFTOOL        ?= bpftool
EXITPROBE_GEN  := $(B)/src/exitprobe
EXITPROBE_BPFO := $(EXITPROBE_GEN)/exitprobe.bpf.o
EXITPROBE_SKEL := $(EXITPROBE_GEN)/exitprobe.skel.h
BPF_CFLAGS     := -target bpf -O2 -g -Wall -D__TARGET_ARCH_x86 \
                  -Isrc/exitprobe/bpf -Isrc/exitprobe

$(EXITPROBE_BPFO): src/exitprobe/bpf/exitprobe.bpf.c src/exitprobe/probe_abi.h \
		src/exitprobe/bpf/probe_core.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  BPF     $<")
	$(Q)$(BPF_CLANG) $(BPF_CFLAGS) -c $< -o $@

$(EXITPROBE_SKEL): $(EXITPROBE_BPFO)
	@$(if $(Q),echo "  SKEL    $@")
	$(Q)$(BPFTOOL) gen skeleton $< name exitprobe_bpf > $@.tmp && mv $@.tmp $@

# Every object of the folder (also the sanitizer build's) sees the skeleton,
# which must exist before they compile.
EXITPROBE_OBJS_ALL := $(patsubst %.c,$(B)/%.o,$(wildcard src/exitprobe/*.c)) \
                      $(patsubst %.c,build-san/%.o,$(wildcard src/exitprobe/*.c))
$(EXITPROBE_OBJS_ALL): ALL_CFLAGS += -I$(EXITPROBE_GEN)
$(EXITPROBE_OBJS_ALL): | $(EXITPROBE_SKEL)
