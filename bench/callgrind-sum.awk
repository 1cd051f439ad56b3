# bench/callgrind-sum.awk: sums the self instruction counts of a
# `callgrind_annotate --auto=no --threshold=100` listing (rows
# "N (p%)  file:function [object]") by function and by component.
# callgrind lists the code of a function inlined from a header under that
# header's file name, so one function has several rows: they are merged here.
# Recursion markers ('2) are merged into the function too.
#
#   awk -v what=functions -v n=15 -f callgrind-sum.awk LISTING   top n functions
#   awk -v what=components -f callgrind-sum.awk LISTING           every component
# Output rows: instructions, percent of the listing's total, name; sorted by
# instructions, then name (deterministic for a given listing).
/^Ir +file:function/ { on = 1; getline; next }
on && NF {
    ir = $1
    gsub(/,/, "", ir)
    line = $0
    sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", line)
    obj = ""
    if (match(line, / \[[^]]*\]$/)) {
        obj = substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, 1, RSTART - 1)
    }
    c = index(line, ":")
    file = substr(line, 1, c - 1)
    fn = substr(line, c + 1)
    sub(/'[0-9]+$/, "", fn)
    if (fn ~ /^0x[0-9a-f]+$/ && obj != "") fn = fn " [" obj "]"
    per_fn[fn] += ir
    total += ir
    comp = "other"
    if (obj ~ /driver\.so$/ || file ~ /drivers\/fec\//) comp = "driver code itself (driver.so, instrumented)"
    else if (fn ~ /coherence_checker/) comp = "DMA coherence checker (drivers/khost/coherence.cc)"
    else if (fn ~ /^models::(timeline|rr_port)::/ || file ~ /models\/common\/(timeline|rr_port)\.h/) comp = "resource timelines and port arbitration (models/common)"
    else if (fn ~ /^models::cache::/) comp = "cache models: L1, PL310 (models/cache)"
    else if (fn ~ /^khost::(v7_|l2c210_|arm_dma_|l2_op|l2_lines|l1_range)/) comp = "ARM DMA maintenance (drivers/khost/arm_dma.cc)"
    else if (fn ~ /^khost::(stressor|hog_program|hog_task|stress_)/) comp = "memory hog (drivers/khost/stress.cc, hog_task.cc)"
    else if (fn ~ /^models::mem::/) comp = "NoC, DRAM (models/mem)"
    else if (fn ~ /^models::enet::/) comp = "ENET MAC (models/enet)"
    else if (file ~ /models\/(traffic|net)\// || fn ~ /^traffic_|^models::traffic::|l4_sum/) comp = "frames: build, FCS, payload verification (models/net, models/traffic)"
    else if (fn ~ /^models::cpu::/) comp = "cores (models/cpu)"
    else if (fn ~ /^(sim::|khost::|__tsan_|__sanitizer_cov|simhost_|shim_|stack_|skb_|napi_)/ || file ~ /drivers\/shim\//) comp = "driver hooks, kernel host, shim, UDP stack, app (drivers/khost, drivers/shim, sim/)"
    else if (obj ~ /libsystemc/ || fn ~ /^(sc_core::|tlm::|sc_dt::|sc_cor)/) comp = "SystemC kernel (libsystemc: scheduler, events, coroutines)"
    else if (obj ~ /libc\.so/) comp = "libc (malloc/free, memcpy, memset)"
    else if (obj ~ /ld-linux/ || file ~ /^\.\/elf\//) comp = "dynamic loader"
    else if (obj ~ /lib(glib|gobject|json-glib|stdc\+\+)/) comp = "GLib, json-glib, libstdc++ (start-up, results)"
    per_comp[comp] += ir
}
END {
    cmd = "sort -k1,1nr -k3"
    if (what == "components") {
        for (k in per_comp) printf "%13.0f %5.1f%%  %s\n", per_comp[k], 100 * per_comp[k] / total, k | cmd
    } else {
        if (n == "") n = 15
        cmd = cmd " | head -n " n
        for (k in per_fn) printf "%13.0f %5.1f%%  %s\n", per_fn[k], 100 * per_fn[k] / total, k | cmd
    }
    close(cmd)
}
