# models/: SystemC models, one static library linked by sim/, tests/ and bench/.
noinst_LIBRARIES += models/libmodels.a
models_libmodels_a_CXXFLAGS = $(AM_CXXFLAGS)
models_libmodels_a_SOURCES = \
	models/common/time.h models/common/time.cc \
	models/common/rng.h \
	models/common/params.h models/common/params.cc \
	models/common/stats.h \
	models/common/log.h models/common/log.cc \
	models/common/timeline.h models/common/timeline.cc \
	models/common/trace_events.h models/common/trace_events.cc \
	models/common/rr_port.h models/common/rr_port.cc \
	models/mem/mem_ext.h models/mem/mem_observer.h \
	models/mem/phys_mem.h models/mem/phys_mem.cc \
	models/mem/dram.h models/mem/dram.cc \
	models/mem/noc.h models/mem/noc.cc \
	models/cache/cache_array.h \
	models/cache/l1.h models/cache/l1.cc \
	models/cache/pl310_regs.h models/cache/pl310.h models/cache/pl310.cc \
	models/cache/hierarchy.h models/cache/hierarchy.cc \
	models/cpu/cpu_config.h models/cpu/cpu_config.cc \
	models/cpu/core.h models/cpu/core.cc \
	models/net/phy_if.h models/net/frame_format.h models/net/frame_format.cc
include models/enet/local.mk

EXTRA_DIST += $(wildcard $(srcdir)/models/*/*.def)

MODELS_LIBS = models/libmodels.a $(SYSTEMC_LIBS) $(PCAP_LIBS)
