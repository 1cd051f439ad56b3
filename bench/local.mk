# bench/: speed benchmarks (make bench) and the callgrind profile (make
# profile); never part of make check. Both run bench/run.sh (see its header
# for the benchmarks, BENCH_RUNS, BENCH_ONLY, BENCH_SHORT, BENCH_CALLGRIND);
# they write the generated sections of bench/results.md and leave run outputs
# in bench/out/ and bench/callgrind.out.fecsim (git-ignored).
# BASELINE=<git rev> (make bench BASELINE=4ecb5e0): also build that revision
# in a git worktree under bench/out/baseline-<sha>/ and measure it side by
# side with this build.
# Built with everything else (so it keeps compiling against the models); run only by make bench.
BENCH_BINS += bench/bench_cache
noinst_PROGRAMS += bench/bench_cache
bench_bench_cache_SOURCES = bench/cache_bench.cc
bench_bench_cache_LDADD = $(KHOST_LIBS) $(MODELS_LIBS)
# The memory models alone: per-frame DMA maintenance of the stock vs the
# partial-sync driver, idle and under stress -m (make demo, in sim/local.mk).
noinst_PROGRAMS += bench/demo_sync
bench_demo_sync_SOURCES = bench/demo_sync.cc
bench_demo_sync_LDADD = $(KHOST_LIBS) $(MODELS_LIBS)
CLEANFILES += $(BENCH_BINS)
EXTRA_DIST += bench/run.sh bench/callgrind-sum.awk bench/gbit-64b.ini bench/results.md bench/calibration-tables.sh bench/upstream-rx-table.sh

.PHONY: bench profile
bench: $(BENCH_BINS) sim/fecsim
	BASELINE='$(BASELINE)' $(SHELL) $(top_srcdir)/bench/run.sh bench

profile: sim/fecsim
	BASELINE='$(BASELINE)' $(SHELL) $(top_srcdir)/bench/run.sh profile

clean-local: clean-bench
.PHONY: clean-bench
# The baselines' worktrees are unregistered from the repository first (a
# leftover registration is harmless: run.sh adds the worktree again with -f).
clean-bench:
	for w in bench/out/baseline-*/src; do \
	  if test -e "$$w/.git"; then git -C "$(top_srcdir)" worktree remove --force "$$(cd "$$w" && pwd)" || true; fi; \
	done
	rm -rf bench/out bench/callgrind.out.fecsim
