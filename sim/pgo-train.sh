#!/bin/sh
# sim/pgo-train.sh PROGRAM SRCDIR WORKDIR: the training runs of a
# profile-guided build (make pgo, docs/design.md section 9). PROGRAM is the
# instrumented sim/fecsim, which writes its profile when each run exits;
# SRCDIR the source tree (the data directory the runs read); WORKDIR takes
# the runs' results and training.log. The runs cover the paths whose speed
# the benchmarks measure: the own driver idle (the frame path), under the
# detailed and the aggregate memory hog, and at 1 Gbit/s line rate. Code
# they do not reach is compiled as in a plain build
# (-fprofile-partial-training). Exit status: 0, or 1 naming the run that
# failed (its output is in training.log).
set -u
prog=$1
src=$2
work=$3
mkdir -p "$work/runs" || exit 1
log="$work/training.log"
: >"$log"
n=0
run()
{
    n=$((n + 1))
    echo "== $*" >>"$log"
    if ! FECSIM_DATADIR="$src" "$prog" run "$@" -q --run-dir="$work/runs/$n" >>"$log" 2>&1; then
        echo "pgo-train.sh: training run failed: fecsim run $* (see $log)" >&2
        exit 1
    fi
}
run "$src/scenarios/imx6q/copybreak-stock-idle.ini" -o scenario.duration=300ms
run "$src/scenarios/imx6q/copybreak-patched-stress.ini" -o scenario.duration=50ms
run "$src/scenarios/imx6q/copybreak-stock-stress.ini" -o scenario.duration=50ms -o stress.model=aggregate
run "$src/bench/gbit-64b.ini" -o scenario.duration=100ms
rm -rf "$work/runs"
echo "pgo-train.sh: $n training runs" >>"$log"
