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
	drivers/shim/platform.c drivers/shim/irq.c drivers/shim/net.c
EXTRA_DIST += drivers/shim/include drivers/fec

# Programs that run drivers link the whole shim (the driver, loaded at run
# time, resolves its kernel symbols against them) and export their symbols.
DRIVER_LINK = -rdynamic -Wl,--whole-archive,drivers/libshim.a,--no-whole-archive
