#!/bin/sh
# Rewrites tests/golden/copybreak.ref from the current build: the summary
# values the golden tier compares, for the four calibration scenarios
# shortened to 200 ms. Run it (make golden-update) only for a change meant to
# move the numbers, and say why in the commit.
set -e
srcdir=${1:-.}
fecsim=${2:-./sim/fecsim}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
{
    echo "# case key value tolerance (absolute, or % relative); written by tests/golden/update.sh"
    for c in stock-idle stock-stress patched-idle patched-stress; do
        "$fecsim" run "$srcdir/scenarios/imx6q/copybreak-$c.ini" --json --quiet \
            -o scenario.duration=200ms --out "$out" > "$out/$c.json"
        python3 - "$c" "$out/$c.json" <<'PY'
import json, sys
c, path = sys.argv[1], sys.argv[2]
s = json.load(open(path))
def task(s, name):
    return next((t["cpu_pct"] for t in s["tasks"] if t["name"] == name), 0.0)
rows = [("loss_pct", s["loss_pct"], "0.05"),
        ("frames_offered", s["frames_offered"], "0"),
        ("frames_delivered", s["frames_delivered"], "0.2%"),
        ("drops.mac_fifo", s["drops"]["mac_fifo"], "0.5%"),
        ("drops.socket", s["drops"]["socket"], "2"),
        ("dma_sync.lines", s["dma_sync"]["lines"], "0.2%"),
        ("cycles_per_frame.total", s["cycles_per_frame"]["total"], "0.5%"),
        ("cycles_per_frame.dma_sync", s["cycles_per_frame"]["dma_sync"], "0.5%"),
        ("coherence.violations", s["coherence"]["violations"], "0"),
        ("cpu.0.mpstat_soft_pct", s["cpu"][0]["mpstat_soft_pct"], "0.5"),
        ("cpu.0.mpstat_idle_pct", s["cpu"][0]["mpstat_idle_pct"], "0.5"),
        ("tasks.ksoftirqd/0.cpu_pct", task(s, "ksoftirqd/0"), "1"),
        ("tasks.iperf3.cpu_pct", task(s, "iperf3"), "0.5")]
for k, v, t in rows:
    print(f"{c} {k} {v} {t}")
PY
    done
} > "$srcdir/tests/golden/copybreak.ref"
echo "wrote $srcdir/tests/golden/copybreak.ref"
