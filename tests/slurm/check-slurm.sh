#!/bin/sh
# tests/slurm/check-slurm.sh: a sweep on a Slurm cluster of one node, started
# here (munged, slurmctld, slurmd on this host, in a temporary directory), run
# by the installed fecsim with the source and build trees out of reach. Run by
# `make check-slurm` from the build tree (needs: abs_top_srcdir,
# abs_top_builddir, prefix, MAKE in the environment). Needs root and the
# Debian packages slurm-wlm and munge; without them it says why and skips
# (exit 0, "check-slurm: SKIP: ...").
#
# 1. make install DESTDIR=<tmp>/stage, the prefix moved to <tmp>/moved; where
#    a mount namespace can be had, the trees are covered with empty tmpfs
#    mounts and the daemons start inside it, so the jobs cannot see them;
# 2. the cluster: MaxArraySize=4 (sbatch refuses --array=0-4: checked), so
#    that a sweep of 6 points has to be submitted in chunks;
# 3. fecsim sweep --slurm of 6 points (3 seeds x 2 ms and 6 s of the idle
#    copybreak scenario), --array-max 4 --throttle 1: two array jobs and the
#    collect job; of the second array job, the pending task is cancelled and
#    the running one once it runs (scancel: SIGTERM);
# 4. the collect job's log and fecsim collect (exit 3): 4 finished, the
#    cancelled running point failed with its log and its Slurm log, the
#    pending one without a result; a run of that one killed with SIGKILL
#    leaves a temporary directory, which collect names;
# 5. fecsim sweep --slurm --missing submits exactly the two missing points;
#    then collect exits 0, nothing temporary is left;
# 6. an index past the points fails (exit 2, "out of range"), so does a task
#    whose driver cache is not writable (one line, also in the point's log);
#    the same point submitted twice at once is run once;
# 7. every point's stats.json is byte-identical to a local fecsim sweep's.
# Exit status 0 when all of it holds; the daemons are stopped and the
# temporary directory removed.
set -eu
fail() { echo "check-slurm: FAIL: $*" >&2; exit 1; }
skip() { echo "check-slurm: SKIP: $*"; exit 0; }
say() { echo "check-slurm: $*"; }

if [ "${1:-}" != --inside ]; then
    : "${abs_top_srcdir:?}" "${abs_top_builddir:?}" "${prefix:?}" "${MAKE:=make}"
    [ "$(id -u)" = 0 ] || skip "needs root (it starts munged, slurmctld and slurmd as root)"
    PATH=$PATH:/usr/sbin:/sbin
    for c in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
        command -v "$c" >/dev/null 2>&1 || skip "no $c: apt-get install slurm-wlm munge"
    done
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/fecsim-slurm.XXXXXX")
    chmod 755 "$tmp"
    stop_daemons() {
        # This test's own cluster: its jobs first (their slurmstepd outlive slurmd), then the daemons.
        if [ -s "$tmp/slurmctld.pid" ]; then
            jobs=$(SLURM_CONF="$tmp/slurm.conf" squeue -h -o %A 2>/dev/null | tr '\n' ' ')
            [ -z "$jobs" ] || { SLURM_CONF="$tmp/slurm.conf" scancel $jobs 2>/dev/null; sleep 2; }
        fi
        for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/pid"; do
            [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
        done
        sleep 1
    }
    trap 'st=$?; stop_daemons; [ "$st" -eq 0 ] || { echo "== slurmctld log (end)"; tail -n 30 "$tmp/log/slurmctld.log" 2>/dev/null; }; rm -rf "$tmp"' EXIT
    case $tmp in "$abs_top_srcdir"/* | "$abs_top_builddir"/*) fail "TMPDIR lies in the source or build tree" ;; esac
    say "make install DESTDIR=$tmp/stage"
    (cd "$abs_top_builddir" && $MAKE -s install DESTDIR="$tmp/stage" >"$tmp/install.log" 2>&1) ||
        { cat "$tmp/install.log"; fail "make install"; }
    mv "$tmp/stage$prefix" "$tmp/moved"
    cp "$0" "$tmp/check-slurm.sh"
    export tmp abs_top_srcdir abs_top_builddir PATH
    if unshare -m true 2>/dev/null; then
        say "source and build trees hidden (mount namespace; the Slurm daemons and jobs start in it)"
        unshare -m sh -c 'mount -t tmpfs none "$abs_top_srcdir" && mount -t tmpfs none "$abs_top_builddir" &&
            exec sh "$tmp/check-slurm.sh" --inside' || exit 1
    else
        say "no mount namespace: the trees stay visible (the install was moved)"
        sh "$tmp/check-slurm.sh" --inside || exit 1
    fi
    say "PASS"
    exit 0
fi

# --inside: the cluster, then the checks.
P=$tmp/moved
unset FECSIM_DATADIR
export FECSIM_CACHE="$tmp/cache" SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
export PATH="$P/bin:$PATH"
[ ! -e "$abs_top_builddir/sim/fecsim" ] || say "(the build tree at $abs_top_builddir is still visible)"

say "starting munged, slurmctld, slurmd"
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/munge"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/munge.key"
munged --force --socket="$tmp/munge/sock" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/pid" \
    --log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed" || fail "munged does not start"
host=$(hostname -s)
# Ports of this test's cluster, from its pid, so that two runs on one machine do not meet.
port=$((20000 + $$ % 10000 * 2))
mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
cat >"$tmp/slurm.conf" <<EOF
ClusterName=fecsimtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/builtin
MaxArraySize=4
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -i -f "$SLURM_CONF" || fail "slurmctld does not start"
slurmd -f "$SLURM_CONF" || fail "slurmd does not start"
i=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    [ $i -lt 100 ] || { sinfo; tail "$tmp/log/slurmd.log"; fail "the node does not become idle"; }
    sleep 0.2
done

# Waits until none of the jobs $* is in the queue (at most 240 s).
wait_jobs() {
    w=0
    while [ -n "$(squeue -h -j "$(echo "$*" | tr ' ' ,)" -o %i 2>/dev/null)" ]; do
        w=$((w + 1))
        [ $w -lt 1200 ] || { squeue; fail "jobs $* still queued after 240 s"; }
        sleep 0.2
    done
}
# The array job ids and the collect job id of submit.sh's output in file $1.
array_ids() { sed -n 's/^array job \([0-9]*\):.*/\1/p' "$1" | tr '\n' ' '; }
collect_id() { sed -n 's/^collect job \([0-9]*\):.*/\1/p' "$1"; }

sbatch --array=0-4 --wrap true >"$tmp/big.txt" 2>&1 && fail "sbatch took --array=0-4 with MaxArraySize=4"
grep -q 'MaxArraySize\|Invalid job array' "$tmp/big.txt" || { cat "$tmp/big.txt"; fail "sbatch's refusal"; }

mkdir "$tmp/shared" "$tmp/work"
cd "$tmp/work"
S=$P/share/fecsim/scenarios/imx6q/copybreak-stock-idle.ini
SWEEP="$S --vary scenario.seed=1..3 --vary scenario.duration=2ms,6s --name slurm --no-plot"
D=$tmp/shared/imx6q-copybreak-stock-idle/sweep-slurm
point() { sed -n "$(($1 + 1))p" "$D/points.txt"; }

say "fecsim sweep --slurm: 6 points in arrays of at most 4 tasks"
t0=$(date +%s)
fecsim sweep $SWEEP --out "$tmp/shared" --array-max 4 --throttle 1 --slurm -q >"$tmp/submit1.txt" ||
    { cat "$tmp/submit1.txt"; fail "fecsim sweep --slurm"; }
cat "$tmp/submit1.txt"
set -- $(array_ids "$tmp/submit1.txt")
[ $# -eq 2 ] || fail "not 2 array jobs"
j1=$1 j2=$2 c1=$(collect_id "$tmp/submit1.txt")
[ -n "$c1" ] || fail "no collect job"
[ -d "$D/data/drivers/fec" ] || fail "no data/ in the sweep directory"
# The second array job holds points 4 and 5; with --throttle 1 task 1 waits for task 0.
scancel "${j2}_1" || fail "scancel ${j2}_1"
p4=$(point 4) p5=$(point 5)
w=0
until [ -e "$D/.$p4.lock" ]; do
    w=$((w + 1))
    [ $w -lt 600 ] || { squeue; fail "point 4 did not start"; }
    sleep 0.2
done
scancel "${j2}_0" || fail "scancel ${j2}_0"
wait_jobs "$j1" "$j2" "$c1"
say "first submission ended after $(($(date +%s) - t0)) s"

grep -q "4 of 6 points finished; 1 failed, 0 running, 1 without a result yet" "$D/logs/collect-$c1.out" ||
    { cat "$D/logs/collect-$c1.out"; fail "the collect job's log"; }
for t in 0 1 2 3; do
    grep -q "point $(point $t): finished after" "$D/logs/slurm-${j1}_$t.out" ||
        { cat "$D/logs/slurm-${j1}_$t.out"; fail "task $t's Slurm log does not say it finished"; }
done

# A run of point 5 killed with SIGKILL: its temporary directory stays.
line=$(sed -n 6p "$D/jobs.txt")
sh -c "$line" &
w=0
until ls -a "$D" | grep -q '^\.tmp-'; do
    w=$((w + 1))
    [ $w -lt 300 ] || fail "no temporary directory of the local run"
    sleep 0.1
done
victim=$(ls -a "$D" | sed -n 's/^\.tmp-\([0-9]*\)@.*/\1/p' | head -n 1)
kill -9 "$victim"
wait || true

st=0
fecsim collect "$D" >"$tmp/collect1.txt" 2>&1 || st=$?
cat "$tmp/collect1.txt"
[ "$st" -eq 3 ] || fail "fecsim collect with a failed point: exit $st, not 3"
grep -q "failed: $p4 (stopped by SIGTERM (scancel, or the time limit); Slurm: cancelled)" "$tmp/collect1.txt" ||
    fail "collect does not name $p4 as stopped and cancelled"
grep -q "log $D/logs/$p4.log, Slurm log $D/logs/slurm-${j2}_0.out" "$tmp/collect1.txt" ||
    fail "collect does not point at $p4's logs"
grep -q "no result yet: $p5" "$tmp/collect1.txt" || fail "collect does not list $p5 as without a result"
grep -q "stale temporary directory $D/.tmp-$victim@" "$tmp/collect1.txt" || fail "collect does not name the stale directory"

say "fecsim sweep --slurm --missing"
fecsim sweep $SWEEP --out "$tmp/shared" --array-max 4 --slurm --missing -q >"$tmp/submit2.txt" ||
    { cat "$tmp/submit2.txt"; fail "fecsim sweep --slurm --missing"; }
cat "$tmp/submit2.txt"
set -- $(array_ids "$tmp/submit2.txt")
[ $# -eq 1 ] || fail "--missing: not 1 array job"
grep -q "^submit '0-1' [0-9:]* 4 4-5$" "$D/submit.sh" || { cat "$D/submit.sh"; fail "--missing: not points 4-5 alone"; }
j3=$1 c3=$(collect_id "$tmp/submit2.txt")
wait_jobs "$j3" "$c3"
fecsim collect "$D" >"$tmp/collect2.txt" 2>&1 || { cat "$tmp/collect2.txt"; fail "fecsim collect after --missing: not 0"; }
grep -q "6 of 6 points finished" "$tmp/collect2.txt" || fail "collect: not 6 of 6"
grep -q "6 of 6 points finished" "$D/logs/collect-$c3.out" || fail "the second collect job's log"
! ls -a "$D" | grep -q '^\.tmp-\|\.lock$' || { ls -a "$D"; fail "temporary directories or locks left"; }

say "an index past the points; the same point twice at once"
oor=$(sbatch --parsable --array=3 "$D/sweep.sbatch" 4)
oor=${oor%%;*}
p3=$(point 3)
rm -r "${D:?}/$p3"
nc=$(FECSIM_CACHE=/proc/fecsim-cache sbatch --parsable --array=0 "$D/sweep.sbatch" 0)
nc=${nc%%;*}
d1=$(sbatch --parsable --array=3 "$D/sweep.sbatch" 0)
d2=$(sbatch --parsable --array=3 "$D/sweep.sbatch" 0)
d1=${d1%%;*} d2=${d2%%;*}
wait_jobs "$oor" "$nc" "$d1" "$d2"
grep -q "driver cache /proc/fecsim-cache is not writable (set FECSIM_CACHE)" "$D/logs/slurm-${nc}_0.out" ||
    { cat "$D/logs/slurm-${nc}_0.out"; fail "the node check of the driver cache"; }
tail -n 1 "$D/logs/$(point 0).log" | grep -q "^== node check failed: driver cache /proc/fecsim-cache" ||
    fail "the failed node check is not in the point's log"
grep -q "task 3 of offset 4 is point 7: out of range (the sweep has points 0..5" "$D/logs/slurm-${oor}_3.out" ||
    { cat "$D/logs/slurm-${oor}_3.out"; fail "out-of-range task's log"; }
scontrol show job "$oor" | grep -q 'ExitCode=2:0' || { scontrol show job "$oor"; fail "out-of-range task: not exit 2"; }
n=$(cat "$D/logs/slurm-${d1}_3.out" "$D/logs/slurm-${d2}_3.out" | grep -c "point $p3: finished after" || true)
[ "$n" -eq 1 ] || { cat "$D/logs/slurm-${d1}_3.out" "$D/logs/slurm-${d2}_3.out"; fail "point 3 submitted twice: finished $n times"; }
cat "$D/logs/slurm-${d1}_3.out" "$D/logs/slurm-${d2}_3.out" | grep -q "point $p3: not run here: fecsim run: .*\(is being run by\|already holds a finished run\)" ||
    fail "the second of the two did not say why it did not run"

say "the same sweep locally"
fecsim sweep $SWEEP --out "$tmp/local" -j 2 -q >/dev/null 2>"$tmp/local.txt" || { cat "$tmp/local.txt"; fail "local sweep"; }
L=$tmp/local/imx6q-copybreak-stock-idle/sweep-slurm
k=0
while read -r p; do
    cmp "$D/$p/stats.json" "$L/$p/stats.json" || fail "$p: stats.json differs between Slurm and the local run"
    k=$((k + 1))
done <"$D/points.txt"
[ "$k" -eq 6 ] || fail "$k points compared, not 6"
say "6 points byte-identical to the local sweep; $(($(date +%s) - t0)) s in all"
