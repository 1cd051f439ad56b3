# drivers/: the kernel-API shim runtime, compiled like kernel code: with the
# memory-access instrumentation (-fsanitize=thread, compile step only; libtsan
# is never linked) so its loads and stores are costed by the models.
noinst_LIBRARIES += drivers/libshim.a
drivers_libshim_a_CPPFLAGS = -I$(top_srcdir)/drivers/shim/include
drivers_libshim_a_CFLAGS = -std=gnu11 $(FEC_OPT) -fno-builtin -fno-common -fsanitize=thread \
	-fsanitize-coverage=trace-pc -Wall -Wno-unused-parameter
drivers_libshim_a_SOURCES = \
	drivers/shim/simhost.h drivers/shim/shim.h \
	drivers/shim/mem.c drivers/shim/lib.c drivers/shim/dma.c drivers/shim/io.c \
	drivers/shim/platform.c drivers/shim/irq.c drivers/shim/net.c drivers/shim/txq.c
EXTRA_DIST += drivers/shim/include drivers/shim/v6 drivers/fec

# Programs that run drivers link the whole shim (the driver, loaded at run
# time, resolves its kernel symbols against them) and export their symbols.
DRIVER_LINK = -rdynamic -Wl,--whole-archive,drivers/libshim.a,--no-whole-archive

# drivers/khost/: the kernel host, the C++ side of drivers/shim/simhost.h on
# the models: instrumentation hooks, DMA coherence checker, driver build and
# load, ARM DMA maintenance, boot, and the guest tasks (application, sender,
# stress -m workers), with the kernel-side parameter tables.
noinst_LIBRARIES += drivers/libkhost.a
drivers_libkhost_a_CXXFLAGS = $(AM_CXXFLAGS)
# Where the data directory is looked for (drivers/khost/data_dir.h).
drivers_libkhost_a_CPPFLAGS = $(AM_CPPFLAGS) -DFECSIM_BUILD_TREE='"$(abs_top_builddir)"' \
	-DFECSIM_SOURCE_TREE='"$(abs_top_srcdir)"' -DFECSIM_BINDIR='"$(bindir)"' -DFECSIM_PKGDATADIR='"$(pkgdatadir)"'
drivers_libkhost_a_SOURCES = \
	drivers/khost/khost.h drivers/khost/khost_config.h drivers/khost/khost.cc drivers/khost/simhost.cc drivers/khost/hooks.cc \
	drivers/khost/arm_dma.h drivers/khost/arm_dma.cc \
	drivers/khost/coherence.h drivers/khost/coherence.cc \
	drivers/khost/driver_build.h drivers/khost/driver_build.cc drivers/khost/host_dirs.h drivers/khost/host_dirs.cc \
	drivers/khost/kernel_tree.h drivers/khost/kernel_tree.cc drivers/khost/kworker.h drivers/khost/kworker.cc \
	drivers/khost/data_dir.h drivers/khost/data_dir.cc \
	drivers/khost/stress.h drivers/khost/stress.cc \
	drivers/khost/hog_task.h drivers/khost/hog_task.cc \
	drivers/khost/app.h drivers/khost/app.cc \
	drivers/khost/tx.h drivers/khost/tx.cc \
	drivers/khost/board_stack.h drivers/khost/board_stack.cc \
	drivers/khost/boot.h drivers/khost/boot.cc \
	drivers/khost/symbolize.h drivers/khost/symbolize.cc \
	drivers/khost/fault.h drivers/khost/fault.cc
EXTRA_DIST += $(wildcard $(srcdir)/drivers/khost/*.def)
KHOST_LIBS = drivers/libkhost.a
