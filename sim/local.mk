# sim/: the fecsim command line tool and its scenario/results machinery.
noinst_LIBRARIES += sim/libsim.a
sim_libsim_a_CXXFLAGS = $(AM_CXXFLAGS) $(GLIB_CFLAGS) $(JSONGLIB_CFLAGS)
sim_libsim_a_SOURCES = \
	sim/soc.h sim/soc.cc \
	sim/khost.h sim/khost.cc sim/hooks.cc \
	sim/driver_build.h sim/driver_build.cc \
	sim/app.h sim/app.cc \
	sim/coherence.h sim/coherence.cc
EXTRA_DIST += $(wildcard $(srcdir)/sim/*.def)

SIM_LIBS = sim/libsim.a $(MODELS_LIBS) $(JSONGLIB_LIBS) $(GLIB_LIBS) -ldl

noinst_PROGRAMS += sim/demo_sync
sim_demo_sync_SOURCES = sim/demo_sync.cc
sim_demo_sync_LDADD = $(MODELS_LIBS)

.PHONY: demo
demo: sim/demo_sync
	./sim/demo_sync
