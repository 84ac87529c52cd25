# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzing and sanitizer builds.  Included from the main Makefile (its
# test fragments, before tests/tiers.mk: check-build names SANITIZE_BINS
# and FUZZ_SMOKE_BINS, defined here).
#
#   fuzz        libFuzzer + ASan + UBSan on the parser and the formats for
#               FUZZ_SECONDS (60); new inputs go to tests/fuzz/corpus-work/,
#               crashes to build-san/fuzz/crashes/ (copy them to
#               tests/fuzz/regress/ once fixed)
#   fuzz-recread  libFuzzer on exitstat's input side (stat_input.c, linein.c,
#               recread*.c, capture.c) for FUZZ_SECONDS, seeds in
#               tests/fuzz/corpus-recread/ (hostile ones from
#               mkseeds_recread.py: `make fuzz-seeds-recread`)
#   fuzz-walk   libFuzzer, differential: the hot path's attribute walk
#               against nla_parse with the policy (tests/fuzz/fuzz_walk.c)
#               for FUZZ_SECONDS, seeds in tests/fuzz/corpus/
#   fuzz-smoke  the same for FUZZ_SMOKE_SECONDS (30) from the seeds only,
#               in a fresh work directory: a bounded pass for `make check`
#   sanitize    the unit tests built with clang -fsanitize=address,undefined
#               in build-san/ and run; then tests/fuzz/regress/ and the seed
#               corpus replayed through the fuzz target under the same
#               sanitizers (no libFuzzer needed for that)
#   fuzz-seeds  regenerate tests/fuzz/corpus/ from tests/fuzz/mkseeds.c
#   bench-format  ns per record for parsing and formatting (tests/bench/)
#
# Uses LIB_SRCS, UNIT_SRCS, TEST_INC, ALL_CFLAGS, LIBS, CMOCKA_LIBS and Q
# from the main Makefile.

FUZZ_CC            ?= clang
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 30
SAN_B              := build-san
# The library's headers, for the test sources compiled here (the sanitizer
# build's objects take TEST_INC, which has them too).
FUZZ_INC           := -Isrc/common
# Without pointer-overflow: on the writers generated from the column table
# (format_csv.c, format_json.c, format_text.c: a few hundred pointer steps
# per instantiation) it takes clang
# minutes and gigabytes instead of seconds; their bound is static
# (LINE_BOUND) and ASan still catches any write past a line.
SAN_FLAGS          := -fsanitize=address,undefined -fno-sanitize=pointer-overflow \
                      -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
FUZZ_FLAGS         := -fsanitize=fuzzer,address,undefined \
                      -fno-sanitize=pointer-overflow \
                      -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
# The formats: the entry points (format.c) and each wire format's writers.
FORMAT_SRCS        := $(wildcard src/common/format*.c)
# What the fuzz target exercises: only the parser (with its netlink
# walk) and the formats, so it links libnl but not libcap.
FUZZ_LIB_SRCS      := src/common/record.c src/common/tsnl.c $(FORMAT_SRCS) \
                      src/common/json_out.c
FUZZ_LIBS          := $(shell $(PKG_CONFIG) --libs libnl-3.0 libnl-genl-3.0 2>/dev/null)
FUZZ_RUN_FLAGS     := -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
                      -print_final_stats=1
FUZZ_ENV           := UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

SAN_LIB_OBJS  := $(LIB_SRCS:%.c=$(SAN_B)/%.o)
SAN_UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(SAN_B)/tests/%)
# Keep the test objects between runs (they are intermediate to make).
.SECONDARY: $(UNIT_SRCS:%.c=$(SAN_B)/%.o)

.PHONY: fuzz fuzz-recread fuzz-walk fuzz-smoke fuzz-smoke-record fuzz-smoke-recread fuzz-smoke-walk sanitize fuzz-seeds fuzz-seeds-recread bench-format

# The readers' target: exitstat's input side (stat_input.c over linein.c,
# recread*.c, capture.c and the netlink walk) and the writers it
# round-trips through.
RECREAD_FUZZ_SRCS  := $(wildcard src/common/recread*.c) \
                      $(FORMAT_SRCS) src/common/record.c \
                      src/common/tsnl.c src/common/json_out.c src/common/linein.c \
                      src/common/capture.c src/common/safe.c src/common/log.c \
                      src/exitstat/stat_input.c
RECREAD_FUZZ_FLAGS := -Isrc/exitstat
RECREAD_FUZZ_LIBS  := $(FUZZ_LIBS) -lz -pthread
RECREAD_SMOKE_SECONDS ?= 10

$(SAN_B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC-SAN  $<")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(TEST_INC) $(SAN_FLAGS) -MMD -MP -c $< -o $@

$(SAN_B)/libexitmon.a: $(SAN_LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(SAN_B)/tests/%: $(SAN_B)/tests/unit/%.o $(SAN_B)/libexitmon.a
	@$(if $(Q),echo "  LD-SAN  $@")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ \
	  $(CMOCKA_LIBS) $(LIBS)

# libFuzzer instruments everything it links; the sources are compiled here,
# not taken from build-san/, because -fsanitize=fuzzer changes the code.
# The formats are compiled once per flavour (they were compiled once per
# target, five times, before), and the two writers that expand the column
# table into the most code (CSV and JSON lines: every column, three
# instances each) without debug information, which takes clang about a
# third less time and half the memory for them.
FORMAT_HEAVY       := src/common/format_csv.c src/common/format_json.c
FUZZ_LIB_NOFMT     := $(filter-out $(FORMAT_SRCS),$(FUZZ_LIB_SRCS))
RECREAD_FUZZ_NOFMT := $(filter-out $(FORMAT_SRCS),$(RECREAD_FUZZ_SRCS))
FORMAT_SAN_OBJ     := $(FORMAT_SRCS:%.c=$(SAN_B)/%.o)
FORMAT_FUZZ_OBJ    := $(FORMAT_SRCS:%.c=$(SAN_B)/fz/%.o)
$(FORMAT_HEAVY:%.c=$(SAN_B)/%.o): SAN_FLAGS += -g0
$(FORMAT_HEAVY:%.c=$(SAN_B)/fz/%.o): FORMAT_FUZZ_G := -g0
$(FORMAT_FUZZ_OBJ): $(SAN_B)/fz/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC-FUZZ $<")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) $(FORMAT_FUZZ_G) -MMD -MP -c $< -o $@
-include $(FORMAT_FUZZ_OBJ:.o=.d)

$(SAN_B)/fuzz/fuzz_record: tests/fuzz/fuzz_record.c $(FUZZ_LIB_NOFMT) $(FORMAT_FUZZ_OBJ) \
		include/record.h include/format.h src/common/tsabi.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ-LD $@")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_INC) $(FUZZ_FLAGS) -o $@ \
	  tests/fuzz/fuzz_record.c $(FUZZ_LIB_NOFMT) $(FORMAT_FUZZ_OBJ) $(FUZZ_LIBS)

$(SAN_B)/fuzz/replay: tests/fuzz/replay.c tests/fuzz/fuzz_record.c \
		$(FUZZ_LIB_NOFMT) $(FORMAT_SAN_OBJ) include/record.h include/format.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD-SAN  $@")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_INC) $(SAN_FLAGS) -o $@ tests/fuzz/replay.c \
	  tests/fuzz/fuzz_record.c $(FUZZ_LIB_NOFMT) $(FORMAT_SAN_OBJ) $(FUZZ_LIBS)

RECREAD_FUZZ_HDRS  := include/recread.h src/common/recread_cols.h \
                      include/format.h src/common/columns.h \
                      include/linein.h include/capture.h src/exitstat/stat_input.h

$(SAN_B)/fuzz/fuzz_recread: tests/fuzz/fuzz_recread.c $(RECREAD_FUZZ_NOFMT) $(FORMAT_FUZZ_OBJ) \
		$(RECREAD_FUZZ_HDRS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ-LD $@")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_INC) $(RECREAD_FUZZ_FLAGS) $(FUZZ_FLAGS) -o $@ \
	  tests/fuzz/fuzz_recread.c $(RECREAD_FUZZ_NOFMT) $(FORMAT_FUZZ_OBJ) $(RECREAD_FUZZ_LIBS)

$(SAN_B)/fuzz/replay_recread: tests/fuzz/replay.c tests/fuzz/fuzz_recread.c \
		$(RECREAD_FUZZ_NOFMT) $(FORMAT_SAN_OBJ) $(RECREAD_FUZZ_HDRS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD-SAN  $@")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_INC) $(RECREAD_FUZZ_FLAGS) $(SAN_FLAGS) -o $@ tests/fuzz/replay.c \
	  tests/fuzz/fuzz_recread.c $(RECREAD_FUZZ_NOFMT) $(FORMAT_SAN_OBJ) $(RECREAD_FUZZ_LIBS)

# The walk's differential target: the parser and libnl, nothing else.
WALK_FUZZ_SRCS     := src/common/record.c src/common/tsnl.c
WALK_SMOKE_SECONDS ?= 10

$(SAN_B)/fuzz/fuzz_walk: tests/fuzz/fuzz_walk.c $(WALK_FUZZ_SRCS) \
		include/record.h src/common/tsabi.h include/tsnl.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ-LD $@")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_INC) $(FUZZ_FLAGS) -o $@ \
	  tests/fuzz/fuzz_walk.c $(WALK_FUZZ_SRCS) $(FUZZ_LIBS)

$(SAN_B)/fuzz/replay_walk: tests/fuzz/replay.c tests/fuzz/fuzz_walk.c \
		$(WALK_FUZZ_SRCS) include/record.h src/common/tsabi.h include/tsnl.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD-SAN  $@")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_INC) $(SAN_FLAGS) -o $@ tests/fuzz/replay.c \
	  tests/fuzz/fuzz_walk.c $(WALK_FUZZ_SRCS) $(FUZZ_LIBS)

fuzz-walk: $(SAN_B)/fuzz/fuzz_walk
	$(Q)mkdir -p tests/fuzz/corpus-walk-work $(SAN_B)/fuzz/crashes
	$(Q)$(FUZZ_ENV) $< $(FUZZ_RUN_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	  -artifact_prefix=$(SAN_B)/fuzz/crashes/ \
	  tests/fuzz/corpus-walk-work tests/fuzz/corpus tests/fuzz/regress

fuzz-recread: $(SAN_B)/fuzz/fuzz_recread
	$(Q)mkdir -p tests/fuzz/corpus-recread-work $(SAN_B)/fuzz/crashes
	$(Q)$(FUZZ_ENV) $< $(FUZZ_RUN_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	  -artifact_prefix=$(SAN_B)/fuzz/crashes/ \
	  tests/fuzz/corpus-recread-work tests/fuzz/corpus-recread

fuzz: $(SAN_B)/fuzz/fuzz_record
	$(Q)mkdir -p tests/fuzz/corpus-work $(SAN_B)/fuzz/crashes
	$(Q)$(FUZZ_ENV) $< $(FUZZ_RUN_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	  -artifact_prefix=$(SAN_B)/fuzz/crashes/ \
	  tests/fuzz/corpus-work tests/fuzz/corpus tests/fuzz/regress

FUZZ_SMOKE_BINS := $(SAN_B)/fuzz/fuzz_record $(SAN_B)/fuzz/fuzz_recread $(SAN_B)/fuzz/fuzz_walk

# fuzz_smoke NAME,TARGET,SECONDS,SEEDS,LABEL: one target from its seeds
# for SECONDS in a fresh work directory, its log in smoke-NAME.log.
define fuzz_smoke
	$(Q)rm -rf $(SAN_B)/fuzz/smoke-$(1)
	$(Q)mkdir -p $(SAN_B)/fuzz/smoke-$(1) $(SAN_B)/fuzz/crashes
	$(Q)$(FUZZ_ENV) $(SAN_B)/fuzz/$(2) $(FUZZ_RUN_FLAGS) -max_total_time=$(3) \
	  -artifact_prefix=$(SAN_B)/fuzz/crashes/ $(SAN_B)/fuzz/smoke-$(1) $(4) \
	  2>$(SAN_B)/fuzz/smoke-$(1).log || { tail -n 60 $(SAN_B)/fuzz/smoke-$(1).log; exit 1; }
	$(Q)grep -E '^(stat::number_of_executed_units|Done)' \
	  $(SAN_B)/fuzz/smoke-$(1).log | sed 's/^/$(5): /'
endef

# The three are independent: `make -j` runs them side by side.
fuzz-smoke: fuzz-smoke-record fuzz-smoke-recread fuzz-smoke-walk
fuzz-smoke-record: $(SAN_B)/fuzz/fuzz_record
	$(call fuzz_smoke,record,fuzz_record,$(FUZZ_SMOKE_SECONDS),tests/fuzz/corpus tests/fuzz/regress,fuzz-smoke)
fuzz-smoke-recread: $(SAN_B)/fuzz/fuzz_recread
	$(call fuzz_smoke,recread,fuzz_recread,$(RECREAD_SMOKE_SECONDS),tests/fuzz/corpus-recread,fuzz-smoke (readers))
fuzz-smoke-walk: $(SAN_B)/fuzz/fuzz_walk
	$(call fuzz_smoke,walk,fuzz_walk,$(WALK_SMOKE_SECONDS),tests/fuzz/corpus tests/fuzz/regress,fuzz-smoke (walk vs nla_parse))

# exitmon itself under the sanitizers, replaying a real capture (to files:
# output to /dev/null is not formatted).
$(SAN_B)/exitmon: $(SAN_B)/src/exitmon/exitmon_main.o $(SAN_B)/libexitmon.a
	@$(if $(Q),echo "  LD-SAN  $@")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

SANITIZE_BINS := $(SAN_UNIT_BINS) $(SAN_B)/fuzz/replay $(SAN_B)/fuzz/replay_recread \
		$(SAN_B)/fuzz/replay_walk $(SAN_B)/exitmon
sanitize: $(SANITIZE_BINS)
	$(Q)set -e; for t in $(SAN_UNIT_BINS); do echo "== $$t"; \
	  $(FUZZ_ENV) $$t; done
	$(Q)$(FUZZ_ENV) $(SAN_B)/fuzz/replay tests/fuzz/regress tests/fuzz/corpus
	$(Q)$(FUZZ_ENV) $(SAN_B)/fuzz/replay_recread tests/fuzz/corpus-recread
	$(Q)$(FUZZ_ENV) $(SAN_B)/fuzz/replay_walk tests/fuzz/regress tests/fuzz/corpus
	$(Q)set -e; for f in text csv jsonl; do echo "== exitmon --replay -f $$f (ASan, UBSan)"; \
	  $(FUZZ_ENV) $(SAN_B)/exitmon --replay tests/data/real-v16.pcap -f $$f \
	    --summary $(SAN_B)/replay.sum > $(SAN_B)/replay.$$f; done

$(SAN_B)/fuzz/mkseeds: tests/fuzz/mkseeds.c tests/unit/tsbuild.h include/record.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(FUZZ_INC) -o $@ $<

fuzz-seeds: $(SAN_B)/fuzz/mkseeds
	$(Q)$< tests/fuzz/corpus

fuzz-seeds-recread:
	$(Q)python3 tests/fuzz/mkseeds_recread.py tests/fuzz/corpus-recread

$(SAN_B)/bench/bench_format: tests/bench/bench_format.c $(FUZZ_LIB_SRCS) \
		tests/unit/tsbuild.h include/record.h include/format.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(FUZZ_INC) -o $@ tests/bench/bench_format.c $(FUZZ_LIB_SRCS) \
	  $(FUZZ_LIBS)

bench-format: $(SAN_B)/bench/bench_format
	$(Q)$<

-include $(shell find $(SAN_B) -name '*.d' 2>/dev/null)
