#!/bin/sh
# 200 mutated scenario files through fecsim check and, when accepted, a short
# run: no crash, no hang, every message located (make fuzz-mutants: 3000).
# The hang limit is generous: make check runs the tiers side by side. A
# kernel tree is extracted into the cache once, in seconds: done first, so
# the limit measures the loader, not xz.
for f in "$FECSIM_SRCDIR"/scenarios/imx6q/upstream-*.ini; do
	[ -f "$f" ] && "$FECSIM" check "$f" >/dev/null 2>&1
done
exec ./tests/fuzz/mutants --fecsim "$FECSIM" --scenarios "$FECSIM_SRCDIR/scenarios" \
	--count 200 --seed 7 --jobs 2 --timeout 20
