#!/bin/sh
# bench/run.sh: fecsim speed benchmarks (`make bench`) and the callgrind
# profile (`make profile`). Never part of `make check`; never changes the
# simulator or its inputs: it only runs sim/fecsim and bench/bench_cache.
#
# Usage (from the build directory, where sim/fecsim is):
#   bench/run.sh bench      benchmarks (a)-(d) below, N runs each
#   bench/run.sh profile    callgrind of a short run of (a), top 15 functions
#
# Environment:
#   BENCH_RUNS=N      runs per benchmark (default 3); figures are the median,
#                     min and max of the N runs (median of an even N: mean of
#                     the two middle values)
#   BENCH_ONLY="a b"  run only these benchmarks (default "a b c d e"; e needs the
#                     linux-source-6.12 tarball and is skipped without it)
#   FECSIM=PATH       the fecsim binary (default ./sim/fecsim)
#
# Benchmarks (targets printed next to each figure; PASS/MISS on the median):
#   (a) scenarios/imx6q/copybreak-stock-idle.ini as is (10 s measured after a
#       50 ms warm-up, payload verification and coherence checker on):
#       real-time factor = simulated s (warm-up included) / wall s of the
#       simulation (summary.json realtime_factor, elaboration excluded);
#       frames offered per wall s = frames_offered (measured region) /
#       wall_time_s (warm-up included, so at most 0.5 % low here);
#       the same on CPU time = simulated s / (user + sys) s of the process
#       (start-up included; not lowered by time-sharing with other jobs);
#       peak RSS of the whole process (GNU time %M, else VmHWM polled);
#       process wall s (exec to exit: start-up, elaboration, results).
#       The runs' stats.json must be byte-identical (reported).
#   (b) bench/gbit-64b.ini: 1 Gbit/s, 64-B frames back to back (1.488 Mpps),
#       1 s: the same figures.
#   (c) bench/bench_cache: cache line operations per second (its own median).
#   (d) a 16-point sweep of (a) at 100 ms with -j 1 and -j 2, fresh --out each
#       time, runs of the two interleaved: wall s of the points (--no-plot),
#       their CPU s and the cores -j 2 got (CPU s / wall s: below 2 when other
#       jobs hold the cores), wall s of `fecsim plot` of the sweep (the serial
#       step after the points), and the speed-ups with and without the plots.
#       Every point's stats.json must be the same with -j 1 and -j 2.
#   (e) the fec driver of the Linux 6.12 tree (scenarios/imx6q/upstream-6.12-idle.ini)
#       against fecsim's own driver (copybreak-stock-idle.ini), the same
#       workload, 1 s each, runs of the two interleaved: wall s of the
#       simulation (summary.json wall_time_s) of each and their ratio per
#       pair (target <= 1.5).
#
# Output: the tables on stdout, the section between the "bench" markers of
# bench/results.md replaced (profile: the "profile" section; text outside the
# markers is kept). Run outputs go to bench/out/ (git-ignored), the callgrind
# file to bench/callgrind.out.fecsim (git-ignored).
#
# Exit status: 0 when every benchmark ran (PASS or MISS); 1 when a run failed;
# 2 bad usage. Needs POSIX sh, awk, GNU coreutils (date +%N, sort -g).
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
ONLY=${BENCH_ONLY:-a b c d e}
out=$builddir/bench/out
results=$srcdir/bench/results.md
scen_a=$srcdir/scenarios/imx6q/copybreak-stock-idle.ini
scen_b=$srcdir/bench/gbit-64b.ini

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

# verdict VALUE OP TARGET: PASS or MISS (OP: ge or lt); MISS for nan.
verdict()
{
    awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN {
        if (v == "nan" || v == "") { print "MISS"; exit }
        ok = (op == "ge") ? (v + 0 >= t + 0) : (v + 0 < t + 0)
        print ok ? "PASS" : "MISS" }'
}

# row NAME UNIT SCALE FMT TARGET_TEXT OP TARGET < numbers: one table row with
# median/min/max of the numbers divided by SCALE, printed with FMT.
table=$out/table.md
row()
{
    name=$1 unit=$2 scale=$3 fmt=$4 ttext=$5 op=$6 target=$7
    set -- $(stats)
    med=$1 min=$2 max=$3
    line=$(awk -v n="$name" -v u="$unit" -v s="$scale" -v f="$fmt" -v a="$med" -v b="$min" -v c="$max" \
        'BEGIN { if (a == "nan") { printf "| %s | %s | n/a | n/a | n/a |", n, u; exit }
                 printf "| %s | %s | " f " | " f " | " f " |", n, u, a / s, b / s, c / s }')
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
        echo "| figure | unit | median | min | max | target | |"
        echo "|---|---|---:|---:|---:|---|---|"
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

# scenario_bench TAG SCENARIO: N runs of fecsim run SCENARIO; appends the
# RTF, frames/s, peak RSS and process wall rows to the table; checks that
# stats.json is identical over the runs (same scenario + seed).
scenario_bench()
{
    tag=$1 scen=$2
    d=$out/$tag
    rm -rf "$d"
    mkdir -p "$d"
    # Untimed warm-up: the driver build cache and the page cache.
    "$FECSIM" run "$scen" -o scenario.duration=1ms --quiet --out "$d/warm" >/dev/null 2>"$d/warm.err" || {
        echo "bench ($tag): warm-up run failed:" >&2
        cat "$d/warm.err" >&2
        failed=1
        return 0
    }
    : >"$d/rtf"
    : >"$d/fps"
    : >"$d/rss"
    : >"$d/rtf_cpu"
    : >"$d/pwall"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        r=$d/run$i
        mkdir -p "$r"
        t0=$(now)
        rc=0
        measured_run "$r/rusage" "$FECSIM" run "$scen" --json --quiet --run-dir "$r/result" \
            >"$r/summary.json" 2>"$r/stderr" || rc=$?
        t1=$(now)
        if [ "$rc" != 0 ]; then
            echo "bench ($tag): run $i failed with status $rc:" >&2
            cat "$r/stderr" >&2
            failed=1
        else
            jnum realtime_factor "$r/summary.json" >>"$d/rtf"
            awk -v f="$(jnum frames_offered "$r/summary.json")" -v w="$(jnum wall_time_s "$r/summary.json")" \
                'BEGIN { print f / w }' >>"$d/fps"
            awk '$1 != "nan" { print $1 * 1024 / 1e6 }' "$r/rusage" >>"$d/rss"
            # RTF on CPU time: simulated s / (user + sys) s of the whole process
            # (start-up included); time-sharing with other jobs does not lower it.
            awk -v w="$(jnum warmup_s "$r/summary.json")" -v m="$(jnum sim_time_s "$r/summary.json")" \
                '$2 != "nan" && $2 + $3 > 0 { print (w + m) / ($2 + $3) }' "$r/rusage" >>"$d/rtf_cpu"
            awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$d/pwall"
            printf '  %s run %d/%d: RTF %s, load %s\n' "$tag" "$i" "$RUNS" \
                "$(jnum realtime_factor "$r/summary.json")" "$(loadavg)" >&2
        fi
        i=$((i + 1))
    done
    # Determinism: every run's stats.json must be the same bytes.
    same=yes
    for s in "$d"/run*/result/stats.json; do
        [ -f "$s" ] || continue
        cmp -s "$s" "$d/run1/result/stats.json" || same=no
    done
    echo "$same" >"$d/deterministic"
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

machine_lines()
{
    echo "- machine: $cpu, $cores cores, $mem RAM"
    echo "- fecsim: \`$version\` (sim/fecsim --version); source tree: git $rev"
    echo "- date: $date_utc"
}

# --- make profile -----------------------------------------------------------

if [ "$mode" = profile ]; then
    command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null || {
        echo "$0: valgrind/callgrind_annotate not found (Debian package valgrind)" >&2
        exit 2
    }
    d=$out/profile
    rm -rf "$d"
    mkdir -p "$d"
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
    # incl FUNCTION-REGEX: the largest inclusive count of a function's rows.
    incl()
    {
        awk -v re="$1" '/^Ir +file:function/ { on = 1; getline; next }
            on && NF { line = $0; sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", line)
                c = index(line, ":"); fn = substr(line, c + 1); sub(/ \[[^]]*\]$/, "", fn)
                if (fn ~ re) { v = $1; gsub(/,/, "", v); if (v + 0 > m) m = v + 0 } }
            END { print m + 0 }' "$d/annotate-inclusive.txt"
    }
    insim=$(incl '^sc_core::sc_start\(sc_core::sc_time const&')
    warm=$(awk -v v="$(jnum warmup_s "$d/summary.json")" 'BEGIN { printf "%g", v }')
    meas=$(awk -v v="$(jnum sim_time_s "$d/summary.json")" 'BEGIN { printf "%g", v }')
    frames=$(jnum frames_offered "$d/summary.json")
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
            '^models::cache::arm_dma_sync_for_cpu\(|  of which arm_dma_sync_for_cpu (L1 + PL310 maintenance)' \
            '^models::cache::arm_dma_sync_for_device\(|  of which arm_dma_sync_for_device (L1 + PL310 maintenance)' \
            '^sim::coherence_checker::on_dma\(|  of which coherence_checker::on_dma'; do
            re=${p%%|*}
            what=${p#*|}
            awk -v v="$(incl "$re")" -v t="$total" -v w="$what" 'BEGIN { printf "%13.0f %5.1f%%  %s\n", v, 100 * v / t, w }'
        done
        echo '```'
        echo "<!-- END profile -->"
    } >"$sect"
    sed -e '/^<!--/d' "$sect"
    put_section profile "$sect"
    echo "make profile: $cg; listings in $d/; bench/results.md updated" >&2
    exit 0
fi

# --- make bench -------------------------------------------------------------

: >"$table"
echo "make bench: $RUNS run(s) each, load $load_start ($cpu, $cores cores)" >&2

case " $ONLY " in *" a "*)
    echo "(a) copybreak-stock-idle, 10 s ..." >&2
    load_a=$(loadavg)
    scenario_bench a "$scen_a"
    header "(a) i.MX6Q stock copybreak, idle: scenarios/imx6q/copybreak-stock-idle.ini as is (10 s + 50 ms warm-up, 46.3 k frames/s); load at start $load_a; stats.json identical over the runs: $(cat "$out/a/deterministic")"
    row "real-time factor" "sim s / wall s" 1 "%.2f" ">= 2 (aim 10)" ge 2 <"$out/a/rtf"
    row "real-time factor on CPU time (time-sharing excluded)" "sim s / CPU s" 1 "%.2f" "" "" "" <"$out/a/rtf_cpu"
    row "frames offered per wall s" "k frames/s" 1000 "%.1f" "" "" "" <"$out/a/fps"
    row "peak RSS" "MB" 1 "%.1f" "" "" "" <"$out/a/rss"
    row "process wall time" "s" 1 "%.2f" "" "" "" <"$out/a/pwall"
    ;;
esac

case " $ONLY " in *" b "*)
    echo "(b) gbit-64b, 1 s ..." >&2
    load_b=$(loadavg)
    scenario_bench b "$scen_b"
    header "(b) 1 Gbit/s, 64-B frames at line rate (1.488 M frames/s offered): bench/gbit-64b.ini (1 s + 50 ms warm-up); load at start $load_b; stats.json identical over the runs: $(cat "$out/b/deterministic")"
    row "real-time factor" "sim s / wall s" 1 "%.2f" ">= 1" ge 1 <"$out/b/rtf"
    row "real-time factor on CPU time (time-sharing excluded)" "sim s / CPU s" 1 "%.2f" "" "" "" <"$out/b/rtf_cpu"
    row "frames offered per wall s" "k frames/s" 1000 "%.1f" "" "" "" <"$out/b/fps"
    row "peak RSS" "MB" 1 "%.1f" "< 200" lt 200 <"$out/b/rss"
    row "process wall time" "s" 1 "%.2f" "" "" "" <"$out/b/pwall"
    ;;
esac

case " $ONLY " in *" c "*)
    echo "(c) bench_cache ..." >&2
    load_c=$(loadavg)
    mkdir -p "$out/c"
    if ! "$builddir/bench/bench_cache" 20000 "$RUNS" >"$out/c/out.txt" 2>&1; then
        cat "$out/c/out.txt" >&2
        failed=1
    fi
    cat "$out/c/out.txt" >&2
    header "(c) cache micro-benchmark: bench/bench_cache 20000 $RUNS (20 000 frames, one process per run); load at start $load_c"
    # bench_cache prints the median, min and max itself: pass them through.
    set -- $(sed -n 's/.*median \([0-9.]*\) M line ops\/s (min \([0-9.]*\), max \([0-9.]*\)).*/\1 \2 \3/p' "$out/c/out.txt")
    if [ $# = 3 ]; then
        line="| line operations per wall s | M ops/s | $1 | $2 | $3 | >= 20 | $(verdict "$1" ge 20) |"
    else
        line="| line operations per wall s | M ops/s | n/a | n/a | n/a | >= 20 | MISS |"
        failed=1
    fi
    echo "$line" >>"$table"
    echo "$line"
    ;;
esac

case " $ONLY " in *" d "*)
    echo "(d) 16-point sweep, -j 1 and -j 2 ..." >&2
    load_d=$(loadavg)
    d=$out/d
    rm -rf "$d"
    mkdir -p "$d"
    "$FECSIM" run "$scen_a" -o scenario.duration=1ms --quiet --out "$d/warm" >/dev/null 2>&1 || true
    : >"$d/j1"
    : >"$d/j2"
    : >"$d/plot"
    : >"$d/ratio"
    : >"$d/ratio_plot"
    : >"$d/cpu-j1"
    : >"$d/cpu-j2"
    : >"$d/cores-j1"
    : >"$d/cores-j2"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        for j in 1 2; do
            rm -rf "$d/out-j$j"
            t0=$(now)
            if ! measured_run "$d/rusage-j$j-$i" "$FECSIM" sweep "$scen_a" -o scenario.duration=100ms --vary driver.copybreak=64,128,256,512 \
                --vary traffic.frame_bytes=64,128,246,512 -j "$j" --name bench --no-plot -q \
                --out "$d/out-j$j" >"$d/sweep-j$j-$i.log" 2>&1; then
                cat "$d/sweep-j$j-$i.log" >&2
                failed=1
            fi
            t1=$(now)
            awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$d/j$j"
            # CPU s of the sweep and its points; cores used = CPU s / wall s
            awk -v a="$t0" -v b="$t1" '$2 != "nan" { print $2 + $3 >> "'"$d/cpu-j$j"'"; print ($2 + $3) / (b - a) >> "'"$d/cores-j$j"'" }' \
                "$d/rusage-j$j-$i"
        done
        # The plots of the sweep, as `fecsim sweep` without --no-plot draws them.
        t0=$(now)
        "$FECSIM" plot -q "$d/out-j1/imx6q-copybreak-stock-idle/sweep-bench" >"$d/plot-$i.log" 2>&1 || {
            cat "$d/plot-$i.log" >&2
            failed=1
        }
        t1=$(now)
        awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$d/plot"
        j1=$(tail -n 1 "$d/j1") j2=$(tail -n 1 "$d/j2") p=$(tail -n 1 "$d/plot")
        awk -v a="$j1" -v b="$j2" 'BEGIN { print a / b }' >>"$d/ratio"
        awk -v a="$j1" -v b="$j2" -v p="$p" 'BEGIN { print (a + p) / (b + p) }' >>"$d/ratio_plot"
        printf '  d run %d/%d: -j1 %.2f s, -j2 %.2f s, plot %.2f s, load %s\n' "$i" "$RUNS" "$j1" "$j2" "$p" \
            "$(loadavg)" >&2
        i=$((i + 1))
    done
    # Same points, same results: each point's stats.json of -j 1 and -j 2
    # must be the same bytes (sweep.csv differs: wall times and run ids).
    same=yes
    n=0
    for s in "$d"/out-j1/imx6q-copybreak-stock-idle/sweep-bench/p*/stats.json; do
        [ -f "$s" ] || continue
        n=$((n + 1))
        cmp -s "$s" "$d/out-j2/${s#"$d"/out-j1/}" || same=no
    done
    [ "$n" = 16 ] || same="no ($n of 16 points)"
    header "(d) sweep: \`fecsim sweep scenarios/imx6q/copybreak-stock-idle.ini -o scenario.duration=100ms --vary driver.copybreak=64,128,256,512 --vary traffic.frame_bytes=64,128,246,512\` (16 points of 150 ms simulated), -j 1 and -j 2 interleaved; load at start $load_d; stats.json of every point identical with -j 1 and -j 2: $same"
    row "sweep wall, -j 1 (--no-plot)" "s" 1 "%.2f" "" "" "" <"$d/j1"
    row "sweep wall, -j 2 (--no-plot)" "s" 1 "%.2f" "" "" "" <"$d/j2"
    row "sweep CPU time (user + sys), -j 1" "s" 1 "%.2f" "" "" "" <"$d/cpu-j1"
    row "sweep CPU time (user + sys), -j 2" "s" 1 "%.2f" "" "" "" <"$d/cpu-j2"
    row "cores used by -j 2 (CPU s / wall s; 2 = both cores)" "cores" 1 "%.2f" "" "" "" <"$d/cores-j2"
    row "fecsim plot of the sweep (serial)" "s" 1 "%.2f" "" "" "" <"$d/plot"
    row "speed-up -j 2 / -j 1, points" "x" 1 "%.2f" ">= 1.8" ge 1.8 <"$d/ratio"
    row "speed-up -j 2 / -j 1, with the plots" "x" 1 "%.2f" ">= 1.8" ge 1.8 <"$d/ratio_plot"
    ;;
esac

case " $ONLY " in *" e "*)
    if [ ! -f /usr/src/linux-source-6.12.tar.xz ]; then
        echo "bench (e): /usr/src/linux-source-6.12.tar.xz not installed: skipped" >&2
    else
        load_e=$(loadavg)
        d=$out/e
        rm -rf "$d"
        mkdir -p "$d"
        : >"$d/own"
        : >"$d/tree"
        : >"$d/ratio"
        # Untimed: the tree's extraction and the driver build caches.
        for s in copybreak-stock-idle upstream-6.12-idle; do
            "$FECSIM" run "$srcdir/scenarios/imx6q/$s.ini" -o scenario.duration=1ms --quiet --out "$d/warm" \
                >/dev/null 2>"$d/warm.err" || {
                cat "$d/warm.err" >&2
                failed=1
            }
        done
        i=1
        while [ "$i" -le "$RUNS" ]; do
            for s in copybreak-stock-idle upstream-6.12-idle; do
                "$FECSIM" run "$srcdir/scenarios/imx6q/$s.ini" -o scenario.duration=1s --quiet \
                    --run-dir "$d/$s-$i" >/dev/null 2>"$d/$s-$i.err" || {
                    cat "$d/$s-$i.err" >&2
                    failed=1
                }
            done
            own=$(jnum wall_time_s "$d/copybreak-stock-idle-$i/summary.json")
            tree=$(jnum wall_time_s "$d/upstream-6.12-idle-$i/summary.json")
            echo "$own" >>"$d/own"
            echo "$tree" >>"$d/tree"
            awk -v a="$own" -v b="$tree" 'BEGIN { if (a > 0) print b / a }' >>"$d/ratio"
            printf '  e run %d/%d: own %.3f s, tree %.3f s, load %s\n' "$i" "$RUNS" "$own" "$tree" "$(loadavg)" >&2
            i=$((i + 1))
        done
        header "(e) the Linux 6.12 tree's fec driver against fecsim's own: scenarios/imx6q/upstream-6.12-idle.ini and copybreak-stock-idle.ini, 1 s each, interleaved; load at start $load_e"
        row "own driver (copybreak-stock-idle), simulation wall" "s" 1 "%.3f" "" "" "" <"$d/own"
        row "6.12 tree driver (upstream-6.12-idle), simulation wall" "s" 1 "%.3f" "" "" "" <"$d/tree"
        row "tree / own, per pair" "x" 1 "%.2f" "<= 1.5" lt 1.5001 <"$d/ratio"
    fi
    ;;
esac

load_end=$(loadavg)
sect=$out/bench-section.md
{
    echo "<!-- BEGIN bench: generated by make bench (bench/run.sh); do not edit -->"
    echo "## Benchmarks (make bench)"
    echo
    machine_lines
    echo "- runs per figure: $RUNS (BENCH_RUNS); median, min and max of the runs; PASS/MISS on the median"
    echo "- load average (1, 5, 15 min): $load_start at start, $load_end at end (\`uptime\`: $(uptime | sed 's/^ *//'))"
    echo "- wall-clock figures depend on the load: on a busy machine they are low and noisy"
    cat "$table"
    echo "<!-- END bench -->"
} >"$sect"
put_section bench "$sect"
echo >&2
echo "make bench: load $load_end at end; bench/results.md updated; run outputs in $out/" >&2
exit $failed
