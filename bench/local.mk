# bench/: speed benchmarks (make bench); never part of make check.
BENCH_BINS += bench/bench_cache
EXTRA_PROGRAMS = bench/bench_cache
bench_bench_cache_SOURCES = bench/cache_bench.cc
bench_bench_cache_LDADD = $(MODELS_LIBS)
CLEANFILES += $(BENCH_BINS)

.PHONY: bench
bench: $(BENCH_BINS)
	@for b in $(BENCH_BINS); do ./$$b || exit 1; done
