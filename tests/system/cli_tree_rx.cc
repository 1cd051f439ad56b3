// The receive path of a kernel tree's fec driver carrying traffic: the
// Debian 6.12 and 6.1 drivers, unchanged, deliver verified frames through
// their page pools, the stack model, the socket and the application, every
// frame accounted for by the counters, with no coherence violation; a patch
// that removes the RX sync_for_cpu is found with its driver line; the same
// scenario and seed give the same statistics; keys the tree driver ignores
// are refused; page_pool semantics of each API level, from a synthetic
// driver. The Debian tests skip when the tarballs are not installed.
#include "tests/lib.h"
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include "tests/system/cli.h"

namespace {

std::string g_tmp;
void setup() { g_tmp = tmp_dir(); }
void teardown() { rm_rf(g_tmp); }

bool have_tree(const std::string& version)
{
    const std::string tarball = "/usr/src/linux-source-" + version + ".tar.xz";
    if (exists(tarball))
        return true;
    std::fprintf(stderr, "cli_tree_rx: %s is not installed (apt-get install linux-source-%s): test skipped\n",
                 tarball.c_str(), version.c_str());
    return false;
}

std::string scenario(const std::string& name) { return fecsim_srcdir() + "/scenarios/imx6q/" + name + ".ini"; }

// stats.txt of a run: "name value # ..." lines.
std::map<std::string, unsigned long long> stats_of(const std::string& dir)
{
    std::map<std::string, unsigned long long> m;
    std::stringstream ss(read_text(dir + "/stats.txt"));
    std::string line;
    while (std::getline(ss, line)) {
        std::stringstream ls(line);
        std::string name;
        unsigned long long v;
        if (line[0] != '#' && ls >> name >> v)
            m[name] = v;
    }
    return m;
}

// One run of `ini` (more options after it) into out; its run directory.
std::string run_into(const std::string& out, const std::string& ini, std::vector<std::string> more,
                     proc_result* res = nullptr)
{
    std::vector<std::string> args = {"run", ini, "-q", "--out", out};
    args.insert(args.end(), more.begin(), more.end());
    const proc_result r = fecsim(args);
    if (res)
        *res = r;
    else
        ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    return r.status == 0 || r.status == 1 ? only_subdir(only_subdir(out)) : "";
}

// Delivered, verified, conserved, coherent: the upstream-<v>-<load> scenario
// over `duration`.
void delivers(const std::string& version, const std::string& load, const std::string& duration)
{
    if (!have_tree(version))
        return;
    const std::string dir =
        run_into(g_tmp + "/res", scenario("upstream-" + version + "-" + load), {"-o", "scenario.duration=" + duration});
    auto s = stats_of(dir);
    const std::string what = version + "-" + load;
    ck_assert_msg(s["app.verified"] > 0, "%s: nothing delivered", what.c_str());
    ck_assert_msg(s["app.corrupted"] == 0 && s["app.short_payload"] == 0 && s["app.duplicated"] == 0, "%s",
                  what.c_str());
    ck_assert_msg(s["coherence.violations"] == 0, "%s: %llu violations", what.c_str(), s["coherence.violations"]);
    // Every frame by counter: the MAC's, the driver's (to the stack), IP's,
    // the socket's and the reader's. Counters restart at the end of the
    // warm-up with frames in flight (in the RX ring, a GRO batch, the socket,
    // the reader's hands): stages may differ by what each can hold.
    auto near = [](unsigned long long x, unsigned long long y, unsigned long long d) {
        return x <= y + d && y <= x + d;
    };
    const unsigned long long sock_max = 196608 / 4096 + 1;  // a datagram holds a page (truesize > 4 KiB)
    // Frames in the RX FIFO at the restart arrived before it: at most its
    // high-water mark in minimum-size frames.
    ck_assert_msg(s["enet.rx_delivered"] + s["enet.rx_fifo_drops"] <=
                      s["enet.rx_frames"] + s["enet.rx_fifo_hwm_bytes"] / 64 + 1,
                  "%s: %llu frames arrived, %llu delivered, %llu dropped", what.c_str(), s["enet.rx_frames"],
                  s["enet.rx_delivered"], s["enet.rx_fifo_drops"]);
    ck_assert_msg(near(s["enet.rx_delivered"], s["softnet.processed"], 256 + 8),  // RX ring + a GRO batch
                  "%s: MAC delivered %llu, stack got %llu", what.c_str(), s["enet.rx_delivered"],
                  s["softnet.processed"]);
    // a frame the stack was working on when the counters restarted (its
    // reads of the stack's data can let the restart in between the two
    // counts) is in InReceives and not in processed
    ck_assert_msg(s["snmp.Ip.InReceives"] >= s["softnet.processed"] &&
                      s["snmp.Ip.InReceives"] <= s["softnet.processed"] + 1,
                  "%s: IP %llu, stack %llu", what.c_str(), s["snmp.Ip.InReceives"], s["softnet.processed"]);
    ck_assert_msg(near(s["snmp.Ip.InReceives"], s["snmp.Udp.InDatagrams"] + s["snmp.Udp.RcvbufErrors"], sock_max),
                  "%s: IP %llu, socket %llu + %llu", what.c_str(), s["snmp.Ip.InReceives"], s["snmp.Udp.InDatagrams"],
                  s["snmp.Udp.RcvbufErrors"]);
    ck_assert(near(s["snmp.Udp.InDatagrams"], s["app.datagrams"], 1));
    ck_assert(s["app.datagrams"] == s["app.verified"]);
    // Every freed skb gave its page back to the pool, and no page was lost.
    ck_assert_msg(near(s["stack.skb_free"],
                       s["page_pool.recycle_ring"] + s["page_pool.recycle_cached"] +
                           s["page_pool.recycle_released_refcnt"],
                       1),
                  "%s: %llu skbs freed", what.c_str(), s["stack.skb_free"]);
    ck_assert(s["page_pool.alloc_failed"] == 0);
    ck_assert(near(s["stack.skb_alloc"], s["stack.skb_free"], sock_max + 8));
    ck_assert_msg(s["kernel.dma_sync_cpu_calls"] > 0, "%s", what.c_str());
}

} // namespace

START_TEST(test_linux_6_12_idle_delivers) { delivers("6.12", "idle", "50ms"); }
END_TEST

START_TEST(test_linux_6_12_stress_delivers) { delivers("6.12", "stress", "30ms"); }
END_TEST

START_TEST(test_linux_6_1_idle_delivers) { delivers("6.1", "idle", "30ms"); }
END_TEST

// Same scenario and seed: stats.json bit-identical.
START_TEST(test_tree_rx_deterministic)
{
    if (!have_tree("6.12"))
        return;
    const std::vector<std::string> o = {"-o", "scenario.duration=20ms"};
    const std::string a = run_into(g_tmp + "/a", scenario("upstream-6.12-stress"), o);
    const std::string b = run_into(g_tmp + "/b", scenario("upstream-6.12-stress"), o);
    ck_assert_msg(read_text(a + "/stats.json") == read_text(b + "/stats.json"), "stats.json differ: %s %s", a.c_str(),
                  b.c_str());
}
END_TEST

// A sweep of a tree driver's scenario: its points build the 6.x shim from
// the sweep's own copy of the data directory, and give what a run gives.
START_TEST(test_tree_sweep)
{
    if (!have_tree("6.12"))
        return;
    const proc_result r = fecsim({"sweep", scenario("upstream-6.12-line-rate"), "-o", "scenario.duration=2ms", "--vary",
                                  "traffic.frame_bytes=64,1518", "-q", "--out", g_tmp + "/sw", "--name", "t"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    const std::string csv = read_text(g_tmp + "/sw/imx6q-upstream-6.12-line-rate/sweep-t/sweep.csv");
    ck_assert_msg(std::count(csv.begin(), csv.end(), '\n') == 3, "%s", csv.c_str());
}
END_TEST

// tests/fixtures/upstream-6.12-no-rx-sync-for-cpu.patch (made in the Debian
// tree) removes fec_enet_rx_queue's dma_sync_single_for_cpu: the first read
// of the frame is named with the driver's line (eth_type_trans's call).
START_TEST(test_tree_rx_missing_sync_found)
{
    if (!have_tree("6.12"))
        return;
    proc_result r;
    const std::string dir = run_into(g_tmp + "/res", scenario("upstream-6.12-idle"),
                                     {"-o", "scenario.duration=10ms", "--patch",
                                      fecsim_srcdir() + "/tests/fixtures/upstream-6.12-no-rx-sync-for-cpu.patch"},
                                     &r);
    ck_assert_msg(!dir.empty(), "exit %d: %s", r.status, r.err.c_str());
    const std::string sum = read_text(dir + "/summary.json");
    ck_assert_msg(sum.find("eth_type_trans (net.c:") != std::string::npos &&
                      sum.find("called from fec_enet_rx_queue (fec_main.c:1870)") != std::string::npos,
                  "%s", sum.c_str());
    ck_assert(stats_of(dir)["coherence.violations"] > 0);
}
END_TEST

// tests/fixtures/upstream-6.12-short-rx-sync.patch cuts that sync to 128
// bytes: the reader's copy (fecsim's recvmsg, no driver line on the stack)
// is named with who ran it, and the detail names the short sync's range and
// line.
START_TEST(test_tree_rx_short_sync_found)
{
    if (!have_tree("6.12"))
        return;
    proc_result r;
    const std::string dir = run_into(g_tmp + "/res", scenario("upstream-6.12-idle"),
                                     {"-o", "scenario.duration=10ms", "--patch",
                                      fecsim_srcdir() + "/tests/fixtures/upstream-6.12-short-rx-sync.patch"},
                                     &r);
    ck_assert_msg(!dir.empty(), "exit %d: %s", r.status, r.err.c_str());
    const std::string sum = read_text(dir + "/summary.json");
    ck_assert_msg(sum.find("\"fecsim_v6_udp_recvmsg (udp_stack.h:") != std::string::npos &&
                      sum.find("), in iperf3 on CPU1\"") != std::string::npos &&
                      sum.find("read at byte 384 of the buffer; its last sync_for_cpu covered bytes 256-383; "
                               "that sync_for_cpu at fec_enet_rx_queue (fec_main.c:1813)") != std::string::npos,
                  "%s", sum.c_str());
}
END_TEST

// driver.copybreak (and the ring sizes) on a tree driver: refused where set.
START_TEST(test_tree_inert_keys_refused)
{
    const std::string f = g_tmp + "/inert.ini";
    std::ofstream(f) << "[scenario]\ninclude=" << scenario("upstream-6.12-idle") << "\n[driver]\ncopybreak=64\n";
    proc_result r = fecsim({"run", f, "-q", "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.err.c_str());
    ck_assert_msg(r.err.find("inert.ini:4: error: driver.copybreak is set, but a kernel tree's fec driver ignores it") !=
                      std::string::npos,
                  "%s", r.err.c_str());
    r = fecsim({"run", scenario("upstream-6.1-idle"), "-q", "--out", g_tmp + "/res", "-o", "driver.tx_ring_size=64"});
    ck_assert_msg(r.status == 2 && r.err.find("error: -o driver.tx_ring_size=64: driver.tx_ring_size is set, but") !=
                                       std::string::npos,
                  "exit %d: %s", r.status, r.err.c_str());
    r = fecsim({"run", scenario("upstream-6.12-idle"), "-q", "--out", g_tmp + "/res", "-o",
                "soc.mac_address=02:00:00:00:00:02"});
    ck_assert_msg(r.status == 2 && r.err.find("soc.mac_address is set, but a kernel tree's driver takes its address "
                                              "from the device tree") != std::string::npos,
                  "exit %d: %s", r.status, r.err.c_str());
    // A default written out (a sweep's base.ini, a resolved scenario) is no error.
    r = fecsim({"check", scenario("upstream-6.12-idle"), "-o", "driver.copybreak=256"});
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err.c_str());
    ck_assert(!exists(g_tmp + "/res"));
}
END_TEST

namespace {

void put(const std::string& path, const std::string& text)
{
    for (size_t i = 1; i < path.size(); i++)
        if (path[i] == '/')
            mkdir(path.substr(0, i).c_str(), 0755);
    std::ofstream(path) << text;
}

// A synthetic tree of `version` whose probe exercises a page pool and logs
// what it sees; the run's sim.log.
std::string page_pool_probe_log(const std::string& version)
{
    const std::string root = g_tmp + "/linux";
    const size_t dot = version.find('.');
    put(root + "/Makefile", "VERSION = " + version.substr(0, dot) + "\nPATCHLEVEL = " + version.substr(dot + 1) +
                                "\nSUBLEVEL = 7\nEXTRAVERSION =\n");
    const std::string d = root + "/drivers/net/ethernet/freescale/";
    put(d + "fec.h", "#include <linux/platform_device.h>\n");
    put(d + "fec_ptp.c", "#include \"fec.h\"\n");
    put(d + "fec_main.c", R"(#include <linux/module.h>
#include <net/page_pool/helpers.h>
#include "fec.h"
static int fec_probe(struct platform_device *pdev)
{
	struct page_pool_params pp = { .order = 0, .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV, .pool_size = 2,
				       .nid = -1, .dev = &pdev->dev, .dma_dir = DMA_FROM_DEVICE, .offset = 256,
				       .max_len = 1024 };
	struct page_pool *pool = page_pool_create(&pp);
	struct page *first, *a, *b, *c, *p[64];
	int i;
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	pp.flags = PP_FLAG_DMA_SYNC_DEV;
	pr_info("sync without map: %ld", PTR_ERR(page_pool_create(&pp)));
	first = page_pool_dev_alloc_pages(pool);	/* a bulk of 64 from the page allocator */
	page_pool_put_full_page(pool, first, false);	/* not direct: into the ring */
	a = page_pool_dev_alloc_pages(pool);		/* from the cache */
	b = page_pool_dev_alloc_pages(pool);
	page_pool_recycle_direct(pool, a);		/* direct: the cache (6.12); 6.1 outside softirq: the ring */
	c = page_pool_dev_alloc_pages(pool);
	pr_info("direct recycling reuses the page at once: %d", c == a);
	for (i = 0; i < 64 && (p[i] = page_pool_dev_alloc_pages(pool)) != first; i++)
		;
	pr_info("the ring gives the page back after %d more", i);
	page_pool_put_full_page(pool, b, false);
	page_pool_destroy(pool);			/* b in the ring; the others in flight */
	for (int k = 0; k <= i && k < 64; k++)
		page_pool_put_full_page(pool, p[k], false);
	page_pool_put_full_page(pool, c, false);	/* the last page in flight: the pool goes */
	pr_info("pool released");
	return 0;
}
static const struct platform_device_id fec_devtype[] = { { .name = "imx6q-fec" }, { } };
static struct platform_driver fec_driver = {
	.driver = { .name = "fec" },
	.id_table = fec_devtype,
	.probe = fec_probe,
};
module_platform_driver(fec_driver);
)");
    const std::string f = g_tmp + "/pp.ini";
    put(f, "[scenario]\nid=pp\nduration=1ms\n[driver]\ntree=" + root + "\nname=fec\n");
    // The probe registers no interface: the run stops at ndo_open, after it.
    const proc_result r = fecsim({"run", f, "-q", "--out", g_tmp + "/res"});
    ck_assert_msg(r.status == 3 && r.err.find("ndo_open failed: -19") != std::string::npos, "%s: exit %d: %s",
                  version.c_str(), r.status, r.err.c_str());
    return read_text(only_subdir(only_subdir(g_tmp + "/res")) + "/sim.log");
}

} // namespace

// Alloc cache (LIFO, refilled from the ring), ptr_ring (FIFO), direct
// recycling as each level decides it, pages returned after destroy.
START_TEST(test_page_pool_semantics)
{
    struct {
        const char* version;
        int direct, after;
    } levels[] = {{"6.12", 1, 61}, {"6.1", 0, 61}};
    for (const auto& l : levels) {
        const std::string log = page_pool_probe_log(l.version);
        const std::string want[] = {
            "sync without map: -22",
            "direct recycling reuses the page at once: " + std::to_string(l.direct),
            "the ring gives the page back after " + std::to_string(l.after) + " more",
            "pool released",
        };
        for (const auto& w : want)
            ck_assert_msg(log.find(w) != std::string::npos, "%s: no '%s' in %s", l.version, w.c_str(), log.c_str());
        rm_rf(g_tmp + "/res");
    }
}
END_TEST

Suite* suite_cli_tree_rx(void)
{
    Suite* s = suite_create("cli_tree_rx");
    TCase* syn = tests_tcase("synthetic", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(syn, setup, teardown);
    tcase_add_test(syn, test_page_pool_semantics);
    tcase_add_test(syn, test_tree_inert_keys_refused);
    suite_add_tcase(s, syn);
    TCase* real = tests_tcase("debian_trees", TEST_TIMEOUT_SYSTEM * 2);
    tcase_add_checked_fixture(real, setup, teardown);
    tcase_add_test(real, test_linux_6_12_idle_delivers);
    tcase_add_test(real, test_linux_6_12_stress_delivers);
    tcase_add_test(real, test_linux_6_1_idle_delivers);
    tcase_add_test(real, test_tree_rx_deterministic);
    tcase_add_test(real, test_tree_rx_missing_sync_found);
    tcase_add_test(real, test_tree_rx_short_sync_found);
    tcase_add_test(real, test_tree_sweep);
    suite_add_tcase(s, real);
    return s;
}
