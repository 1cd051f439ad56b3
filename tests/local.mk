# tests/: four tiers (unit, models, system, golden), one Check runner per tier.
# Each runner uses Check's fork mode: a fresh process, hence a fresh SystemC
# kernel, per test. Per-test timeouts are set in the suites.
TESTS_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
TESTS_LDADD = $(KHOST_LIBS) $(MODELS_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/unit/run_unit tests/models/run_models tests/system/run_system
TESTS += tests/unit/run_unit tests/models/run_models tests/system/run_system
AM_TESTS_ENVIRONMENT = SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 CK_FORK=yes \
	FECSIM=$(abs_top_builddir)/sim/fecsim FECSIM_SRCDIR=$(abs_top_srcdir) \
	FECSIM_CACHE=$(abs_top_builddir)/tests/.driver-cache; \
	export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE CK_FORK FECSIM FECSIM_SRCDIR FECSIM_CACHE;

tests_unit_run_unit_CXXFLAGS = $(TESTS_CXXFLAGS) $(GLIB_CFLAGS) $(JSONGLIB_CFLAGS)
tests_unit_run_unit_LDFLAGS = $(DRIVER_LINK)
tests_unit_run_unit_LDADD = $(SIM_LIBS) $(CHECK_LIBS)
tests_unit_run_unit_DEPENDENCIES = drivers/libshim.a sim/libsim.a drivers/libkhost.a models/libmodels.a
tests_unit_run_unit_SOURCES = tests/lib.h tests/lib.cc tests/unit/main.cc \
	tests/unit/timeline.cc tests/unit/rr_port.cc tests/unit/params.cc tests/unit/cache_array.cc \
	tests/unit/units.cc tests/unit/loader.cc tests/unit/driver_build.cc tests/unit/regress.cc

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
	tests/system/coherence.cc \
	tests/system/cli.h tests/system/cli_lib.cc \
	tests/system/cli_run.cc tests/system/cli_sweep.cc tests/system/cli_help.cc \
	tests/system/cli_regress.cc

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
