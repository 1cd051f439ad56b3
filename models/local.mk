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
	models/net/phy_if.h models/net/frame_format.h models/net/frame_format.cc \
	models/net/tcp.h models/net/tcp.cc \
	models/net/qdisc.h models/net/qdisc.cc
include models/enet/local.mk

EXTRA_DIST += $(wildcard $(srcdir)/models/*/*.def)

MODELS_LIBS = models/libmodels.a $(SYSTEMC_LIBS) $(PCAP_LIBS)

# The models as a library for SystemC users' own virtual platforms
# (examples/tiny-vp): libmodels.a installed as $(libdir)/libfecsim.a, the
# model headers (and the .def tables they include) under $(pkgincludedir),
# included as "mem/dram.h", "cache/pl310.h", ..., and fecsim.pc for
# pkg-config.
install-exec-local:
	$(MKDIR_P) '$(DESTDIR)$(libdir)'
	$(INSTALL_DATA) models/libmodels.a '$(DESTDIR)$(libdir)/libfecsim.a'
uninstall-local:
	rm -f '$(DESTDIR)$(libdir)/libfecsim.a'

fecsimcommondir = $(pkgincludedir)/common
fecsimcommon_HEADERS = $(wildcard $(srcdir)/models/common/*.h $(srcdir)/models/common/*.def)
fecsimmemdir = $(pkgincludedir)/mem
fecsimmem_HEADERS = $(wildcard $(srcdir)/models/mem/*.h $(srcdir)/models/mem/*.def)
fecsimcachedir = $(pkgincludedir)/cache
fecsimcache_HEADERS = $(wildcard $(srcdir)/models/cache/*.h $(srcdir)/models/cache/*.def)
fecsimcpudir = $(pkgincludedir)/cpu
fecsimcpu_HEADERS = $(wildcard $(srcdir)/models/cpu/*.h $(srcdir)/models/cpu/*.def)
fecsimnetdir = $(pkgincludedir)/net
fecsimnet_HEADERS = $(wildcard $(srcdir)/models/net/*.h $(srcdir)/models/net/*.def)
fecsimenetdir = $(pkgincludedir)/enet
fecsimenet_HEADERS = $(wildcard $(srcdir)/models/enet/*.h $(srcdir)/models/enet/*.def)
fecsimtrafficdir = $(pkgincludedir)/traffic
fecsimtraffic_HEADERS = $(wildcard $(srcdir)/models/traffic/*.h $(srcdir)/models/traffic/*.def)

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = fecsim.pc
EXTRA_DIST += fecsim.pc.in
