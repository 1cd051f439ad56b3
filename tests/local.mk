# tests/: four tiers (unit, models, system, golden), one Check runner per tier.
# Each runner uses Check's fork mode: a fresh process, hence a fresh SystemC
# kernel, per test. Per-test timeouts are set in the suites.
TESTS_CXXFLAGS = $(AM_CXXFLAGS) $(CHECK_CFLAGS)
TESTS_LDADD = $(MODELS_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/unit/run_unit tests/models/run_models
TESTS += tests/unit/run_unit tests/models/run_models
AM_TESTS_ENVIRONMENT = SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 CK_FORK=yes; export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE CK_FORK;

tests_unit_run_unit_CXXFLAGS = $(TESTS_CXXFLAGS) $(GLIB_CFLAGS) $(JSONGLIB_CFLAGS)
tests_unit_run_unit_LDADD = $(SIM_LIBS) $(CHECK_LIBS)
tests_unit_run_unit_SOURCES = tests/lib.h tests/lib.cc tests/unit/main.cc \
	tests/unit/timeline.cc tests/unit/params.cc tests/unit/cache_array.cc \
	tests/unit/units.cc tests/unit/loader.cc

tests_models_run_models_CXXFLAGS = $(TESTS_CXXFLAGS)
tests_models_run_models_LDADD = $(TESTS_LDADD)
tests_models_run_models_SOURCES = tests/lib.h tests/lib.cc tests/models/main.cc \
	tests/models/dram.cc tests/models/cache.cc
