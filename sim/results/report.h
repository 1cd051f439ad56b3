// sim/results/report.h: a finished run's counters in the formats of the
// Linux tools a board is measured with, to put beside the board's output
// (fecsim report RUN_DIR --as FORMAT).
//
// Contract: everything comes from the run directory's stats.json (counters
// of the measured time, after the warm-up) and scenario.resolved.ini (which
// core takes the ENET interrupt); nothing is simulated again. Each format
// keeps its tool's layout and names, so `diff` or `paste` against the board's
// output lines up:
//   ethtool   `ethtool -S eth0`: "NIC statistics:" then the driver's
//             get_ethtool_stats names and values
//   mpstat    `mpstat -P ALL` over the measured time: the "Average:" block,
//             CPU all then one line per core, %usr %nice %sys %iowait %irq
//             %soft %steal %guest %gnice %idle (nice, iowait, steal, guest,
//             gnice: 0, nothing on the simulated board does that)
//   sar       `sar -I ALL` over the measured time: the "Average:" block,
//             INTR sum then the ENET interrupt (150), intr/s
//   softnet   /proc/net/softnet_stat of v5.4: one line per CPU, eleven
//             %08x columns (processed, dropped, time_squeeze, five zeros,
//             cpu_collision, received_rps, flow_limit_count); the NET_RX
//             counters belong to the ENET interrupt's core
//   nstat     `nstat -az`: "#kernel", then the /proc/net/snmp counters the
//             stack keeps as IpInReceives, UdpInDatagrams, ... with the
//             (daemon-less) rate column 0.0
#pragma once
#include <string>
#include <vector>

namespace sim {

// The format names, in --help order.
const std::vector<std::string>& report_formats();

// The text of run directory `dir` in `format`. On failure returns false and
// says why in *err (naming the file or the format).
bool report_text(const std::string& dir, const std::string& format, std::string* out, std::string* err);

} // namespace sim
