# bench/: speed benchmarks (make bench); never part of make check.
