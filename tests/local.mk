# tests/: four tiers (unit, models, system, golden), one Check runner per tier.
# Each runner uses Check's fork mode: a fresh process, hence a fresh SystemC
# kernel, per test. Per-test timeouts are set in the suites.
# FECSIM_SRCDIR: the source tree, for the tests' fixtures.
TESTS_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS) -DFECSIM_SRCDIR='"$(abs_top_srcdir)"'
TESTS_LDADD = $(KHOST_LIBS) $(MODELS_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/unit/run_unit tests/models/run_models tests/system/run_system
TESTS += tests/unit/run_unit tests/models/run_models tests/system/run_system
AM_TESTS_ENVIRONMENT = SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 CK_FORK=yes \
	FECSIM=$(abs_top_builddir)/sim/fecsim FECSIM_SRCDIR=$(abs_top_srcdir) \
	FECSIM_CACHE=$(abs_top_builddir)/tests/.driver-cache; \
	export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE CK_FORK FECSIM FECSIM_SRCDIR FECSIM_CACHE;
# make clean removes the tests' driver builds.
clean-local: clean-driver-cache
.PHONY: clean-driver-cache
clean-driver-cache:
	rm -rf tests/.driver-cache

tests_unit_run_unit_CXXFLAGS = $(TESTS_CXXFLAGS) $(GLIB_CFLAGS) $(JSONGLIB_CFLAGS)
tests_unit_run_unit_LDFLAGS = $(DRIVER_LINK)
tests_unit_run_unit_LDADD = $(SIM_LIBS) $(CHECK_LIBS)
tests_unit_run_unit_DEPENDENCIES = drivers/libshim.a sim/libsim.a drivers/libkhost.a models/libmodels.a
tests_unit_run_unit_SOURCES = tests/lib.h tests/lib.cc tests/unit/main.cc \
	tests/unit/timeline.cc tests/unit/rr_port.cc tests/unit/params.cc tests/unit/cache_array.cc \
	tests/unit/units.cc tests/unit/loader.cc tests/unit/driver_build.cc tests/unit/regress.cc tests/unit/summary.cc \
	tests/unit/tcp.cc tests/unit/qdisc.cc

tests_models_run_models_CXXFLAGS = $(TESTS_CXXFLAGS)
tests_models_run_models_LDADD = $(TESTS_LDADD)
tests_models_run_models_SOURCES = tests/lib.h tests/lib.cc tests/models/main.cc \
	tests/models/dram.cc tests/models/cache.cc
# Per-model test sources named by the model fragments (models/*/local.mk).
tests_models_run_models_SOURCES += $(ENET_TEST_SOURCES)

# System tier: the driver in the loop (linked with the shim, as fecsim is)
# and the fecsim program end to end (spawned; FECSIM above).
tests_system_run_system_CXXFLAGS = $(TESTS_CXXFLAGS) $(GLIB_CFLAGS) $(JSONGLIB_CFLAGS)
tests_system_run_system_LDFLAGS = $(DRIVER_LINK)
tests_system_run_system_LDADD = $(SIM_LIBS) $(CHECK_LIBS)
tests_system_run_system_DEPENDENCIES = drivers/libshim.a sim/libsim.a drivers/libkhost.a models/libmodels.a sim/fecsim
tests_system_run_system_SOURCES = tests/lib.h tests/lib.cc tests/system/main.cc \
	tests/system/sys.h tests/system/sys.cc tests/system/driver.cc tests/system/timing.cc \
	tests/system/coherence.cc tests/system/memcheck.cc \
	tests/system/cli.h tests/system/cli_lib.cc \
	tests/system/cli_run.cc tests/system/cli_sweep.cc tests/system/cli_help.cc tests/system/cli_fault.cc \
	tests/system/cli_trace.cc \
	tests/system/cli_regress.cc tests/system/cli_tree.cc tests/system/cli_tree_rx.cc tests/system/cli_traffic.cc \
	tests/system/cli_tree_tx.cc tests/system/profiles.cc tests/system/tcp_ping.cc \
	tests/system/smp_store.cc

# Golden tier: whole calibration scenarios against stored summaries.
check_PROGRAMS += tests/golden/run_golden
TESTS += tests/golden/run_golden
tests_golden_run_golden_CXXFLAGS = $(TESTS_CXXFLAGS) $(GLIB_CFLAGS) $(JSONGLIB_CFLAGS)
tests_golden_run_golden_LDADD = $(CHECK_LIBS) $(JSONGLIB_LIBS) $(GLIB_LIBS)
tests_golden_run_golden_DEPENDENCIES = sim/fecsim
tests_golden_run_golden_SOURCES = tests/lib.h tests/lib.cc tests/golden/golden.cc \
	tests/system/cli.h tests/system/cli_lib.cc
EXTRA_DIST += tests/golden/copybreak.ref tests/golden/update.sh tests/fixtures

.PHONY: golden-update
golden-update: sim/fecsim
	$(SHELL) $(srcdir)/tests/golden/update.sh $(srcdir) ./sim/fecsim

# make check-sanitize: the unit, models and system tiers and the 200-mutant
# smoke test again with the C++ side (models, kernel
# host, fecsim, the test runners) built with AddressSanitizer and
# UndefinedBehaviorSanitizer, and the shim with UBSan beside its
# memory-access instrumentation (ASan cannot be combined with it). A
# configured tree builds one way, so this builds a copy of the sources in
# sanitize/ of the build tree (kept: a second run rebuilds what changed).
# The golden tier is left out: a shim with UBSan's checks runs other code,
# so other simulated costs, than the calibrated one (its loss moves by
# ~0.05 points). Per-test timeouts are 4 times longer (CK_TIMEOUT_MULTIPLIER).
# Test runners set detect_leaks=0 for themselves (tests/lib.cc: Check's
# forked children exit holding the runner, and a SystemC kernel cannot be torn
# down); the fecsim processes they spawn are leak-checked. Any finding fails
# the tier (halt_on_error, no recovery).
SANITIZE_DIR = $(abs_top_builddir)/sanitize
SANITIZE_CFLAGS = -g -O2 -fsanitize=undefined -fno-sanitize-recover=undefined
SANITIZE_CXXFLAGS = -g -O2 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
# detect_stack_use_after_return=0: SystemC switches thread stacks behind the
# sanitizer's back; a fake stack per frame cannot follow it.
# intercept_tls_get_addr=0: LeakSanitizer's exit-time scan of dynamic TLS
# (the dlopened driver objects') can take a glibc block for an older layout
# and scan an invalid range, depending on where the block lands: the tracer
# then dies on SIGSEGV and the run fails with "LeakSanitizer has encountered
# a fatal error" instead of a report (google/sanitizers#1322). fecsim keeps
# no pointers in thread-local storage, so nothing is hidden by not scanning it.
SANITIZE_ENV = ASAN_OPTIONS=detect_stack_use_after_return=0:abort_on_error=0:intercept_tls_get_addr=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 CK_TIMEOUT_MULTIPLIER=4

.PHONY: check-sanitize
check-sanitize:
	@$(MKDIR_P) $(SANITIZE_DIR)/src
	@if git -C $(abs_top_srcdir) rev-parse --git-dir >/dev/null 2>&1; then \
		(cd $(abs_top_srcdir) && git ls-files -co --exclude-standard -z | \
			xargs -0 cp -pu --parents -t $(SANITIZE_DIR)/src); \
	else \
		$(MAKE) $(AM_MAKEFLAGS) distdir distdir=$(SANITIZE_DIR)/src; \
	fi
	@cd $(SANITIZE_DIR)/src && \
	if test ! -f configure || test configure.ac -nt configure; then autoreconf -fi; fi && \
	if test ! -f config.status || test configure -nt config.status; then \
		./configure -q CFLAGS="$(SANITIZE_CFLAGS)" CXXFLAGS="$(SANITIZE_CXXFLAGS)" \
			LDFLAGS="-fsanitize=address,undefined"; fi
	cd $(SANITIZE_DIR)/src && $(SANITIZE_ENV) $(MAKE) $(AM_MAKEFLAGS) check \
		TESTS="tests/unit/run_unit tests/models/run_models tests/system/run_system tests/fuzz/mutants-smoke.sh"

# make fuzz-mutants: MUTANTS mutated scenario files (default 3000) through
# fecsim check and, when accepted, a short fecsim run (tests/fuzz/mutants.cc
# says what fails a mutant). make check runs 200 of them
# (tests/fuzz/mutants-smoke.sh).
MUTANTS = 3000
MUTANTS_SEED = 1
check_PROGRAMS += tests/fuzz/mutants
TESTS += tests/fuzz/mutants-smoke.sh
EXTRA_DIST += tests/fuzz/mutants-smoke.sh
tests_fuzz_mutants_SOURCES = tests/fuzz/mutants.cc
tests_fuzz_mutants_CXXFLAGS = $(AM_CXXFLAGS)
.PHONY: fuzz-mutants
fuzz-mutants: tests/fuzz/mutants sim/fecsim
	@for f in $(abs_top_srcdir)/scenarios/imx6q/upstream-*.ini; do \
		FECSIM_CACHE=$(abs_top_builddir)/tests/.driver-cache ./sim/fecsim check $$f >/dev/null 2>&1 || true; done
	FECSIM_CACHE=$(abs_top_builddir)/tests/.driver-cache ./tests/fuzz/mutants --fecsim $(abs_top_builddir)/sim/fecsim \
		--scenarios $(abs_top_srcdir)/scenarios --count $(MUTANTS) --seed $(MUTANTS_SEED) --jobs 2 --timeout 5

# make fuzz: the scenario loader under libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer (tests/fuzz/loader.cc), seeded with a copy of
# every scenarios/ file. Not part of make check. Needs clang++ and its
# libFuzzer runtime (Debian: clang, libclang-rt-14-dev); only the loader is
# compiled with them, the parameter tables come from the libraries built as
# usual. FUZZ_TIME: seconds to run (default 60). The corpus it grows and the
# inputs that fail (crash-*, timeout-*, oom-*) stay in tests/fuzz/corpus/ and
# tests/fuzz/artifacts/ of the build tree; replay one with
# tests/fuzz/fuzz_loader FILE.
FUZZ_CXX = clang++
FUZZ_TIME = 60
FUZZ_FLAGS = -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_RUN_FLAGS = -max_len=8192 -timeout=10 -rss_limit_mb=2048
FUZZ_LOADER_SRC = tests/fuzz/loader.cc sim/config/scenario.cc sim/config/scenario_read.cc \
	sim/config/scenario_resolve.cc sim/config/scenario_dump.cc sim/config/scenario_text.cc \
	sim/config/did_you_mean.cc sim/config/registry.cc sim/config/units.cc
EXTRA_DIST += tests/fuzz/loader.cc tests/fuzz/loader.dict
CLEANFILES += tests/fuzz/fuzz_loader tests/fuzz/libkhost.a tests/fuzz/libshim.a

# The kernel host defines __sanitizer_cov_trace_pc (it counts the shim's and
# the driver's instructions) as libFuzzer does: the fuzz target links copies
# of the kernel host and the shim in which theirs has another name.
tests/fuzz/fuzz_loader: $(FUZZ_LOADER_SRC:%=$(srcdir)/%) sim/builtin_scenarios.h models/libmodels.a \
		drivers/libkhost.a drivers/libshim.a
	@command -v $(FUZZ_CXX) >/dev/null || { \
		echo "make fuzz needs $(FUZZ_CXX) with libFuzzer (Debian: apt-get install clang libclang-rt-14-dev)" >&2; \
		exit 1; }
	$(AM_V_GEN)$(MKDIR_P) tests/fuzz && \
	objcopy --redefine-sym __sanitizer_cov_trace_pc=fecsim_cov_trace_pc drivers/libkhost.a tests/fuzz/libkhost.a && \
	objcopy --redefine-sym __sanitizer_cov_trace_pc=fecsim_cov_trace_pc drivers/libshim.a tests/fuzz/libshim.a && \
	$(FUZZ_CXX) $(FUZZ_FLAGS) $(AM_CPPFLAGS) -I. $(SYSTEMC_CFLAGS) $(GLIB_CFLAGS) \
		$(FUZZ_LOADER_SRC:%=$(srcdir)/%) -o $@ \
		-Wl,--start-group tests/fuzz/libkhost.a tests/fuzz/libshim.a models/libmodels.a -Wl,--end-group \
		$(SYSTEMC_LIBS) $(PCAP_LIBS) $(GLIB_LIBS) -ldl

.PHONY: fuzz
fuzz: tests/fuzz/fuzz_loader
	@$(MKDIR_P) tests/fuzz/corpus tests/fuzz/artifacts
	@cd $(abs_top_srcdir)/scenarios && for f in `find . -name '*.ini'`; do \
		cp $$f $(abs_top_builddir)/tests/fuzz/corpus/seed-`echo $$f | cut -c3- | tr / -`; done
	cd tests/fuzz && ./fuzz_loader -max_total_time=$(FUZZ_TIME) -dict=$(abs_top_srcdir)/tests/fuzz/loader.dict \
		-artifact_prefix=artifacts/ $(FUZZ_RUN_FLAGS) corpus
