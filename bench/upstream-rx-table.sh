#!/bin/sh
# The receive comparison of docs/real-drivers.md: fecsim's own v5.4 driver
# (stock and partial-sync) and the fec drivers of the Debian 6.12 and 6.1
# trees on the calibration workload (246-B frames at 46.3 k/s over
# 100 Mbit/s), idle and with stress -m, for DURATION (default 1s) each.
# Prints one markdown row per run; the runs stay under OUT.
#
#   bench/upstream-rx-table.sh [DURATION] [OUT]     (from the build tree)
set -e
cd "$(dirname "$0")/.."
DUR=${1:-1s}
OUT=${2:-results/upstream-rx-table}
FECSIM=${FECSIM:-./sim/fecsim}
rm -rf "$OUT"
echo "| driver | load | nominal | PAUSE sent | offered | delivered | loss % of offered (of nominal) | MAC FIFO | no free page / driver | socket | CPU0 softirq % | CPU1 sys+user % | RX core cycles/frame (stack, dma_sync, other) | dma_sync lines/frame | dma_sync cycles/frame | skb truesize B |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for s in copybreak-stock copybreak-patched upstream-6.12 upstream-6.1; do
    for load in idle stress; do
        $FECSIM run "scenarios/imx6q/$s-$load.ini" -q -o scenario.duration="$DUR" --out "$OUT/$s-$load" >/dev/null
        dir=$(ls -d "$OUT/$s-$load"/*/*/ | head -1)
        awk -v name="$s" -v load="$load" '
            FNR == 1 { f++ }
            f == 1 && $1 ~ /^"/ { k = $1; gsub(/[",:]/, "", k); v = $3; gsub(/,/, "", v); if (!(k in j) && v !~ /^[{[]/) j[k] = v }
            f == 2 && $1 !~ /^#/ { st[$1] = $2 }
            f == 3 && /^\[/ { grp = $0 }
            f == 3 && grp == "[traffic]" && /^frame_rate=/ { split($0, kv, "="); rate = kv[2] }
            END {
                n = st["enet.rx_delivered"]; if (n == 0) n = 1
                sync_cycles = st["cpu0.cat_dma_sync"] + st["cpu1.cat_dma_sync"] + st["cpu2.cat_dma_sync"] + st["cpu3.cat_dma_sync"]
                busy1 = st["cpu1.sys_ps"] + st["cpu1.user_ps"]
                tot1 = busy1 + st["cpu1.irq_ps"] + st["cpu1.softirq_ps"] + st["cpu1.idle_ps"]
                tot0 = st["cpu0.irq_ps"] + st["cpu0.softirq_ps"] + st["cpu0.sys_ps"] + st["cpu0.user_ps"] + st["cpu0.idle_ps"]
                other = j["total"] - j["stack"] - j["dma_sync"]
                drv = name ~ /^upstream/ ? "Linux " substr(name, 10) " (tree)" : "v5.4 " substr(name, 11)
                nominal = rate * j["sim_time_s"]
                printf "| %s | %s | %d | %d | %d | %d | %.2f (%.2f) | %d | %d | %d | %.1f | %.1f | %.0f (%.0f, %.0f, %.0f) | %.1f | %.0f | %s |\n",
                    drv, load, nominal, st["enet.pause_sent"], j["frames_offered"], j["frames_delivered"], j["loss_pct"],
                    nominal ? 100 * (nominal - j["frames_delivered"]) / nominal : 0, j["mac_fifo"], j["driver"],
                    j["socket"], tot0 ? 100 * st["cpu0.softirq_ps"] / tot0 : 0, tot1 ? 100 * busy1 / tot1 : 0,
                    j["total"], j["stack"], j["dma_sync"], other, st["kernel.dma_sync_lines"] / n, sync_cycles / n,
                    ("stack.skb_truesize" in st) ? st["stack.skb_truesize"] : "-"
            }' "$dir/summary.json" "$dir/stats.txt" "$dir/scenario.resolved.ini"
    done
done
