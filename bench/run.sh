#!/bin/sh
# bench/run.sh: fecsim speed benchmarks (`make bench`) and the callgrind
# profile (`make profile`). Never part of `make check`; never changes the
# simulator or its inputs: it only runs sim/fecsim and bench/bench_cache
# (and, with BASELINE, builds another revision beside them).
#
# Usage (from the build directory, where sim/fecsim is):
#   bench/run.sh bench      benchmarks (a)-(f) below, N runs each
#   bench/run.sh profile    callgrind of a short run of (a), top 15 functions
#                           (with BASELINE: also the instruction counts of
#                           both builds side by side, as BENCH_CALLGRIND=1)
#
# Environment:
#   BENCH_RUNS=N      runs per benchmark (default 3); figures are the median,
#                     min and max of the N runs (median of an even N: mean of
#                     the two middle values)
#   BENCH_ONLY="a b"  run only these benchmarks (default "a a2 a3 b c d e f";
#                     a2 is (a'), a3 (a''); e needs the linux-source-6.12 tarball and is
#                     skipped without it)
#   BENCH_SHORT=1     quick runs: (a), (a') and (a'') 1 s instead of the scenario's
#                     10 s, (b) and (e) 200 ms (the tables say so); for trying
#                     the plumbing, not for figures to keep
#   BENCH_CALLGRIND=1 also the instruction counts of (a) and of (e)'s tree
#                     driver under callgrind, 50 ms each (below)
#   BASELINE=REV      measure side by side with git revision REV (make bench
#                     BASELINE=REV): REV is checked out in a git worktree at
#                     bench/out/baseline-SHORT/src and built out of tree in
#                     bench/out/baseline-SHORT/build with the current build's
#                     configure options, profile-guided (make pgo) when REV
#                     has that target, as ./bootstrap builds (kept and reused
#                     while it is the same commit; make clean-bench removes
#                     both; the results give both programs' --version, which
#                     says "profile-guided build"), its driver builds
#                     in bench/out/baseline-SHORT/cache (its own FECSIM_CACHE).
#                     Each benchmark then runs both builds in turn, baseline
#                     first (A B A B ...), each on its own tree's scenario
#                     files, and every figure is given as the baseline's
#                     median, the current median and current / baseline: the
#                     median (min-max) of the ratios of the N pairs, so that
#                     load drifting over the run cancels out. Also reported:
#                     whether the two builds' stats.json are the same bytes
#                     (they must be for an exact optimisation).
#   FECSIM=PATH       the fecsim binary (default ./sim/fecsim)
#
# Benchmarks (targets printed next to each figure; PASS/MISS on the current
# median):
#   (a) scenarios/imx6q/copybreak-stock-idle.ini as is (10 s measured after a
#       50 ms warm-up, payload verification and coherence checker on):
#       real-time factor = simulated s (warm-up included) / wall s of the
#       simulation (summary.json realtime_factor, elaboration excluded);
#       the same on CPU time = simulated s / (user + sys) s of the process
#       (start-up included; not lowered by time-sharing with other jobs);
#       target >= 10 on both; frames offered per wall s = frames_offered
#       (measured region) / wall_time_s (warm-up included, so at most 0.5 %
#       low here); peak RSS of the whole process (GNU time %M, else VmHWM
#       polled; target < 200 MB here and everywhere below); process wall s
#       (exec to exit: start-up, elaboration, results).
#       The runs' stats.json must be byte-identical (reported).
#   (a') the stressed calibration cases, scenarios/imx6q/copybreak-stock-stress.ini
#       and copybreak-patched-stress.ini as they are (10 s, stress -m on core
#       2): the same figures, real-time factor target >= 3.
#   (a'') the same two cases with the memory hog as an aggregate
#       (-o stress.model=aggregate on the current build only; a baseline
#       runs them as they are): the same figures and target. The mode is an
#       approximation with a documented tolerance (docs/design.md), not the
#       default, so its stats.json differ from the baseline's.
#   (b) bench/gbit-64b.ini: 1 Gbit/s, 64-B frames back to back (1.488 Mpps),
#       1 s: the same figures, real-time factor target >= 3.
#   (c) bench/bench_cache: cache line operations per second, one process per
#       run (target >= 20 M/s).
#   (d) a 64-point sweep of (a) (driver.copybreak x traffic.frame_bytes, 8 x 8
#       values, 50 ms + the 50 ms warm-up a point) with -j 1 and -j 2, fresh
#       --out each time, runs of the two interleaved: wall s of the points
#       (--no-plot), their CPU s and the cores -j 2 got (CPU s / wall s: below
#       2 when other jobs hold the cores), wall s of `fecsim plot` of the sweep
#       (the serial step after the points), and the speed-ups with and
#       without the plots (target >= 1.9); peak RSS of the largest process.
#       Every point's stats.json must be the same with -j 1 and -j 2.
#   (e) the fec driver of the Linux 6.12 tree (scenarios/imx6q/upstream-6.12-idle.ini)
#       against fecsim's own driver on the same workload, stock
#       (copybreak-stock-idle.ini) and with the partial-sync patch
#       (copybreak-patched-idle.ini), 1 s each, runs of the three interleaved:
#       wall s of the simulation (summary.json wall_time_s) of each, the
#       frames each driver handled (offered less the MAC's drops and
#       discards: the stock driver loses frames in the FIFO before any
#       driver code runs), and per pair the
#       ratio of the wall time per frame handled (target <= 1.5 against each)
#       and of the whole run; the process's CPU time (start-up and the
#       driver's load included); peak RSS.
#   (f) start-up: `fecsim run -o scenario.duration=1us -o scenario.warmup=0s`
#       of the built-in default scenario, ten times back to back per run (a
#       fresh --run-dir each), wall s and CPU s per invocation: what every
#       run pays besides simulating (elaboration, driver load and probe,
#       results); and the same with the scenario's own 50 ms warm-up, which
#       every point of a sweep of it simulates before its measured region.
# Instruction counts (BENCH_CALLGRIND=1, or make profile with BASELINE):
#   valgrind --tool=callgrind of (a) and of (e)'s tree driver scenario with
#   -o scenario.duration=50ms (after an untimed run outside valgrind that
#   builds the driver): total instructions and those inside sc_start (the
#   simulation), each per frame offered (the offered rate times the simulated
#   time after the traffic's start, warm-up included), and the tree / own
#   ratio. One run per build: the counts do not depend on the load.
#
# Output: the tables on stdout, the section between the "bench" markers of
# bench/results.md replaced (profile: the "profile" section; text outside the
# markers is kept). A partial run (BENCH_ONLY a subset of the default, or
# BENCH_SHORT) writes the "bench-partial" section instead, so that the
# figures of the last full run stay. Run outputs go to bench/out/ (git-ignored), the callgrind
# file to bench/callgrind.out.fecsim (git-ignored).
#
# Exit status: 0 when every benchmark ran (PASS or MISS); 1 when a run failed;
# 2 bad usage; 3 the baseline could not be checked out or built (the message
# names the revision and the log; bench/results.md is not touched). Needs
# POSIX sh, awk, GNU coreutils (date +%N, sort -g); git for BASELINE.
set -eu

mode=${1:-bench}
case $mode in
bench | profile) ;;
*)
    echo "usage: $0 [bench|profile]" >&2
    exit 2
    ;;
esac

srcdir=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(pwd)
FECSIM=${FECSIM:-$builddir/sim/fecsim}
RUNS=${BENCH_RUNS:-3}
ALL_FIGURES="a a2 a3 b c d e f"
ONLY=${BENCH_ONLY:-$ALL_FIGURES}
SHORT=${BENCH_SHORT:-}
[ "$SHORT" = 0 ] && SHORT=
CALLGRIND=${BENCH_CALLGRIND:-}
[ "$CALLGRIND" = 0 ] && CALLGRIND=
BASELINE=${BASELINE:-}
out=$builddir/bench/out
results=$srcdir/bench/results.md
# Scenarios, relative to the tree of the build that runs them.
rel_a=scenarios/imx6q/copybreak-stock-idle.ini
rel_b=bench/gbit-64b.ini
rel_tree=scenarios/imx6q/upstream-6.12-idle.ini
rel_patched=scenarios/imx6q/copybreak-patched-idle.ini
scen_a=$srcdir/$rel_a
linux_tarball=/usr/src/linux-source-6.12.tar.xz

case $RUNS in
'' | *[!0-9]* | 0)
    echo "$0: BENCH_RUNS must be a positive integer (got '$RUNS')" >&2
    exit 2
    ;;
esac
if [ ! -x "$FECSIM" ]; then
    echo "$0: $FECSIM not built (run make first)" >&2
    exit 2
fi
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$out"
failed=0

# --- the baseline build -----------------------------------------------------

# builds: "cur", or "base cur" with a baseline (the order of every pair).
builds=cur
base_sha=""
if [ -n "$BASELINE" ]; then
    command -v git >/dev/null || {
        echo "$0: BASELINE=$BASELINE needs git" >&2
        exit 3
    }
    base_sha=$(git -C "$srcdir" rev-parse --verify --quiet "$BASELINE^{commit}") || {
        echo "$0: BASELINE=$BASELINE is not a commit of the repository at $srcdir" >&2
        exit 3
    }
    base_short=$(git -C "$srcdir" rev-parse --short "$base_sha")
    base_subject=$(git -C "$srcdir" log -1 --format=%s "$base_sha")
    bdir=$out/baseline-$base_short
    base_src=$bdir/src
    base_build=$bdir/build
    base_cache=$bdir/cache
    base_bin=$base_build/sim/fecsim
    base_log=$bdir/build.log
    # The build is reused when its stamp names this commit (written last).
    # The baseline is built profile-guided (make pgo) when it has that target,
    # as ./bootstrap builds, and plainly when it has not. The stamp names the
    # commit and the build that ran ("pgo" or "plain"); either is reused, as
    # the commit's own Makefile decides which one it gets.
    stamp=$(cat "$bdir/built" 2>/dev/null || true)  # none yet: a first build
    if { [ "$stamp" != "$base_sha pgo" ] && [ "$stamp" != "$base_sha plain" ]; } || [ ! -x "$base_bin" ]; then
        build_fail()
        {
            echo "$0: cannot build the baseline BASELINE=$BASELINE (git $base_short, \"$base_subject\"): $1; see $base_log" >&2
            [ -f "$base_log" ] && tail -n 20 "$base_log" >&2
            exit 3
        }
        mkdir -p "$bdir"
        rm -f "$bdir/built"
        : >"$base_log"
        echo "bench: building the baseline git $base_short ($base_subject) in $bdir (log: $base_log) ..." >&2
        # A worktree of another commit, or configured in place (configure then
        # refuses an out-of-tree build), is made again.
        if [ -e "$base_src/.git" ] && { [ "$(git -C "$base_src" rev-parse HEAD 2>/dev/null)" != "$base_sha" ] ||
            [ -f "$base_src/config.status" ]; }; then
            git -C "$srcdir" worktree remove --force "$base_src" >>"$base_log" 2>&1 || rm -rf "$base_src"
        fi
        if [ ! -e "$base_src/.git" ]; then
            rm -rf "$base_src" "$base_build"
            # -f: the path may still be registered from a removed bench/out.
            git -C "$srcdir" worktree add -f --detach "$base_src" "$base_sha" >>"$base_log" 2>&1 ||
                build_fail "git worktree add failed"
        fi
        # The build system only (./bootstrap would also configure and build in place).
        if [ ! -x "$base_src/configure" ]; then
            (cd "$base_src" && autoreconf -fi) >>"$base_log" 2>&1 || build_fail "autoreconf -fi failed"
        fi
        # Configured afresh unless a configure of this commit finished (stamp).
        if [ "$(cat "$bdir/configured" 2>/dev/null)" != "$base_sha" ]; then
            rm -rf "$base_build" "$bdir/configured"
            mkdir -p "$base_build"
            # The current build's configure options (none when it has no config.status).
            cfg=""
            [ -x "$builddir/config.status" ] && cfg=$("$builddir/config.status" --config)
            (cd "$base_build" && eval "\"\$base_src/configure\" $cfg") >>"$base_log" 2>&1 ||
                build_fail "configure failed"
            echo "$base_sha" >"$bdir/configured"
        fi
        # A make of its own, not a sub-make of the make that runs this script
        # (the results header shows both programs' --version).
        base_target=""
        grep -q '^pgo:' "$base_build/Makefile" && base_target=pgo
        (cd "$base_build" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j2 $base_target) >>"$base_log" 2>&1 ||
            build_fail "make $base_target failed"
        [ -x "$base_bin" ] || build_fail "no sim/fecsim after make"
        # Revisions whose bench_cache was only built by make bench: try it (no (c) without it).
        if [ ! -x "$base_build/bench/bench_cache" ]; then
            (cd "$base_build" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j2 bench/bench_cache) >>"$base_log" 2>&1 ||
                echo "bench: the baseline's bench/bench_cache does not build: (c) without it" >&2
        fi
        echo "$base_sha ${base_target:-plain}" >"$bdir/built"
    else
        echo "bench: the baseline git $base_short ($base_subject): reusing $base_build" >&2
    fi
    mkdir -p "$base_cache"
    builds="base cur"
fi

# bin_of B / src_of B / name_of B: build B's fecsim, source tree, name.
bin_of() { if [ "$1" = base ]; then echo "$base_bin"; else echo "$FECSIM"; fi; }
src_of() { if [ "$1" = base ]; then echo "$base_src"; else echo "$srcdir"; fi; }
name_of() { if [ "$1" = base ]; then echo baseline; else echo current; fi; }
# inb B CMD...: CMD (a command or a function) with build B's environment.
inb()
{
    b=$1
    shift
    if [ "$b" = base ]; then
        (
            export FECSIM_CACHE="$base_cache"
            "$@"
        )
    else
        "$@"
    fi
}

# --- helpers ---------------------------------------------------------------

now() { date +%s.%N; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# jnum KEY FILE: the first number of "KEY" : N in a pretty-printed JSON file.
jnum() { awk -v k="\"$1\"" '$1 == k { v = $3; sub(/,$/, "", v); print v; exit }' "$2"; }

# stats < numbers: "median min max" (nan nan nan when empty).
stats()
{
    sort -g | awk '{ a[NR] = $1 }
        END {
            if (NR == 0) { print "nan nan nan"; exit }
            m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
            print m, a[1], a[NR]
        }'
}

# short_duration DUR LONG_TEXT SHORT_TEXT: with BENCH_SHORT, dur_opt is
# "-o scenario.duration=DUR" and dur_txt SHORT_TEXT; else no option and
# LONG_TEXT (the scenario's own duration).
short_duration()
{
    if [ -n "$SHORT" ]; then
        dur_opt="-o scenario.duration=$1" dur_txt=$3
    else
        dur_opt="" dur_txt=$2
    fi
}

# fresh_dir TAG: d=$out/TAG, emptied (each benchmark's run outputs).
fresh_dir()
{
    d=$out/$1
    rm -rf "$d"
    mkdir -p "$d"
}

# verdict VALUE OP TARGET: PASS or MISS (OP: ge, le or lt); MISS for nan.
verdict()
{
    awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN {
        if (v == "nan" || v == "") { print "MISS"; exit }
        ok = (op == "ge") ? (v + 0 >= t + 0) : (op == "le") ? (v + 0 <= t + 0) : (v + 0 < t + 0)
        print ok ? "PASS" : "MISS" }'
}

# Figures: put D B KEY I VALUE records VALUE of figure KEY for run I of build
# B in D/B.KEY ("I VALUE" lines; an empty or nan VALUE is not recorded).
put()
{
    case $5 in '' | nan | -nan | inf | -inf) return 0 ;; esac
    echo "$4 $5" >>"$1/$2.$3"
}
# vals D B KEY: build B's values of KEY; ratios D KEY: cur / base of the
# runs both builds have a value for (one per pair).
vals() { if [ -f "$1/$2.$3" ]; then awk '{ print $2 }' "$1/$2.$3"; fi; }
ratios()
{
    [ -f "$1/base.$2" ] && [ -f "$1/cur.$2" ] || return 0
    awk 'NR == FNR { a[$1] = $2; next } ($1 in a) && a[$1] + 0 != 0 { print $2 / a[$1] }' "$1/base.$2" "$1/cur.$2"
}
# tail_val D B KEY: the last value recorded, or nan; r3 V: V rounded to 3
# decimals for progress lines (nan as is).
tail_val() { if [ -f "$1/$2.$3" ]; then tail -n 1 "$1/$2.$3" | cut -d' ' -f2; else echo nan; fi; }
r3() { awk -v v="$1" 'BEGIN { if (v == "nan") print v; else printf "%.3f", v }'; }

# frow D KEY NAME UNIT SCALE FMT TARGET_TEXT OP TARGET: one table row of
# figure KEY of D, its values divided by SCALE and printed with FMT: median,
# min and max of the current build; with a baseline, the baseline's median,
# the current median and the ratios' median (min-max; RATIO_FMT). PASS/MISS
# from the current median.
table=$out/table.md
RATIO_FMT=%.2f
frow()
{
    d=$1 key=$2 name=$3 unit=$4 scale=$5 fmt=$6 ttext=$7 op=$8 target=$9
    set -- $(vals "$d" cur "$key" | stats)
    med=$1 min=$2 max=$3
    if [ -z "$base_sha" ]; then
        line=$(awk -v n="$name" -v u="$unit" -v s="$scale" -v f="$fmt" -v a="$med" -v b="$min" -v c="$max" \
            'BEGIN { if (a == "nan") { printf "| %s | %s | n/a | n/a | n/a |", n, u; exit }
                     printf "| %s | %s | " f " | " f " | " f " |", n, u, a / s, b / s, c / s }')
    else
        set -- $(vals "$d" base "$key" | stats)
        bmed=$1
        set -- $(ratios "$d" "$key" | stats)
        line=$(awk -v n="$name" -v u="$unit" -v s="$scale" -v f="$fmt" -v rf="$RATIO_FMT" -v a="$bmed" -v b="$med" \
            -v r="$1" -v rmin="$2" -v rmax="$3" -v runs="$RUNS" \
            'function num(x) { return x == "nan" ? "n/a" : sprintf(f, x / s) }
             BEGIN { printf "| %s | %s | %s | %s | ", n, u, num(a), num(b)
                     if (r == "nan") printf "n/a |"
                     else if (runs == 1 || rmin == rmax) printf rf " |", r
                     else printf rf " (" rf "-" rf ") |", r, rmin, rmax }')
    fi
    if [ -n "$ttext" ]; then
        v=$(awk -v a="$med" -v s="$scale" 'BEGIN { if (a == "nan") print "nan"; else print a / s }')
        line="$line $ttext | $(verdict "$v" "$op" "$target") |"
    else
        line="$line | |"
    fi
    echo "$line" >>"$table"
    echo "$line"
}

header()
{
    {
        echo
        echo "$1"
        echo
        if [ -z "$base_sha" ]; then
            echo "| figure | unit | median | min | max | target | |"
            echo "|---|---|---:|---:|---:|---|---|"
        else
            echo "| figure | unit | baseline | current | current / baseline | target | |"
            echo "|---|---|---:|---:|---:|---|---|"
        fi
    } | tee -a "$table"
}

# measured_run FILE CMD...: run CMD (stdout/stderr as given by the caller)
# and write "peak-RSS-KiB user-s sys-s" of it (its waited-for children
# included) to FILE. With GNU time (/usr/bin/time, Debian package time):
# %M %U %S. Without it: VmHWM of /proc/PID/status polled every 20 ms until the
# process exits (can miss growth in its last 20 ms) and no CPU times (nan).
# Returns CMD's status.
if /usr/bin/time --version 2>&1 | grep -q GNU; then gnu_time=yes; else gnu_time=no; fi
measured_run()
{
    mf=$1
    shift
    if [ "$gnu_time" = yes ]; then
        rc=0
        /usr/bin/time -f '%M %U %S' -o "$mf.raw" "$@" || rc=$?
        tail -n 1 "$mf.raw" >"$mf"
        return $rc
    fi
    "$@" &
    pid=$!
    hwm=""
    while [ -r /proc/$pid/status ]; do
        st=$(awk '/^State:/ { s = $2 } /^VmHWM:/ { h = $2 } END { print s, h }' /proc/$pid/status 2>/dev/null) || break
        set -- $st
        [ "${1:-Z}" = Z ] && break
        [ -n "${2:-}" ] && hwm=$2
        sleep 0.02
    done
    rc=0
    wait $pid || rc=$?
    echo "${hwm:-nan} nan nan" >"$mf"
    return $rc
}
# rss_mb FILE / cpu_s FILE: peak RSS (MB) and user + sys s of a measured_run
# FILE (nan without GNU time).
rss_mb() { awk '{ print ($1 == "nan") ? "nan" : $1 * 1024 / 1e6 }' "$1"; }
cpu_s() { awk '{ print ($2 == "nan") ? "nan" : $2 + $3 }' "$1"; }
# wall A B: B - A (s)
wall() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }
# div A B: A / B, nan when either is nan or B is 0.
div() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "nan" || b == "nan" || b + 0 == 0) ? "nan" : a / b }'; }

# warm B REL D [OPTION...]: an untimed 1-ms run of build B's scenario REL with
# the OPTIONs (the driver build cache and the page cache); 1 and a message
# when it fails.
warm()
{
    b=$1 rel=$2 wd=$3
    shift 3
    inb "$b" "$(bin_of "$b")" run "$(src_of "$b")/$rel" "$@" -o scenario.duration=1ms --quiet --out "$wd/warm-$b" \
        >/dev/null 2>"$wd/warm-$b.err" && return 0
    echo "bench: warm-up run of $rel ($(name_of "$b") build) failed:" >&2
    cat "$wd/warm-$b.err" >&2
    return 1
}

# same_stats D PATTERN: whether the stats.json files D/B/PATTERN of each build
# are the same bytes over the runs, and with a baseline whether the two
# builds' first runs are: "yes", or "baseline yes, current yes; current =
# baseline: no".
same_stats()
{
    d=$1 pat=$2
    res=""
    for b in $builds; do
        same=yes
        first=""
        for s in "$d"/$b/$pat; do
            [ -f "$s" ] || continue
            [ -n "$first" ] || first=$s
            cmp -s "$s" "$first" || same=no
        done
        [ -n "$first" ] || same="no runs"
        eval "first_$b=\$first"
        res="$res${res:+, }$(name_of "$b") $same"
    done
    if [ -z "$base_sha" ]; then
        echo "${res#current }"
    else
        x=no
        [ -n "$first_base" ] && [ -n "$first_cur" ] && cmp -s "$first_base" "$first_cur" && x=yes
        echo "$res; current = baseline: $x"
    fi
}

# scenario_bench TAG REL [OPTION...]: N runs of fecsim run REL of each build
# (interleaved) with the OPTIONs; records rtf, rtf_cpu, fps, rss, pwall in
# out/TAG and the stats.json agreement in out/TAG/deterministic. cur_opts
# (empty unless set): further options of the current build's runs only.
cur_opts=""
# opts_of B: build B's further options.
opts_of() { if [ "$1" = cur ]; then echo "$cur_opts"; fi; }
scenario_bench()
{
    tag=$1 rel=$2
    shift 2
    fresh_dir $tag
    bl=""
    for b in $builds; do
        if [ ! -f "$(src_of "$b")/$rel" ]; then
            echo "bench ($tag): $rel is not in the $(name_of "$b") tree: not run there" >&2
            continue
        fi
        warm "$b" "$rel" "$d" "$@" $(opts_of "$b") || {
            failed=1
            continue
        }
        bl="$bl $b"
    done
    i=1
    while [ "$i" -le "$RUNS" ]; do
        for b in $bl; do
            r=$d/$b/run$i
            mkdir -p "$r"
            t0=$(now)
            rc=0
            inb "$b" measured_run "$r/rusage" "$(bin_of "$b")" run "$(src_of "$b")/$rel" "$@" $(opts_of "$b") --json --quiet \
                --run-dir "$r/result" >"$r/summary.json" 2>"$r/stderr" || rc=$?
            t1=$(now)
            if [ "$rc" != 0 ]; then
                echo "bench ($tag, $(name_of "$b")): run $i failed with status $rc:" >&2
                cat "$r/stderr" >&2
                failed=1
                continue
            fi
            sj=$r/summary.json
            put "$d" "$b" rtf "$i" "$(jnum realtime_factor "$sj")"
            put "$d" "$b" fps "$i" "$(div "$(jnum frames_offered "$sj")" "$(jnum wall_time_s "$sj")")"
            put "$d" "$b" rss "$i" "$(rss_mb "$r/rusage")"
            # RTF on CPU time: simulated s / (user + sys) s of the whole process
            # (start-up included); time-sharing with other jobs does not lower it.
            simt=$(awk -v w="$(jnum warmup_s "$sj")" -v m="$(jnum sim_time_s "$sj")" 'BEGIN { print w + m }')
            put "$d" "$b" rtf_cpu "$i" "$(div "$simt" "$(cpu_s "$r/rusage")")"
            put "$d" "$b" pwall "$i" "$(wall "$t0" "$t1")"
            printf '  %s run %d/%d, %s: RTF %s, load %s\n' "$tag" "$i" "$RUNS" "$(name_of "$b")" \
                "$(jnum realtime_factor "$sj")" "$(loadavg)" >&2
        done
        i=$((i + 1))
    done
    same_stats "$d" 'run*/result/stats.json' >"$d/deterministic"
}

# scenario_rows TAG RTF-TARGET: the rows of a scenario_bench.
scenario_rows()
{
    d=$out/$1 t=$2
    frow "$d" rtf "real-time factor" "sim s / wall s" 1 "%.2f" ">= $t" ge "$t"
    frow "$d" rtf_cpu "real-time factor on CPU time (time-sharing excluded)" "sim s / CPU s" 1 "%.2f" ">= $t" ge "$t"
    frow "$d" fps "frames offered per wall s" "k frames/s" 1000 "%.1f" "" "" ""
    frow "$d" rss "peak RSS" "MB" 1 "%.1f" "< 200" lt 200
    frow "$d" pwall "process wall time" "s" 1 "%.2f" "" "" ""
}

# --- machine and build ------------------------------------------------------

cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
cores=$(nproc)
mem=$(awk '/^MemTotal:/ { printf "%.1f GB", $2 * 1024 / 1e9 }' /proc/meminfo)
version=$("$FECSIM" --version | head -n 1)
rev=$(git -C "$srcdir" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] &&
    [ -n "$(git -C "$srcdir" status --porcelain --untracked-files=no -- . ':(exclude)bench/results.md' 2>/dev/null)" ]; then
    rev="$rev (uncommitted changes)"
fi
date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load_start=$(loadavg)

# put_section NAME FILE: replace the lines from "<!-- BEGIN NAME:" to
# "<!-- END NAME -->" of bench/results.md by FILE (which carries the markers),
# or append FILE when the markers are missing. Other text is kept.
put_section()
{
    name=$1 new=$2
    if [ ! -f "$results" ]; then
        printf '# fecsim speed benchmarks\n\nWritten by `make bench` and `make profile` (bench/run.sh) between the markers;\nthe text outside them is kept.\n' >"$results"
    fi
    if grep -q "^<!-- BEGIN $name:" "$results"; then
        awk -v name="$name" -v new="$new" '
            index($0, "<!-- BEGIN " name ":") == 1 { while ((getline l < new) > 0) print l; skip = 1; next }
            skip && index($0, "<!-- END " name " -->") == 1 { skip = 0; next }
            !skip { print }' "$results" >"$results.tmp"
    else
        { cat "$results"; echo; cat "$new"; } >"$results.tmp"
    fi
    mv "$results.tmp" "$results"
}

# A full run supersedes an earlier partial one: its section goes.
drop_section()
{
    name=$1
    [ -f "$results" ] && grep -q "^<!-- BEGIN $name:" "$results" || return 0
    awk -v name="$name" '
        index($0, "<!-- BEGIN " name ":") == 1 { skip = 1; next }
        skip && index($0, "<!-- END " name " -->") == 1 { skip = 0; drop_blank = 1; next }
        skip { next }
        drop_blank && $0 == "" { drop_blank = 0; next }
        { drop_blank = 0; print }' "$results" >"$results.tmp"
    mv "$results.tmp" "$results"
}

machine_lines()
{
    echo "- machine: $cpu, $cores cores, $mem RAM"
    echo "- fecsim: \`$version\` (sim/fecsim --version); source tree: git $rev"
    if [ -n "$base_sha" ]; then
        # The baseline's own Makefile says which build it got (as when built).
        kind="make"
        grep -q '^pgo:' "$base_build/Makefile" 2>/dev/null && kind="make pgo"
        echo "- baseline: git $base_short (\"$base_subject\"), \`$("$base_bin" --version | head -n 1)\`, built from a worktree by $kind" \
            "(\`BASELINE=$BASELINE\`); the two builds' runs alternate, baseline first; current / baseline is the median" \
            "(min-max) of the per-pair ratios"
    fi
    echo "- date: $date_utc"
}

# --- instruction counts -----------------------------------------------------

command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null && have_valgrind=yes || have_valgrind=no

# incl LISTING FUNCTION-REGEX: the largest inclusive count of a function's
# rows in a callgrind_annotate --inclusive=yes listing.
incl()
{
    awk -v re="$2" '/^Ir +file:function/ { on = 1; getline; next }
        on && NF { line = $0; sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", line)
            c = index(line, ":"); fn = substr(line, c + 1); sub(/ \[[^]]*\]$/, "", fn)
            if (fn ~ re) { v = $1; gsub(/,/, "", v); if (v + 0 > m) m = v + 0 } }
        END { print m + 0 }' "$1"
}
insc_re='^sc_core::sc_start\(sc_core::sc_time const&'

# seconds TEXT: a scenario time (5ms, 0s, 1.5us, 200ps) in s.
seconds()
{
    awk -v t="$1" 'BEGIN {
        n = t + 0; u = t; sub(/^[0-9.eE+-]+/, "", u)
        f = (u == "ps") ? 1e-12 : (u == "ns") ? 1e-9 : (u == "us") ? 1e-6 : (u == "ms") ? 1e-3 : 1
        print n * f }'
}

# cg_run B KEY REL D: build B's scenario REL for 50 ms under callgrind;
# records KEY_total (instructions), KEY_tpf and KEY_ipf (total and in
# sc_start per frame offered) for run 1 in D.
cg_run()
{
    b=$1 key=$2 rel=$3 cg_d=$4
    cg_w=$cg_d/$b-$key
    mkdir -p "$cg_w"
    warm "$b" "$rel" "$cg_w" || return 1
    inb "$b" valgrind --tool=callgrind --callgrind-out-file="$cg_w/callgrind.out" \
        "$(bin_of "$b")" run "$(src_of "$b")/$rel" -o scenario.duration=50ms --json --quiet --run-dir "$cg_w/result" \
        >"$cg_w/summary.json" 2>"$cg_w/valgrind.err" || {
        echo "bench (callgrind, $(name_of "$b")): $rel failed:" >&2
        cat "$cg_w/valgrind.err" >&2
        return 1
    }
    callgrind_annotate --auto=no --threshold=100 --inclusive=yes "$cg_w/callgrind.out" >"$cg_w/annotate-inclusive.txt" 2>/dev/null
    cg_total=$(awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1; exit }' "$cg_w/annotate-inclusive.txt")
    cg_insim=$(incl "$cg_w/annotate-inclusive.txt" "$insc_re")
    # Frames in sc_start: the offered rate over the simulated time after the
    # traffic's start ([traffic] start of the resolved scenario).
    cg_start=$(awk '/^\[/ { s = $0 } s == "[traffic]" && /^start=/ { sub(/^start=/, ""); print; exit }' \
        "$cg_w/result/scenario.resolved.ini")
    cg_frames=$(awk -v f="$(jnum frames_offered "$cg_w/summary.json")" -v m="$(jnum sim_time_s "$cg_w/summary.json")" \
        -v wu="$(jnum warmup_s "$cg_w/summary.json")" -v st="$(seconds "${cg_start:-0s}")" \
        'BEGIN { print (m > 0 && f > 0) ? f / m * (wu + m - st) : "nan" }')
    put "$cg_d" "$b" "${key}_total" 1 "$cg_total"
    put "$cg_d" "$b" "${key}_tpf" 1 "$(div "$cg_total" "$cg_frames")"
    put "$cg_d" "$b" "${key}_ipf" 1 "$(div "$cg_insim" "$cg_frames")"
    printf '  callgrind, %s, %s: %s instructions, %s in sc_start, %s frames\n' "$(name_of "$b")" "$rel" \
        "$cg_total" "$cg_insim" "$cg_frames" >&2
}

# callgrind_compare: the instruction count table of every build (into $table).
callgrind_compare()
{
    if [ "$have_valgrind" != yes ]; then
        echo "bench: valgrind/callgrind_annotate not found (Debian package valgrind): no instruction counts" >&2
        failed=1
        return 0
    fi
    cg_d=$out/callgrind
    rm -rf "$cg_d"
    mkdir -p "$cg_d"
    cg_tree=no
    [ -f "$linux_tarball" ] && cg_tree=yes
    for b in $builds; do
        cg_run "$b" own "$rel_a" "$cg_d" || failed=1
        if [ "$cg_tree" = yes ]; then
            cg_run "$b" tree "$rel_tree" "$cg_d" || failed=1
            [ -f "$cg_d/$b.own_ipf" ] && [ -f "$cg_d/$b.tree_ipf" ] &&
                put "$cg_d" "$b" ratio_ipf 1 "$(div "$(tail_val "$cg_d" "$b" tree_ipf)" "$(tail_val "$cg_d" "$b" own_ipf)")"
        fi
    done
    header "Instruction counts (callgrind, one run per build; they do not depend on the load): \`valgrind --tool=callgrind fecsim run SCENARIO -o scenario.duration=50ms\` of $rel_a$([ "$cg_tree" = yes ] && echo " and $rel_tree (the 6.12 tree's driver, (e))" || echo "; $rel_tree skipped: $linux_tarball not installed"); per frame offered from the traffic's start (50 ms warm-up included)"
    RATIO_FMT=%.4f
    frow "$cg_d" own_total "(a) own driver: total instructions" "G" 1e9 "%.4f" "" "" ""
    frow "$cg_d" own_tpf "(a) own driver: total per frame" "instructions" 1 "%.0f" "" "" ""
    frow "$cg_d" own_ipf "(a) own driver: in sc_start per frame" "instructions" 1 "%.0f" "" "" ""
    if [ "$cg_tree" = yes ]; then
        frow "$cg_d" tree_total "(e) 6.12 tree driver: total instructions" "G" 1e9 "%.4f" "" "" ""
        frow "$cg_d" tree_tpf "(e) 6.12 tree driver: total per frame" "instructions" 1 "%.0f" "" "" ""
        frow "$cg_d" tree_ipf "(e) 6.12 tree driver: in sc_start per frame" "instructions" 1 "%.0f" "" "" ""
        frow "$cg_d" ratio_ipf "(e) tree / own stock, in sc_start per frame offered (the target of (e) is per frame handled, on wall time)" "x" 1 "%.3f" "" "" ""
    fi
    RATIO_FMT=%.2f
}

# --- make profile -----------------------------------------------------------

if [ "$mode" = profile ]; then
    [ "$have_valgrind" = yes ] || {
        echo "$0: valgrind/callgrind_annotate not found (Debian package valgrind)" >&2
        exit 2
    }
    fresh_dir profile
    cg=$builddir/bench/callgrind.out.fecsim
    # sum AWK-OPTIONS...: bench/callgrind-sum.awk over the self listing
    sum() { awk "$@" -f "$srcdir/bench/callgrind-sum.awk" "$d/annotate.txt"; }
    # Untimed warm-up outside valgrind: builds the driver if it is not cached,
    # so that the profile never contains the compiler.
    "$FECSIM" run "$scen_a" -o scenario.duration=1ms --quiet --out "$d/warm" >/dev/null
    load_p=$(loadavg)
    echo "make profile: callgrind of fecsim run $scen_a -o scenario.duration=50ms (load $load_p) ..." >&2
    t0=$(now)
    valgrind --tool=callgrind --callgrind-out-file="$cg" \
        "$FECSIM" run "$scen_a" -o scenario.duration=50ms --json --quiet --run-dir "$d/result" \
        >"$d/summary.json" 2>"$d/valgrind.err" || {
        cat "$d/valgrind.err" >&2
        exit 1
    }
    t1=$(now)
    callgrind_annotate --auto=no --threshold=100 "$cg" >"$d/annotate.txt" 2>/dev/null
    callgrind_annotate --auto=no --threshold=100 --inclusive=yes "$cg" >"$d/annotate-inclusive.txt" 2>/dev/null
    total=$(awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1; exit }' "$d/annotate.txt")
    insim=$(incl "$d/annotate-inclusive.txt" "$insc_re")
    warm=$(awk -v v="$(jnum warmup_s "$d/summary.json")" 'BEGIN { printf "%g", v }')
    meas=$(awk -v v="$(jnum sim_time_s "$d/summary.json")" 'BEGIN { printf "%g", v }')
    frames=$(jnum frames_offered "$d/summary.json")
    # Side by side with the baseline: both builds' counts, into their own table.
    if [ -n "$base_sha" ]; then
        table=$out/profile-baseline.md
        : >"$table"
        callgrind_compare >/dev/null
        d=$out/profile # frow's
    fi
    sect=$out/profile-section.md
    {
        echo "<!-- BEGIN profile: generated by make profile (bench/run.sh); do not edit -->"
        echo "## Profile (make profile)"
        echo
        machine_lines
        echo "- run: \`valgrind --tool=callgrind fecsim run scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=50ms\`:" \
            "$warm s warm-up + $meas s measured, $frames frames offered in the measured part;" \
            "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s wall under valgrind, load $load_p"
        echo "- output: bench/callgrind.out.fecsim (\`callgrind_annotate bench/callgrind.out.fecsim\`; git-ignored)"
        echo
        echo "Instruction counts do not depend on the machine load. They are not bit-exact between"
        echo "runs: heap addresses and path lengths move them by about 1e-5 (repeated runs of the same"
        echo "command in the same environment give the same sc_start count)."
        echo
        awk -v t="$total" -v i="$insim" -v w="$warm" -v m="$meas" -v f="$frames" 'BEGIN {
            s = w + m
            printf "- **total: %.0f instructions** (%.3f G)\n", t, t / 1e9
            printf "- in sc_start (simulation; the rest is start-up, elaboration, driver load, results): %.0f (%.1f %%),", i, 100 * i / t
            printf " %.2f G per simulated s\n", i / s / 1e9
            # the traffic starts at 5 ms: frames in sc_start = rate x (s - 5 ms)
            printf "- in sc_start per frame offered (%.0f frames/s from the 5 ms traffic start): about %.0f instructions\n", f / m, i / (f / m * (s - 0.005))
        }'
        if [ -n "$base_sha" ]; then
            cat "$table"
        fi
        echo
        echo "Top 15 functions by self instructions (callgrind_annotate rows of one function merged:"
        echo "code inlined from headers is listed under the header's file name):"
        echo
        echo '```'
        sum -v what=functions -v n=15 | cut -c1-160
        echo '```'
        echo
        echo "Self instructions by component:"
        echo
        echo '```'
        sum -v what=components
        echo '```'
        echo
        echo "Inclusive instructions of the DMA API path (no SystemC wait below it; callgrind's inclusive"
        echo "figures of code that waits, such as the NAPI poll or the traffic thread, also count the other"
        echo "coroutines it switches to, so they are not listed):"
        echo
        echo '```'
        for p in \
            'simhost_dma$|DMA API calls of the driver (dma_sync_*, map/unmap): cache maintenance + checker' \
            '^khost::arm_dma_sync_for_cpu\(|  of which arm_dma_sync_for_cpu (L1 + PL310 maintenance)' \
            '^khost::arm_dma_sync_for_device\(|  of which arm_dma_sync_for_device (L1 + PL310 maintenance)' \
            '^khost::coherence_checker::on_dma\(|  of which coherence_checker::on_dma'; do
            re=${p%%|*}
            what=${p#*|}
            awk -v v="$(incl "$d/annotate-inclusive.txt" "$re")" -v t="$total" -v w="$what" \
                'BEGIN { printf "%13.0f %5.1f%%  %s\n", v, 100 * v / t, w }'
        done
        echo '```'
        echo "<!-- END profile -->"
    } >"$sect"
    sed -e '/^<!--/d' "$sect"
    put_section profile "$sect"
    echo "make profile: $cg; listings in $d/; bench/results.md updated" >&2
    exit $failed
fi

# --- make bench -------------------------------------------------------------

: >"$table"
echo "make bench: $RUNS run(s) each, load $load_start ($cpu, $cores cores)${base_sha:+; baseline git $base_short}" >&2
short_note=""
[ -n "$SHORT" ] && short_note=" (BENCH_SHORT: shortened)"

case " $ONLY " in *" a "*)
    short_duration 1s "10 s" "1 s"
    dur_a=$dur_txt
    echo "(a) copybreak-stock-idle, $dur_a ..." >&2
    load_a=$(loadavg)
    scenario_bench a "$rel_a" $dur_opt
    header "(a) i.MX6Q stock copybreak, idle: $rel_a$([ -n "$SHORT" ] && echo " -o scenario.duration=1s" || echo " as is") ($dur_a + 50 ms warm-up, 46.3 k frames/s)$short_note; load at start $load_a; stats.json identical over the runs: $(cat "$out/a/deterministic")"
    scenario_rows a 10
    ;;
esac

# stressed_cases KEY LABEL HOG NOTE: the two stressed calibration cases
# (copybreak-stock-stress, copybreak-patched-stress) as figure LABEL, run
# outputs in out/KEY-stock and out/KEY-patched, with cur_opts for the
# current build; HOG is said of the memory hog in the titles, NOTE after
# the durations. Its variables are st_* (sh has no locals, and frow and
# scenario_bench set key, d, c...).
stressed_cases()
{
    st_key=$1 st_label=$2 st_hog=$3 st_note=$4
    short_duration 1s "10 s" "1 s"
    dur_s=$dur_txt
    for c in stock patched; do
        echo "($st_label) copybreak-$c-stress$st_hog, $dur_s ..." >&2
        eval "load_$c=\$(loadavg)"
        scenario_bench "$st_key-$c" "scenarios/imx6q/copybreak-$c-stress.ini" $dur_opt
    done
    for c in stock patched; do
        eval "l=\$load_$c"
        header "($st_label) i.MX6Q $c copybreak under stress -m$st_hog: scenarios/imx6q/copybreak-$c-stress.ini$([ -n "$SHORT" ] && echo " -o scenario.duration=1s" || echo " as is") ($dur_s + 50 ms warm-up)$st_note$short_note; load at start $l; stats.json identical over the runs: $(cat "$out/$st_key-$c/deterministic")"
        scenario_rows "$st_key-$c" 3
    done
}

case " $ONLY " in *" a2 "*)
    stressed_cases a2 "a'" "" ""
    ;;
esac

case " $ONLY " in *" a3 "*)
    a3_note=", the current build with -o stress.model=aggregate"
    [ -n "$base_sha" ] && a3_note="$a3_note, the baseline as is: its memory hog is the detailed one, so the two builds' stats.json differ by the approximation of the mode (docs/design.md)"
    cur_opts="-o stress.model=aggregate"
    stressed_cases a3 "a''" ", the memory hog as an aggregate" "$a3_note"
    cur_opts=""
    ;;
esac

case " $ONLY " in *" b "*)
    short_duration 200ms "1 s" "200 ms"
    dur_b=$dur_txt
    echo "(b) gbit-64b, $dur_b ..." >&2
    load_b=$(loadavg)
    scenario_bench b "$rel_b" $dur_opt
    header "(b) 1 Gbit/s, 64-B frames at line rate (1.488 M frames/s offered): $rel_b$([ -n "$SHORT" ] && echo " -o scenario.duration=200ms") ($dur_b + 50 ms warm-up)$short_note; load at start $load_b; stats.json identical over the runs: $(cat "$out/b/deterministic")"
    scenario_rows b 3
    ;;
esac

case " $ONLY " in *" c "*)
    echo "(c) bench_cache ..." >&2
    load_c=$(loadavg)
    fresh_dir c
    i=1
    while [ "$i" -le "$RUNS" ]; do
        for b in $builds; do
            bc=$builddir/bench/bench_cache
            [ "$b" = base ] && bc=$base_build/bench/bench_cache
            [ -x "$bc" ] || continue
            if ! "$bc" 20000 1 >"$d/$b-$i.txt" 2>&1; then
                cat "$d/$b-$i.txt" >&2
                failed=1
                continue
            fi
            put "$d" "$b" ops "$i" "$(sed -n 's/.*median \([0-9.]*\) M line ops\/s.*/\1/p' "$d/$b-$i.txt")"
            printf '  c run %d/%d, %s: %s M line ops/s\n' "$i" "$RUNS" "$(name_of "$b")" "$(tail_val "$d" "$b" ops)" >&2
        done
        i=$((i + 1))
    done
    [ -f "$d/cur.ops" ] || failed=1
    header "(c) cache micro-benchmark: bench/bench_cache 20000 1 (20 000 frames), one process per run; load at start $load_c"
    frow "$d" ops "line operations per wall s" "M ops/s" 1 "%.1f" ">= 20" ge 20
    ;;
esac

case " $ONLY " in *" d "*)
    echo "(d) 64-point sweep, -j 1 and -j 2 ..." >&2
    load_d=$(loadavg)
    fresh_dir d
    sweep_args="-o scenario.duration=50ms --vary driver.copybreak=64,96,128,192,256,320,384,512 --vary traffic.frame_bytes=64,128,192,246,320,384,448,512"
    bl=""
    for b in $builds; do
        if warm "$b" "$rel_a" "$d"; then bl="$bl $b"; else failed=1; fi
    done
    i=1
    while [ "$i" -le "$RUNS" ]; do
        for j in 1 2; do
            for b in $bl; do
                o=$d/$b/out-j$j
                rm -rf "$o"
                mkdir -p "$d/$b"
                t0=$(now)
                # shellcheck disable=SC2086 # sweep_args: words
                if ! inb "$b" measured_run "$d/$b/rusage-j$j-$i" "$(bin_of "$b")" sweep "$(src_of "$b")/$rel_a" $sweep_args \
                    -j "$j" --name bench --no-plot -q --out "$o" >"$d/$b/sweep-j$j-$i.log" 2>&1; then
                    cat "$d/$b/sweep-j$j-$i.log" >&2
                    failed=1
                fi
                t1=$(now)
                put "$d" "$b" j$j "$i" "$(wall "$t0" "$t1")"
                # CPU s of the sweep and its points; cores used = CPU s / wall s
                put "$d" "$b" cpu$j "$i" "$(cpu_s "$d/$b/rusage-j$j-$i")"
                put "$d" "$b" cores$j "$i" "$(div "$(cpu_s "$d/$b/rusage-j$j-$i")" "$(wall "$t0" "$t1")")"
                put "$d" "$b" rss "$i" "$(rss_mb "$d/$b/rusage-j$j-$i")"
            done
        done
        for b in $bl; do
            # The plots of the sweep, as `fecsim sweep` without --no-plot draws them.
            t0=$(now)
            inb "$b" "$(bin_of "$b")" plot -q "$d/$b/out-j1/imx6q-copybreak-stock-idle/sweep-bench" >"$d/$b/plot-$i.log" 2>&1 || {
                cat "$d/$b/plot-$i.log" >&2
                failed=1
            }
            t1=$(now)
            put "$d" "$b" plot "$i" "$(wall "$t0" "$t1")"
            j1=$(tail_val "$d" "$b" j1) j2=$(tail_val "$d" "$b" j2) p=$(tail_val "$d" "$b" plot)
            put "$d" "$b" speedup "$i" "$(div "$j1" "$j2")"
            put "$d" "$b" speedup_plot "$i" "$(awk -v a="$j1" -v b="$j2" -v p="$p" 'BEGIN { print (a + p) / (b + p) }')"
            printf '  d run %d/%d, %s: -j1 %s s, -j2 %s s, plot %s s, load %s\n' "$i" "$RUNS" "$(name_of "$b")" \
                "$(r3 "$j1")" "$(r3 "$j2")" "$(r3 "$p")" "$(loadavg)" >&2
        done
        i=$((i + 1))
    done
    # Same points, same results: each point's stats.json of -j 1 and -j 2
    # must be the same bytes (sweep.csv differs: wall times and run ids); with
    # a baseline, also each point's of the two builds.
    same=""
    for b in $bl; do
        n=0
        ok=yes
        for s in "$d/$b"/out-j1/imx6q-copybreak-stock-idle/sweep-bench/p*/stats.json; do
            [ -f "$s" ] || continue
            n=$((n + 1))
            cmp -s "$s" "$d/$b/out-j2/${s#"$d/$b"/out-j1/}" || ok=no
        done
        [ "$n" = 64 ] || ok="no ($n of 64 points)"
        same="$same${same:+, }$(name_of "$b") $ok"
    done
    [ -n "$base_sha" ] || same=${same#current }
    if [ -n "$base_sha" ]; then
        ok=yes
        for s in "$d"/cur/out-j1/imx6q-copybreak-stock-idle/sweep-bench/p*/stats.json; do
            cmp -s "$s" "$d/base/${s#"$d"/cur/}" || ok=no
        done
        same="$same; current = baseline: $ok"
    fi
    header "(d) sweep: \`fecsim sweep $rel_a $sweep_args\` (64 points of 100 ms simulated), -j 1 and -j 2 interleaved; load at start $load_d; stats.json of every point identical with -j 1 and -j 2: $same"
    frow "$d" j1 "sweep wall, -j 1 (--no-plot)" "s" 1 "%.2f" "" "" ""
    frow "$d" j2 "sweep wall, -j 2 (--no-plot)" "s" 1 "%.2f" "" "" ""
    frow "$d" cpu1 "sweep CPU time (user + sys), -j 1" "s" 1 "%.2f" "" "" ""
    frow "$d" cpu2 "sweep CPU time (user + sys), -j 2" "s" 1 "%.2f" "" "" ""
    frow "$d" cores2 "cores used by -j 2 (CPU s / wall s; 2 = both cores)" "cores" 1 "%.2f" "" "" ""
    frow "$d" plot "fecsim plot of the sweep (after the points)" "s" 1 "%.2f" "" "" ""
    frow "$d" rss "peak RSS (the largest process)" "MB" 1 "%.1f" "< 200" lt 200
    frow "$d" speedup "speed-up -j 2 / -j 1, points" "x" 1 "%.2f" ">= 1.9" ge 1.9
    frow "$d" speedup_plot "speed-up -j 2 / -j 1, with the plots" "x" 1 "%.2f" ">= 1.9" ge 1.9
    ;;
esac

case " $ONLY " in *" e "*)
    if [ ! -f "$linux_tarball" ]; then
        echo "bench (e): $linux_tarball not installed: skipped" >&2
    else
        dur_e=1s dur_e_txt="1 s"
        [ -n "$SHORT" ] && dur_e=200ms dur_e_txt="200 ms"
        echo "(e) tree driver / own driver, $dur_e_txt each ..." >&2
        load_e=$(loadavg)
        fresh_dir e
        # Untimed: the tree's extraction and the driver build caches.
        bl=""
        for b in $builds; do
            ok=yes
            for rel in "$rel_a" "$rel_patched" "$rel_tree"; do
                warm "$b" "$rel" "$d" || ok=no
            done
            if [ "$ok" = yes ]; then bl="$bl $b"; else failed=1; fi
        done
        i=1
        while [ "$i" -le "$RUNS" ]; do
            for b in $bl; do
                for s in own patched tree; do
                    case $s in own) rel=$rel_a ;; patched) rel=$rel_patched ;; tree) rel=$rel_tree ;; esac
                    r=$d/$b/$s-$i
                    mkdir -p "$d/$b"
                    inb "$b" measured_run "$r.rusage" "$(bin_of "$b")" run "$(src_of "$b")/$rel" -o scenario.duration=$dur_e \
                        --quiet --run-dir "$r" >/dev/null 2>"$r.err" || {
                        cat "$r.err" >&2
                        failed=1
                        continue
                    }
                    put "$d" "$b" $s "$i" "$(jnum wall_time_s "$r/summary.json")"
                    put "$d" "$b" cpu_$s "$i" "$(cpu_s "$r.rusage")"
                    put "$d" "$b" rss_$s "$i" "$(rss_mb "$r.rusage")"
                    # Frames the driver handled: offered less those the MAC
                    # dropped or discarded before the driver saw them.
                    put "$d" "$b" frames_$s "$i" "$(awk -v o="$(jnum frames_offered "$r/summary.json")" \
                        -v m="$(jnum mac_fifo "$r/summary.json")" -v a="$(jnum mac_discard "$r/summary.json")" \
                        'BEGIN { print o - m - a }')"
                    put "$d" "$b" wpf_$s "$i" "$(div "$(tail_val "$d" "$b" $s)" "$(tail_val "$d" "$b" frames_$s)")"
                done
                for o in own patched; do
                    if [ -f "$d/$b/$o-$i/summary.json" ] && [ -f "$d/$b/tree-$i/summary.json" ]; then
                        put "$d" "$b" ratio_$o "$i" "$(div "$(tail_val "$d" "$b" tree)" "$(tail_val "$d" "$b" $o)")"
                        put "$d" "$b" ratio_cpu_$o "$i" "$(div "$(tail_val "$d" "$b" cpu_tree)" "$(tail_val "$d" "$b" cpu_$o)")"
                        put "$d" "$b" ratio_wpf_$o "$i" "$(div "$(tail_val "$d" "$b" wpf_tree)" "$(tail_val "$d" "$b" wpf_$o)")"
                    fi
                done
                printf '  e run %d/%d, %s: own %s s, patched %s s, tree %s s, load %s\n' "$i" "$RUNS" "$(name_of "$b")" \
                    "$(r3 "$(tail_val "$d" "$b" own)")" "$(r3 "$(tail_val "$d" "$b" patched)")" \
                    "$(r3 "$(tail_val "$d" "$b" tree)")" "$(loadavg)" >&2
            done
            i=$((i + 1))
        done
        header "(e) the Linux 6.12 tree's fec driver against fecsim's own on the same workload: $rel_tree, and the own driver stock ($rel_a) and with the partial-sync patch ($rel_patched), $dur_e_txt each$short_note, interleaved; load at start $load_e; stats.json identical over the runs: own $(same_stats "$d" 'own-*/stats.json'); patched $(same_stats "$d" 'patched-*/stats.json'); tree $(same_stats "$d" 'tree-*/stats.json'). The stock own driver loses frames in the MAC FIFO before any driver code runs (the rows of frames handled say how many); the patched one and the tree's take every frame through driver and stack. The target is on the wall time per frame the driver handled (offered less the MAC's drops and discards), against each own variant; the whole-run ratios are shown beside it"
        frow "$d" own "own driver, stock (copybreak-stock-idle), simulation wall" "s" 1 "%.3f" "" "" ""
        frow "$d" patched "own driver, partial-sync patch (copybreak-patched-idle), simulation wall" "s" 1 "%.3f" "" "" ""
        frow "$d" tree "6.12 tree driver (upstream-6.12-idle), simulation wall" "s" 1 "%.3f" "" "" ""
        frow "$d" frames_own "own driver, stock: frames the driver handled" "frames" 1 "%.0f" "" "" ""
        frow "$d" frames_patched "own driver, patched: frames the driver handled" "frames" 1 "%.0f" "" "" ""
        frow "$d" frames_tree "6.12 tree driver: frames the driver handled" "frames" 1 "%.0f" "" "" ""
        frow "$d" ratio_wpf_own "tree / own stock, wall per frame handled, per pair" "x" 1 "%.2f" "<= 1.5" le 1.5
        frow "$d" ratio_wpf_patched "tree / own patched, wall per frame handled, per pair" "x" 1 "%.2f" "<= 1.5" le 1.5
        frow "$d" ratio_own "tree / own stock, whole run, per pair" "x" 1 "%.2f" "" "" ""
        frow "$d" ratio_patched "tree / own patched, whole run, per pair" "x" 1 "%.2f" "" "" ""
        frow "$d" cpu_own "own driver, stock, process CPU time (user + sys)" "s" 1 "%.3f" "" "" ""
        frow "$d" cpu_patched "own driver, patched, process CPU time (user + sys)" "s" 1 "%.3f" "" "" ""
        frow "$d" cpu_tree "6.12 tree driver, process CPU time (user + sys)" "s" 1 "%.3f" "" "" ""
        frow "$d" ratio_cpu_own "tree / own stock on CPU time, whole run, per pair" "x" 1 "%.2f" "" "" ""
        frow "$d" ratio_cpu_patched "tree / own patched on CPU time, whole run, per pair" "x" 1 "%.2f" "" "" ""
        frow "$d" rss_own "own driver, stock, peak RSS" "MB" 1 "%.1f" "< 200" lt 200
        frow "$d" rss_patched "own driver, patched, peak RSS" "MB" 1 "%.1f" "< 200" lt 200
        frow "$d" rss_tree "6.12 tree driver, peak RSS" "MB" 1 "%.1f" "< 200" lt 200
    fi
    ;;
esac

case " $ONLY " in *" f "*)
    echo "(f) start-up, 1-us runs ..." >&2
    load_f=$(loadavg)
    fresh_dir f
    # ten_runs FECSIM DIR: ten 1-us runs of the built-in default scenario, each
    # its own --run-dir (a finished one would be skipped).
    # $2: the warm-up ("" the scenario's own).
    ten='k=1; while [ $k -le 10 ]; do "$0" run -o scenario.duration=1us ${2:+-o scenario.warmup=$2} -q --run-dir "$1/$k" || exit 1; k=$((k + 1)); done'
    bl=""
    for b in $builds; do
        if inb "$b" "$(bin_of "$b")" run -o scenario.duration=1us -q --run-dir "$d/warm-$b" >/dev/null 2>"$d/warm-$b.err"; then
            bl="$bl $b"
        else
            echo "bench (f): the default scenario does not run ($(name_of "$b") build):" >&2
            cat "$d/warm-$b.err" >&2
            failed=1
        fi
    done
    i=1
    while [ "$i" -le "$RUNS" ]; do
        for b in $bl; do
            # "": start-up alone (no warm-up); w: with the scenario's warm-up.
            for v in "" w; do
                r=$d/$b/run$v$i
                wu=0s
                [ -z "$v" ] || wu=""
                mkdir -p "$r"
                t0=$(now)
                if ! inb "$b" measured_run "$r.rusage" sh -c "$ten" "$(bin_of "$b")" "$r" "$wu" \
                    >/dev/null 2>"$r.err"; then
                    cat "$r.err" >&2
                    failed=1
                    continue
                fi
                t1=$(now)
                put "$d" "$b" wall$v "$i" "$(div "$(wall "$t0" "$t1")" 10)"
                put "$d" "$b" cpu$v "$i" "$(div "$(cpu_s "$r.rusage")" 10)"
                put "$d" "$b" rss "$i" "$(rss_mb "$r.rusage")"
            done
            printf '  f run %d/%d, %s: %s s wall per run, %s s with the warm-up, load %s\n' "$i" "$RUNS" \
                "$(name_of "$b")" "$(r3 "$(tail_val "$d" "$b" wall)")" "$(r3 "$(tail_val "$d" "$b" wallw)")" \
                "$(loadavg)" >&2
        done
        i=$((i + 1))
    done
    header "(f) start-up: \`fecsim run -o scenario.duration=1us -o scenario.warmup=0s -q\` of the built-in default scenario (the stock copybreak case), ten back to back per run, figures per invocation (exec to exit: elaboration, driver load and probe, results); and the same with the scenario's own 50 ms warm-up (traffic from 5 ms), simulated by every point of a sweep of it before the measured region; load at start $load_f"
    frow "$d" wall "process wall time, no warm-up" "ms" 0.001 "%.1f" "" "" ""
    frow "$d" cpu "process CPU time (user + sys), no warm-up" "ms" 0.001 "%.1f" "" "" ""
    frow "$d" wallw "process wall time, with the 50 ms warm-up" "ms" 0.001 "%.1f" "" "" ""
    frow "$d" cpuw "process CPU time (user + sys), with the 50 ms warm-up" "ms" 0.001 "%.1f" "" "" ""
    frow "$d" rss "peak RSS" "MB" 1 "%.1f" "< 200" lt 200
    ;;
esac

if [ -n "$CALLGRIND" ]; then
    echo "instruction counts (callgrind, 50 ms) ..." >&2
    callgrind_compare
fi

load_end=$(loadavg)
sect=$out/bench-section.md
# Every default figure, at full length: the "bench" section; else "bench-partial".
sect_name=bench sect_title="Benchmarks (make bench)"
for f in $ALL_FIGURES; do
    case " $ONLY " in *" $f "*) ;; *) sect_name=bench-partial ;; esac
done
[ -n "$SHORT" ] && sect_name=bench-partial
if [ "$sect_name" = bench-partial ]; then
    sect_title="Partial benchmark run (make bench BENCH_ONLY=\"$ONLY\"${SHORT:+ BENCH_SHORT=1}); the full run's figures are above"
fi
{
    echo "<!-- BEGIN $sect_name: generated by make bench (bench/run.sh); do not edit -->"
    echo "## $sect_title"
    echo
    machine_lines
    if [ -n "$base_sha" ]; then
        echo "- runs per figure: $RUNS of each build (BENCH_RUNS); PASS/MISS on the current median"
    else
        echo "- runs per figure: $RUNS (BENCH_RUNS); median, min and max of the runs; PASS/MISS on the median"
    fi
    [ -n "$SHORT" ] && echo "- BENCH_SHORT: (a), (a') 1 s, (b), (e) 200 ms instead of the figures' durations"
    echo "- load average (1, 5, 15 min): $load_start at start, $load_end at end (\`uptime\`: $(uptime | sed 's/^ *//'))"
    echo "- wall-clock figures depend on the load: on a busy machine they are low and noisy"
    cat "$table"
    echo "<!-- END $sect_name -->"
} >"$sect"
put_section "$sect_name" "$sect"
[ "$sect_name" = bench ] && drop_section bench-partial
echo >&2
echo "make bench: load $load_end at end; bench/results.md ($sect_name section) updated; run outputs in $out/" >&2
exit $failed
