// Drivers taken from a kernel source tree ([driver] tree=, name=): bad trees
// are refused before anything runs, naming the scenario line; a driver that
// uses kernel symbols the shim does not provide is refused with all of them
// and the driver lines that use them; a stop-on-call function stops the run
// (exit 3) naming itself and its caller. The trees here are small synthetic
// ones written by the tests (Makefile + the fec file names).
#include "tests/lib.h"
#include <regex>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include "tests/system/cli.h"

namespace {

std::string g_tmp;
void setup() { g_tmp = tmp_dir(); }
void teardown() { rm_rf(g_tmp); }

void put(const std::string& path, const std::string& text)
{
    std::string dir;
    for (size_t i = 1; i < path.size(); i++)
        if (path[i] == '/')
            mkdir(path.substr(0, i).c_str(), 0755);
    std::ofstream(path) << text;
}

// A tree of kernel `version` whose fec files are the given sources.
std::string make_tree(const std::string& version, const std::string& main_c, const std::string& ptp_c = "")
{
    const std::string root = g_tmp + "/linux";
    const size_t dot = version.find('.');
    put(root + "/Makefile", "# SPDX-License-Identifier: GPL-2.0\nVERSION = " + version.substr(0, dot) +
                                "\nPATCHLEVEL = " + version.substr(dot + 1) + "\nSUBLEVEL = 7\nEXTRAVERSION =\n");
    const std::string d = root + "/drivers/net/ethernet/freescale/";
    put(d + "fec.h", "#include <linux/platform_device.h>\n");
    put(d + "fec_main.c", main_c);
    put(d + "fec_ptp.c", ptp_c.empty() ? "#include \"fec.h\"\n" : ptp_c);
    return root;
}

std::string scenario(const std::string& tree, const std::string& name = "fec", const std::string& duration = "1ms")
{
    const std::string f = g_tmp + "/tree.ini";
    put(f, "[scenario]\nid=tree\nduration=" + duration + "\n[driver]\ntree=" + tree + "\n" +
               (name.empty() ? "" : "name=" + name + "\n"));
    return f;
}

proc_result run(const std::string& ini) { return fecsim({"run", ini, "-q", "--out", g_tmp + "/res"}); }

// A platform driver whose probe is `body`.
std::string driver_with_probe(const std::string& decls, const std::string& body)
{
    return "#include <linux/module.h>\n#include \"fec.h\"\n" + decls +
           "\nstatic int fec_probe(struct platform_device *pdev)\n{\n" + body +
           "\n}\nstatic const struct platform_device_id fec_devtype[] = { { .name = \"imx6q-fec\" }, { } };\n"
           "static struct platform_driver fec_driver = {\n\t.driver = { .name = \"fec\" },\n"
           "\t.id_table = fec_devtype,\n\t.probe = fec_probe,\n};\nmodule_platform_driver(fec_driver);\n";
}

} // namespace

START_TEST(test_unsupported_version_is_refused)
{
    const proc_result r = run(scenario(make_tree("5.10", "")));
    ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.err.c_str());
    ck_assert_msg(r.err.find("tree.ini:5: error:") != std::string::npos, "no scenario line: %s", r.err.c_str());
    ck_assert_msg(r.err.find("Makefile:3: kernel 5.10 has no shim API level; supported kernel trees: 6.1, 6.12") !=
                      std::string::npos,
                  "%s", r.err.c_str());
    ck_assert(!exists(g_tmp + "/res"));
}
END_TEST

START_TEST(test_bad_tree_and_name_are_refused)
{
    proc_result r = run(scenario(g_tmp));  // a directory without a Makefile
    ck_assert_msg(r.status == 2 && r.err.find("is not a kernel source tree") != std::string::npos, "%d %s", r.status,
                  r.err.c_str());
    const std::string tree = make_tree("6.12", "");
    r = run(scenario(tree, "gianfar"));
    ck_assert_msg(r.status == 2 && r.err.find("'gianfar' is not a driver fecsim can build") != std::string::npos &&
                      r.err.find("known drivers: fec") != std::string::npos,
                  "%d %s", r.status, r.err.c_str());
    r = run(scenario(tree, ""));
    ck_assert_msg(r.status == 2 && r.err.find("driver.tree needs driver.name") != std::string::npos, "%d %s",
                  r.status, r.err.c_str());
    rm_rf(tree + "/drivers/net/ethernet/freescale/fec_ptp.c");
    r = run(scenario(tree));
    ck_assert_msg(r.status == 2 && r.err.find("has no drivers/net/ethernet/freescale/fec_ptp.c") != std::string::npos,
                  "%d %s", r.status, r.err.c_str());
    r = run(scenario(g_tmp + "/nowhere"));
    ck_assert_msg(r.status == 2 && r.err.find("tree.ini:5: error:") != std::string::npos, "%d %s", r.status,
                  r.err.c_str());
    ck_assert(!exists(g_tmp + "/res"));
}
END_TEST

// Every missing symbol at once, each with the driver lines that use it
// (calls in two files, and a function-pointer initializer); what the shim
// provides (the clk API) is not listed.
START_TEST(test_missing_symbols_are_all_listed)
{
    const std::string main_c = driver_with_probe(
        "#include <linux/clk.h>\nvoid fecsim_test_missing_a(void);\nint fecsim_test_missing_b(int);\n"
        "static int (*const hook)(int) __used = fecsim_test_missing_b;\n",
        "\tstruct clk *c = devm_clk_get(&pdev->dev, \"ipg\");\n\tfecsim_test_missing_a();\n"
        "\treturn clk_prepare_enable(c);");
    const std::string ptp_c = "#include \"fec.h\"\nvoid fecsim_test_missing_a(void);\n"
                              "void fec_ptp_x(void);\nvoid fec_ptp_x(void)\n{\n\tfecsim_test_missing_a();\n}\n";
    const proc_result r = run(scenario(make_tree("6.12", main_c, ptp_c)));
    ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.err.c_str());
    const char* const want[] = {
        "(Linux 6.12.7) uses",
        "fecsim_test_missing_a: fec_main.c:",
        " (fec_probe), fec_ptp.c:6 (fec_ptp_x)",
        "fecsim_test_missing_b: fec_main.c:",
        "(initializer of hook)",
    };
    for (const char* w : want)
        ck_assert_msg(r.err.find(w) != std::string::npos, "no '%s' in: %s", w, r.err.c_str());
    ck_assert_msg(r.err.find("uses 2 kernel symbols") != std::string::npos && r.err.find("clk_") == std::string::npos,
                  "%s", r.err.c_str());
    ck_assert(!exists(g_tmp + "/res"));
}
END_TEST

// A function of drivers/shim/v6/stop_on_call.list stops the run when the
// driver calls it, naming the function and the driver line.
START_TEST(test_stop_on_call)
{
    const std::string main_c = driver_with_probe("int net_selftest_get_count(void);\n",
                                                 "\tdev_info(&pdev->dev, \"probing\");\n"
                                                 "\treturn net_selftest_get_count();");
    const std::string tree = make_tree("6.1", main_c);
    const proc_result r = run(scenario(tree));
    ck_assert_msg(r.status == 3, "exit %d: %s", r.status, r.err.c_str());
    // The run's version.txt records the tree's files with their sha256.
    const std::string version = read_text(only_subdir(only_subdir(g_tmp + "/res")) + "/version.txt");
    const proc_result sum = shell("sha256sum " + tree + "/drivers/net/ethernet/freescale/fec_main.c");
    ck_assert_msg(version.find("driver: fec from the kernel tree " + tree + " (Linux 6.1.7, shim API level 6.1), "
                               "its files compiled unchanged") != std::string::npos,
                  "%s", version.c_str());
    ck_assert_msg(version.find("sha256 " + sum.out.substr(0, 64) + "  drivers/net/ethernet/freescale/fec_main.c") !=
                      std::string::npos,
                  "%s", version.c_str());
    ck_assert_msg(r.err.find("driver fault: stop on call: net_selftest_get_count is not carried out by the shim") !=
                      std::string::npos,
                  "%s", r.err.c_str());
    ck_assert_msg(r.err.find(" in fec_probe (fec_main.c:8)") != std::string::npos, "no call site: %s", r.err.c_str());
    ck_assert_msg(r.err.find("called from net_selftest") == std::string::npos, "the stub is a frame: %s", r.err.c_str());
}
END_TEST

// The 6.x level's services as a driver sees them, from a probe that logs
// what it gets: of_* lookups on the profile's device tree, clocks with their
// rates, and timers, delayed work and work running in time and queueing
// order on simulated time (the log's time stamps).
START_TEST(test_kernel_services)
{
    const std::string main_c = driver_with_probe(
        "#include <linux/clk.h>\n#include <linux/etherdevice.h>\n#include <linux/of.h>\n#include <linux/of_net.h>\n"
        "#include <linux/timer.h>\n#include <linux/workqueue.h>\n"
        "static struct timer_list ta, tb, tc;\nstatic struct delayed_work dd;\nstatic struct work_struct we;\n"
        "static void t_fn(struct timer_list *t) { pr_info(\"order %s at %lu\", t == &ta ? \"A\" : t == &tb ? \"B\" : "
        "\"C\", jiffies); }\n"
        "static void d_fn(struct work_struct *w) { pr_info(\"order D at %lu\", jiffies); }\n"
        "static void e_fn(struct work_struct *w) { pr_info(\"order E at %lu\", jiffies); }\n"
        "static int t_open(struct net_device *d) { return 0; }\n"
        "static const struct net_device_ops t_ops = { .ndo_open = t_open };\n",
        "\tstruct device_node *np = pdev->dev.of_node, *phy, *mdio;\n\tphy_interface_t mode;\n\tu32 reg[2];\n"
        "\tstruct net_device *nd;\n"
        "\tpr_info(\"machine imx6q %d imx8qm %d\", of_machine_is_compatible(\"fsl,imx6q\"), "
        "of_machine_is_compatible(\"fsl,imx8qm\"));\n"
        "\tof_property_read_u32_array(np, \"reg\", reg, 2);\n\tpr_info(\"reg 0x%x 0x%x\", reg[0], reg[1]);\n"
        "\tpr_info(\"phy-mode %d\", of_get_phy_mode(np, &mode));\n"
        "\tpr_info(\"rgmii-id %d\", mode == PHY_INTERFACE_MODE_RGMII_ID);\n"
        "\tphy = of_parse_phandle(np, \"phy-handle\", 0);\n\tmdio = of_get_child_by_name(np, \"mdio\");\n"
        "\tpr_info(\"phy %s under %s, magic %d, absent %d\", phy->name, mdio->name, "
        "of_property_read_bool(np, \"fsl,magic-packet\"), of_property_read_bool(np, \"nothing\"));\n"
        "\tpr_info(\"clk ipg %lu ptp %lu nope %ld optional %p\", clk_get_rate(devm_clk_get(&pdev->dev, \"ipg\")), "
        "clk_get_rate(devm_clk_get(&pdev->dev, \"ptp\")), PTR_ERR(devm_clk_get(&pdev->dev, \"nope\")), "
        "(void *)devm_clk_get_optional(&pdev->dev, \"nope\"));\n"
        "\ttimer_setup(&ta, t_fn, 0);\n\ttimer_setup(&tb, t_fn, 0);\n\ttimer_setup(&tc, t_fn, 0);\n"
        "\tINIT_DELAYED_WORK(&dd, d_fn);\n\tINIT_WORK(&we, e_fn);\n"
        "\tmod_timer(&ta, jiffies + 3);\n\tmod_timer(&tb, jiffies + 1);\n\tmod_timer(&tc, jiffies + 1);\n"
        "\tschedule_delayed_work(&dd, 2);\n\tschedule_work(&we);\n"
        "\tnd = alloc_etherdev(16);\n\tnd->netdev_ops = &t_ops;\n\treturn register_netdev(nd);");
    const proc_result r = run(scenario(make_tree("6.12", main_c), "fec", "100ms"));
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    const std::string log = read_text(only_subdir(only_subdir(g_tmp + "/res")) + "/sim.log");
    const char* const want[] = {
        "machine imx6q 1 imx8qm 0", "reg 0x2188000 0x4000", "phy-mode 0", "rgmii-id 1",
        "phy ethernet-phy@1 under mdio, magic 1, absent 0", "clk ipg 66000000 ptp 125000000 nope -2 optional (nil)",
    };
    for (const char* w : want)
        ck_assert_msg(log.find(w) != std::string::npos, "no '%s' in sim.log:\n%s", w, log.c_str());
    // Work at once (jiffy 0), then timers by expiry and arming order, delayed work at its jiffy.
    const size_t e = log.find("order E at 0"), b = log.find("order B at 1"), c = log.find("order C at 1"),
                 d = log.find("order D at 2"), a = log.find("order A at 3");
    ck_assert_msg(e != std::string::npos && b != std::string::npos && c != std::string::npos &&
                      d != std::string::npos && a != std::string::npos && e < b && b < c && c < d && d < a,
                  "order wrong in sim.log:\n%s", log.c_str());
}
END_TEST

// The fec drivers of the Debian source packages (linux-source-6.12 and
// -6.1 tarballs, as bootstrap installs them), unchanged: build, probe, open
// and link up at 1000 Mbit/s full duplex; their own ethtool -S names.
void real_tree_link(const char* version, const char* stats)
{
    const std::string tarball = std::string("/usr/src/linux-source-") + version + ".tar.xz";
    if (!exists(tarball)) {
        std::fprintf(stderr, "cli_tree: %s is not installed (apt-get install linux-source-%s): test skipped\n",
                     tarball.c_str(), version);
        return;
    }
    const proc_result r = fecsim({"run", fecsim_srcdir() + "/scenarios/imx6q/upstream-" + version + "-link.ini", "-q",
                                  "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 0, "%s: exit %d: %s", version, r.status, r.err.c_str());
    const std::string dir = only_subdir(only_subdir(g_tmp + "/res"));
    const std::string drv = read_text(dir + "/driver.txt"), ver = read_text(dir + "/version.txt");
    ck_assert_msg(drv.find("interface     eth0 (2188000.ethernet), up, carrier on") != std::string::npos, "%s",
                  drv.c_str());
    ck_assert_msg(drv.find("link          up, 1000 Mbit/s full duplex, flow control rx/tx") != std::string::npos, "%s",
                  drv.c_str());
    ck_assert_msg(drv.find(stats) != std::string::npos, "%s: no '%s' in %s", version, stats, drv.c_str());
    ck_assert_msg(ver.find(std::string("(Linux ") + version + ".") != std::string::npos &&
                      ver.find("its files compiled unchanged") != std::string::npos,
                  "%s", ver.c_str());
    // The hashes recorded are those of the tree's files.
    const size_t at = ver.find("(extracted to ") + 14;
    const std::string root = ver.substr(at, ver.find(')', at) - at);
    const proc_result sum = shell("cd " + root + " && sha256sum drivers/net/ethernet/freescale/fec_main.c");
    ck_assert_msg(ver.find("sha256 " + sum.out.substr(0, 64) + "  drivers/net/ethernet/freescale/fec_main.c") !=
                      std::string::npos,
                  "%s vs %s", ver.c_str(), sum.out.c_str());
    const std::string log = read_text(dir + "/sim.log");
    ck_assert_msg(log.find("eth0: Link is Up - 1Gbps/Full - flow control rx/tx") != std::string::npos, "%s",
                  log.c_str());
}

START_TEST(test_linux_6_12_link_up)
{
    real_tree_link("6.12", "ethtool -S    60 statistics: tx_dropped, tx_packets,");
    if (!exists("/usr/src/linux-source-6.12.tar.xz"))
        return;
    // Frames from the link partner after link up go through the driver's
    // interrupt, NAPI poll and page-pool receive path into the stack.
    rm_rf(g_tmp + "/res");
    const proc_result r = fecsim({"run", fecsim_srcdir() + "/scenarios/imx6q/upstream-6.12-link.ini", "-q", "--out",
                                  g_tmp + "/res", "-o", "traffic.start=20ms", "-o", "traffic.frame_rate=20000"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    const std::string dir = only_subdir(only_subdir(g_tmp + "/res"));
    const std::string drv = read_text(dir + "/driver.txt");
    // Every frame reaches the stack; each poll ends in napi_complete_done
    // (one or two frames each: the stack's work outlasts some gaps).
    ck_assert_msg(drv.find("rx            1600 frames to the stack, ") != std::string::npos, "%s", drv.c_str());
    const std::string st = read_text(dir + "/stats.txt");
    const size_t p = st.find("napi.polls "), c = st.find("napi.completions ");
    ck_assert_msg(p != std::string::npos && c != std::string::npos &&
                      std::stoul(st.substr(p + 11)) == std::stoul(st.substr(c + 17)) &&
                      std::stoul(st.substr(p + 11)) >= 800,
                  "%s", st.c_str());
}
END_TEST

// Other SoCs' ENET nodes (scenarios/profiles/<soc>.dts) with the 6.12 driver:
// each probes through the match-table entry of its most specific compatible
// (shim_of_prefer_compatible)
// (fec_imx8mq_info for the i.MX8MM's "fsl,imx8mm-fec", "fsl,imx8mq-fec",
// "fsl,imx6sx-fec"; fec_imx6ul_info, not fec_imx6q_info, for the i.MX6UL's
// "fsl,imx6ul-fec", "fsl,imx6q-fec"; fec_mvf600_info for the Vybrid), opens,
// links up and receives. The coalescing quirk shows which entry matched
// (ethtool -c answers only with HAS_COALESCE); the i.MX8MM node's three
// queues show as the writes to ring 1 and 2's start registers (ERDSR1 0x160,
// ERDSR2 0x16c), which a single-ring model (enet.queues=1) logs and the
// scenario's three-ring one (enet.queues=3) takes.
static std::string soc_node_run(const char* soc, const char* speed, const char* queues = "1")
{
    rm_rf(g_tmp + "/res");
    const proc_result r = fecsim({"run", fecsim_srcdir() + "/scenarios/imx8mm/upstream-6.12-smoke.ini", "-q", "--out",
                                  g_tmp + "/res", "-o", std::string("driver.dts=") + fecsim_srcdir() +
                                  "/scenarios/profiles/" + soc + ".dts", "-o", std::string("enet.link_speed=") + speed,
                                  "-o", std::string("traffic.link_speed=") + speed, "-o", "scenario.duration=10ms",
                                  "-o", std::string("enet.queues=") + queues});
    ck_assert_msg(r.status == 0, "%s: exit %d: %s", soc, r.status, r.err.c_str());
    const std::string dir = only_subdir(only_subdir(g_tmp + "/res"));
    const std::string drv = read_text(dir + "/driver.txt");
    ck_assert_msg(drv.find("link          up, ") != std::string::npos, "%s: %s", soc, drv.c_str());
    const size_t at = drv.find("\nrx            ");
    ck_assert_msg(at != std::string::npos && std::stoul(drv.substr(at + 15)) >= 50, "%s: %s", soc, drv.c_str());
    return dir;
}

START_TEST(test_linux_6_12_other_soc_nodes)
{
    if (!exists("/usr/src/linux-source-6.12.tar.xz"))
        return;
    const char* coalesce = "ethtool -c    rx-usecs 1000 rx-frames 200";
    std::string dir = soc_node_run("imx8mm", "1Gbps");
    std::string drv = read_text(dir + "/driver.txt"), log = read_text(dir + "/sim.log");
    ck_assert_msg(drv.find(coalesce) != std::string::npos, "%s", drv.c_str());
    ck_assert_msg(drv.find("1000 Mbit/s full duplex") != std::string::npos, "%s", drv.c_str());
    ck_assert_msg(log.find("unimplemented register 0x160") != std::string::npos &&
                      log.find("unimplemented register 0x16c") != std::string::npos,
                  "three RX rings programmed: %s", log.c_str());
    dir = soc_node_run("imx8mm", "1Gbps", "3");
    log = read_text(dir + "/sim.log");
    // (LPI_SLEEP/LPI_WAKE 0x1f4/0x1f8 of HAS_EEE stay unimplemented)
    ck_assert_msg(log.find("unimplemented register 0x160") == std::string::npos &&
                      log.find("unimplemented register 0x16c") == std::string::npos &&
                      log.find("unimplemented register 0x1c8") == std::string::npos &&
                      log.find("unimplemented register 0x1e0") == std::string::npos &&
                      log.find("unimplemented register 0x0f4") == std::string::npos,
                  "the ring 1/2 registers exist with enet.queues=3: %s", log.c_str());
    dir = soc_node_run("imx6ul", "100Mbps");
    drv = read_text(dir + "/driver.txt");
    log = read_text(dir + "/sim.log");
    ck_assert_msg(drv.find(coalesce) != std::string::npos, "the imx6ul entry, not imx6q's: %s", drv.c_str());
    ck_assert_msg(log.find("unimplemented register 0x160") == std::string::npos, "one queue: %s", log.c_str());
    dir = soc_node_run("vf610", "100Mbps");
    drv = read_text(dir + "/driver.txt");
    ck_assert_msg(drv.find("ethtool -c    not supported") != std::string::npos, "%s", drv.c_str());
}
END_TEST

// A capture with wrong UDP checksums (lo-udp.pcap: checksum offload on lo
// leaves them partial) through the 6.12 driver: it cuts through (pause
// negotiated, RSFL 16), so the MAC cannot discard; the frames carry PCR, the
// driver passes them up as CHECKSUM_NONE and recvmsg drops them
// (Udp.InCsumErrors). The same datagrams with their checksums computed are
// delivered.
START_TEST(test_linux_6_12_bad_udp_checksum)
{
    if (!exists("/usr/src/linux-source-6.12.tar.xz"))
        return;
    for (const char* f : {"lo-udp.pcap", "lo-udp-csum.pcap"}) {
        rm_rf(g_tmp + "/res");
        const proc_result r = fecsim({"run", fecsim_srcdir() + "/scenarios/imx6q/upstream-6.12-idle.ini", "-q",
                                      "--json", "--out", g_tmp + "/res", "-o", "traffic.mode=pcap", "-o",
                                      "traffic.pcap_file=" + fecsim_srcdir() + "/tests/fixtures/" + f, "-o",
                                      "traffic.pcap_dst_mac=02:00:00:00:00:01", "-o", "scenario.warmup=0s", "-o",
                                      "scenario.duration=300ms"});
        ck_assert_msg(r.status == 0, "%s: exit %d: %s", f, r.status, r.err.c_str());
        const bool bad = std::string(f) == "lo-udp.pcap";
        ck_assert_msg(r.out.find(bad ? "\"bad_checksum\" : 200" : "\"bad_checksum\" : 0") != std::string::npos,
                      "%s: %s", f, r.out.c_str());
        ck_assert_msg(r.out.find("\"mac_discard\" : 0") != std::string::npos, "%s: %s", f, r.out.c_str());
        ck_assert_msg(r.out.find(bad ? "\"frames_delivered\" : 0," : "\"frames_delivered\" : 200,") !=
                          std::string::npos,
                      "%s: %s", f, r.out.c_str());
    }
}
END_TEST

// tests/fixtures/malformed-udp.pcap (see tests/system/cli_traffic.cc)
// through the 6.12 driver, which cuts through: the MAC only flags the wrong
// IP header checksum, and the stack drops it (Ip.InCsumErrors and
// InHdrErrors) beside the total length beyond the frame and the two short
// packets; the padded datagram is delivered with its 2 bytes.
START_TEST(test_linux_6_12_malformed_datagrams)
{
    if (!exists("/usr/src/linux-source-6.12.tar.xz"))
        return;
    const proc_result r = fecsim({"run", fecsim_srcdir() + "/scenarios/imx6q/upstream-6.12-idle.ini", "-q", "--json",
                                  "--out", g_tmp + "/res", "-o", "traffic.mode=pcap", "-o",
                                  "traffic.pcap_file=" + fecsim_srcdir() + "/tests/fixtures/malformed-udp.pcap", "-o",
                                  "scenario.warmup=0s", "-o", "scenario.duration=300ms"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    for (const char* want : {"\"frames_delivered\" : 20,", "\"mac_discard\" : 0", "\"bad_header\" : 40"})
        ck_assert_msg(r.out.find(want) != std::string::npos, "no %s in %s", want, r.out.c_str());
    const std::string st = read_text(only_subdir(only_subdir(g_tmp + "/res")) + "/stats.txt");
    for (const auto& [name, value] : {std::pair<std::string, std::string>{"snmp.Ip.InCsumErrors", "10"},
                                      {"snmp.Ip.InHdrErrors", "10"},
                                      {"snmp.Ip.InTruncatedPkts", "10"},
                                      {"stack.udp_short", "20"},
                                      {"app.bytes", "2020"}})
        ck_assert_msg(std::regex_search(st, std::regex("(^|\\n)" + name + " +" + value + " ")), "no %s = %s in %s",
                      name.c_str(), value.c_str(), st.c_str());
}
END_TEST

START_TEST(test_linux_6_1_link_up)
{
    real_tree_link("6.1", "ethtool -S    53 statistics: tx_dropped, tx_packets,");
}
END_TEST

// A patch made in the kernel tree (a/drivers/net/ethernet/freescale/...)
// applies -p1 from the tree's root; version.txt says the files were patched.
START_TEST(test_tree_patch)
{
    const std::string main_c = driver_with_probe("int net_selftest_get_count(void);\n",
                                                 "\tpr_info(\"stock\");\n\treturn net_selftest_get_count();");
    const std::string tree = make_tree("6.12", main_c);
    const std::string patch = g_tmp + "/change.patch";
    put(patch, "--- a/drivers/net/ethernet/freescale/fec_main.c\n+++ b/drivers/net/ethernet/freescale/fec_main.c\n"
               "@@ -7,2 +7,2 @@\n {\n-\tpr_info(\"stock\");\n+\tpr_info(\"patched\");\n");
    const proc_result r = fecsim({"run", scenario(tree), "-q", "--out", g_tmp + "/res", "--patch", patch});
    ck_assert_msg(r.status == 3, "exit %d: %s", r.status, r.err.c_str());  // the probe's stop-on-call
    const std::string dir = only_subdir(only_subdir(g_tmp + "/res"));
    ck_assert_msg(read_text(dir + "/sim.log").find("driver info: patched") != std::string::npos, "%s",
                  read_text(dir + "/sim.log").c_str());
    const std::string ver = read_text(dir + "/version.txt");
    ck_assert_msg(ver.find("(Linux 6.12.7, shim API level 6.12), with patches\n  patch " + patch) != std::string::npos,
                  "%s", ver.c_str());
    // The tree itself is untouched.
    ck_assert(read_text(tree + "/drivers/net/ethernet/freescale/fec_main.c") == main_c);
}
END_TEST

// driver.defines: a macro of the driver's own files gets a new value on the
// build's copy (the tree untouched), the results name the line and the old
// value; a name that is not defined, defined twice or function-like is
// refused naming the files or lines (exit 2).
START_TEST(test_tree_defines)
{
    const std::string tree = make_tree("6.12", driver_with_probe("", "\tpr_info(GREETING);\n\treturn 0;"));
    const std::string fec_h = tree + "/drivers/net/ethernet/freescale/fec.h";
    const std::string h = "#include <linux/platform_device.h>\n#define GREETING\t\"stock\"\t/* said at probe */\n"
                          "#define TWICE 1\n#define FN(x) (x)\n";
    put(fec_h, h);
    put(tree + "/drivers/net/ethernet/freescale/fec_ptp.c", "#include \"fec.h\"\n#define TWICE 2\n");
    proc_result r = fecsim({"run", scenario(tree), "-q", "--out", g_tmp + "/res", "-o",
                            "driver.defines=GREETING=\"defined\""});
    // the synthetic driver registers no net device: the run stops after its probe
    ck_assert_msg(r.status == 3, "exit %d: %s", r.status, r.err.c_str());
    const std::string dir = only_subdir(only_subdir(g_tmp + "/res"));
    ck_assert_msg(read_text(dir + "/sim.log").find("driver info: defined") != std::string::npos, "%s",
                  read_text(dir + "/sim.log").c_str());
    const std::string ver = read_text(dir + "/version.txt");
    ck_assert_msg(ver.find("with patches or defines\n") != std::string::npos &&
                      ver.find("  define fec.h:2 GREETING \"stock\" -> \"defined\"\n") != std::string::npos,
                  "%s", ver.c_str());
    ck_assert(read_text(fec_h) == h);
    const struct {
        const char* defines;
        const char* says;
    } bad[] = {
        {"NOWHERE=1", "NOWHERE is not #defined in the driver's files (fec.h, fec_main.c, fec_ptp.c)"},
        {"TWICE=3", "TWICE is #defined more than once (fec.h:3, fec_ptp.c:2): ambiguous, refused"},
        {"FN=3", "FN at fec.h:4 is a function-like macro"},
        {"GREETING", "'GREETING' is not NAME=VALUE with NAME a C identifier"},
    };
    for (const auto& b : bad) {
        rm_rf(g_tmp + "/res");
        r = fecsim({"run", scenario(tree), "-q", "--out", g_tmp + "/res", "-o",
                    std::string("driver.defines=") + b.defines});
        ck_assert_msg(r.status == 2 && r.err.find(b.says) != std::string::npos, "%s: exit %d: %s", b.defines,
                      r.status, r.err.c_str());
    }
}
END_TEST

// A source tarball is a tree: its Makefile and driver files are extracted
// once into the cache; a tarball without a kernel tree is refused.
START_TEST(test_tree_tarball)
{
    const std::string tree = make_tree("6.1", driver_with_probe("", "\tpr_info(\"from the tarball\");\n\treturn 0;"));
    const std::string tarball = g_tmp + "/linux-test.tar.gz";
    ck_assert_int_eq(shell("tar -czf " + tarball + " -C " + g_tmp + " linux").status, 0);
    rm_rf(tree);
    proc_result r = fecsim({"run", scenario(tarball), "-q", "--out", g_tmp + "/res"});
    // The probe ran (and registered no interface, so the run fails at open).
    ck_assert_msg(r.status == 3 && r.err.find("ndo_open failed: -19") != std::string::npos, "exit %d: %s", r.status,
                  r.err.c_str());
    put(g_tmp + "/empty/README", "no kernel here\n");
    ck_assert_int_eq(shell("tar -czf " + g_tmp + "/empty.tar.gz -C " + g_tmp + " empty").status, 0);
    r = run(scenario(g_tmp + "/empty.tar.gz"));
    ck_assert_msg(r.status == 2 && r.err.find("tree.ini:5: error:") != std::string::npos &&
                      r.err.find("empty.tar.gz") != std::string::npos,
                  "exit %d: %s", r.status, r.err.c_str());
}
END_TEST

// A board device tree that does not compile is refused before the run.
START_TEST(test_bad_device_tree)
{
    const std::string dts = g_tmp + "/board.dts";
    put(dts, "/dts-v1/;\n/ { broken\n");
    const proc_result r = fecsim({"run", scenario(make_tree("6.12", driver_with_probe("", "\treturn 0;"))), "-q",
                                  "--out", g_tmp + "/res", "-o", "driver.dts=" + dts});
    ck_assert_msg(r.status == 2 && r.err.find("the device tree " + dts + " does not compile (dtc)") != std::string::npos,
                  "exit %d: %s", r.status, r.err.c_str());
    ck_assert(!exists(g_tmp + "/res"));
}
END_TEST

// docs/real-drivers.md lists every stop-on-call function, and nothing else.
START_TEST(test_docs_list_stop_on_call)
{
    const std::string list = read_text(fecsim_srcdir() + "/drivers/shim/v6/stop_on_call.list");
    const std::string doc = read_text(fecsim_srcdir() + "/docs/real-drivers.md");
    std::istringstream in(list);
    std::string line;
    size_t n = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        const std::string name = line.substr(0, line.find(' '));
        ck_assert_msg(doc.find("| `" + name + "` |") != std::string::npos,
                      "docs/real-drivers.md does not list %s", name.c_str());
        n++;
    }
    size_t rows = 0;
    for (size_t at = doc.find("\n| `"); at != std::string::npos; at = doc.find("\n| `", at + 1))
        rows++;
    ck_assert_uint_eq(rows, n);
}
END_TEST

Suite* suite_cli_tree(void)
{
    Suite* s = suite_create("cli_tree");
    TCase* tc = tests_tcase("synthetic", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_unsupported_version_is_refused);
    tcase_add_test(tc, test_bad_tree_and_name_are_refused);
    tcase_add_test(tc, test_missing_symbols_are_all_listed);
    tcase_add_test(tc, test_stop_on_call);
    tcase_add_test(tc, test_kernel_services);
    tcase_add_test(tc, test_docs_list_stop_on_call);
    tcase_add_test(tc, test_tree_patch);
    tcase_add_test(tc, test_tree_defines);
    tcase_add_test(tc, test_bad_device_tree);
    tcase_add_test(tc, test_tree_tarball);
    suite_add_tcase(s, tc);
    // The Debian trees: the first run extracts the driver from the tarball
    // and builds it (tens of seconds); later runs reuse the cache.
    TCase* real = tests_tcase("debian_trees", TEST_TIMEOUT_SYSTEM * 2);
    tcase_add_checked_fixture(real, setup, teardown);
    tcase_add_test(real, test_linux_6_12_link_up);
    tcase_add_test(real, test_linux_6_1_link_up);
    tcase_add_test(real, test_linux_6_12_other_soc_nodes);
    tcase_add_test(real, test_linux_6_12_bad_udp_checksum);
    tcase_add_test(real, test_linux_6_12_malformed_datagrams);
    suite_add_tcase(s, real);
    return s;
}
