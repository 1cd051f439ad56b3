// Scenario loader: includes, overrides, later-wins, every error path with
// its exact message shape, and the resolved-file round trip.
#include "tests/lib.h"
#include <cstring>
#include <ctime>
#include <ftw.h>
#include <glib.h>
#include <string>
#include <sys/stat.h>
#include <vector>
#include "sim/results/sweep.h"
#include "sim/config/registry.h"
#include "sim/config/scenario.h"
#include "sim/config/units.h"

using namespace sim;

namespace {

std::string g_dir;  // per test (each test runs in its own process)

int rm_one(const char* p, const struct stat*, int, struct FTW*) { return remove(p); }

void setup()
{
    gchar* d = g_dir_make_tmp("fecsim-loader-XXXXXX", nullptr);
    ck_assert_ptr_nonnull(d);
    g_dir = d;
    g_free(d);
}

void teardown() { nftw(g_dir.c_str(), rm_one, 16, FTW_DEPTH | FTW_PHYS); }

// Writes <dir>/<name> and returns its path.
std::string put(const std::string& name, const std::string& text)
{
    const std::string p = g_dir + "/" + name;
    gchar* parent = g_path_get_dirname(p.c_str());
    g_mkdir_with_parents(parent, 0777);
    g_free(parent);
    ck_assert(g_file_set_contents(p.c_str(), text.c_str(), -1, nullptr));
    return p;
}

struct loaded {
    bool ok;
    resolved_scenario r;
    std::vector<std::string> errors;
};

// Read files, apply -o overrides, resolve.
loaded load(const std::vector<std::string>& files, const std::vector<std::string>& overrides = {})
{
    loaded l;
    raw_scenario raw;
    for (const auto& f : files)
        scenario_read(f, &raw, &l.errors);
    for (const auto& o : overrides) {
        std::string err;
        if (!scenario_override(o, &raw, &err))
            l.errors.push_back(err);
    }
    scenario_resolve(raw, &l.r, &l.errors);
    l.ok = l.errors.empty();
    return l;
}

void expect_error(const loaded& l, const std::string& exact)
{
    ck_assert_msg(!l.ok, "expected an error: %s", exact.c_str());
    bool found = false;
    for (const auto& e : l.errors)
        found |= e == exact;
    std::string all;
    for (const auto& e : l.errors)
        all += "\n  " + e;
    ck_assert_msg(found, "expected error\n  %s\ngot:%s", exact.c_str(), all.c_str());
}

} // namespace

START_TEST(test_builtin_default_resolves)
{
    loaded l = load({"builtin:default.ini"});
    ck_assert_msg(l.ok, "%s", l.errors.empty() ? "" : l.errors[0].c_str());
    CK_STR_EQ(l.r.cfg.scenario.id.c_str(), "default");
    ck_assert_uint_eq(l.r.cfg.cpu.cores, 4);
    ck_assert_uint_eq(l.r.cfg.mem.l2.size_bytes, 1u << 20);
    ck_assert_uint_eq(l.r.files.size(), 5);  // default, stock-idle, copybreak-common, calibration-workload, profiles/imx6q
}
END_TEST

START_TEST(test_includes_and_later_wins)
{
    put("profiles/soc.ini", "[cpu]\ncores=2\n[l2]\nsize=512KiB\n[l1]\nsize=16KiB\n");
    put("base.ini", "[scenario]\nid=base\ninclude=profiles/soc.ini\nduration=2ms\n[l2]\nsize=256KiB\n");
    const std::string top = put("sub/top.ini", "[scenario]\nid=top\ninclude=../base.ini\n\n[l2]\nassoc=8\n");
    loaded l = load({top});
    ck_assert_msg(l.ok, "%s", l.errors.empty() ? "" : l.errors[0].c_str());
    CK_STR_EQ(l.r.cfg.scenario.id.c_str(), "top");             // includer over include
    ck_assert_uint_eq(l.r.cfg.mem.l2.size_bytes, 256 * 1024);  // base over profile
    ck_assert_uint_eq(l.r.cfg.mem.l1.size_bytes, 16 * 1024);   // from the profile
    ck_assert_uint_eq(l.r.cfg.cpu.cores, 2);
    ck_assert_uint_eq(l.r.cfg.mem.l2.assoc, 8);
    ck_assert_uint_eq(l.r.cfg.scenario.duration_ps, 2000000000ull);
    // Provenance: the winning value's file and line.
    CK_STR_EQ(l.r.set_at.at("l2.size").str().c_str(), (g_dir + "/base.ini:6").c_str());
    CK_STR_EQ(l.r.set_at.at("cpu.cores").str().c_str(), (g_dir + "/profiles/soc.ini:2").c_str());
    ck_assert(l.r.set_at.find("l1.assoc") == l.r.set_at.end());  // default
}
END_TEST

START_TEST(test_overrides_and_layers)
{
    const std::string a = put("a.ini", "[scenario]\nid=a\n[l2]\nsize=256KiB\nassoc=8\n");
    const std::string b = put("b.ini", "[l2]\nsize=512KiB\n");
    loaded l = load({a, b}, {"l2.assoc=4", "scenario.seed=9", "l2.assoc=2"});
    ck_assert_msg(l.ok, "%s", l.errors.empty() ? "" : l.errors[0].c_str());
    ck_assert_uint_eq(l.r.cfg.mem.l2.size_bytes, 512 * 1024);  // later file wins
    ck_assert_uint_eq(l.r.cfg.mem.l2.assoc, 2);                // last -o wins
    ck_assert_uint_eq(l.r.cfg.scenario.seed, 9);
    CK_STR_EQ(l.r.set_at.at("l2.assoc").str().c_str(), "-o l2.assoc=2");
    // --seed and --patch go through the same raw layer; --patch appends.
    const std::string p1 = put("one.patch", "--- a\n+++ b\n");
    const std::string p2 = put("two.patch", "--- a\n+++ b\n");
    const std::string c = put("c.ini", "[driver]\npatches=one.patch\n");
    raw_scenario raw;
    std::vector<std::string> errors;
    scenario_read(c, &raw, &errors);
    scenario_set(&raw, "scenario", "seed", "7", "--seed", "7");
    scenario_set(&raw, "driver", "patches", p2, "--patch", p2);
    resolved_scenario r;
    ck_assert(scenario_resolve(raw, &r, &errors));
    ck_assert_uint_eq(r.cfg.scenario.seed, 7);
    ck_assert_uint_eq(r.strings.at("driver.patches").size(), 2);
    ck_assert(r.strings.at("driver.patches")[0].find("one.patch") != std::string::npos);
    ck_assert(r.strings.at("driver.patches")[1].find("two.patch") != std::string::npos);
    ck_assert(r.strings.at("driver.patches")[0][0] == '/');  // recorded as absolute paths
}
END_TEST

START_TEST(test_cycles_in_time)
{
    const std::string f = put("q.ini", "[cpu]\nclock=1GHz\n[scenario]\nquantum=3cycles\n");
    loaded l = load({f});
    ck_assert_msg(l.ok, "%s", l.errors.empty() ? "" : l.errors[0].c_str());
    ck_assert_uint_eq(l.r.cfg.scenario.quantum_ps, 3000);
}
END_TEST

START_TEST(test_unknown_names)
{
    const std::string f = put("bad.ini", "[scenario]\nid=x\n\n[l1]\nszie=32KiB\n\n[l3]\nsize=1MiB\n[cpu]\nline=32\n"
                                         "[l2]\nmaint=5\n[zzzzzz]\n");
    loaded l = load({f}, {"l2.siz=3", "foo.bar=1"});
    expect_error(l, f + ":5: error: unknown key 'szie' in [l1]; did you mean 'size'?");
    expect_error(l, f + ":7: error: unknown group [l3]; did you mean [l1] or [l2]?");
    expect_error(l, f + ":10: error: unknown key 'line' in [cpu]; 'line' is a key of [l1], [l2]");
    expect_error(l, f + ":12: error: unknown key 'maint' in [l2]; did you mean 'maint_line_cycles' or "
                        "'maint_waits_for_drain'?");
    expect_error(l, f + ":13: error: unknown group [zzzzzz] (known: [scenario] [soc] [cpu] [l1] [l2] [noc] [dram] "
                        "[stress] [enet] [traffic] [kernel] [driver] [stack] [app] [tx] [qdisc] [peer] [output])");
    expect_error(l, "error: -o l2.siz=3: unknown key 'siz' in [l2]; did you mean 'size'?");
    expect_error(l, "error: -o foo.bar=1: unknown group [foo] (known: [scenario] [soc] [cpu] [l1] [l2] [noc] [dram] "
                    "[stress] [enet] [traffic] [kernel] [driver] [stack] [app] [tx] [qdisc] [peer] [output])");
    // Reported in reading order.
    ck_assert(l.errors[0].find(":5:") != std::string::npos);
}
END_TEST

START_TEST(test_bad_values)
{
    const std::string f = put("v.ini", "[scenario]\nduration=5\nseed=-1\n[l1]\nsize=64MiB\nreplacement=fifo\n"
                                       "[l2]\nsize=32KB\n[cpu]\nclock=996MHz # fast\n[stress]\nenabled=maybe\n"
                                       "[dram]\nlatency_cycles=2.5\n[scenario]\nid=../x\n");
    loaded l = load({f});
    expect_error(l,
                 f + ":2: error: scenario.duration: '5' needs a unit: expected a time with a unit: ps, ns, us, ms, s, "
                     "or cycles of the CPU clock, e.g. 21us or 1cycle");
    expect_error(l, f + ":3: error: scenario.seed: '-1' is out of range: allowed 0 .. 9007199254740992");
    expect_error(l, f + ":5: error: l1.size: '64MiB' is out of range: allowed 1KiB .. 16MiB");
    expect_error(l, f + ":6: error: l1.replacement: 'fifo' is not one of: random, round_robin, lru");
    expect_error(l, f + ":8: error: l2.size: '32KB': 'KB' is ambiguous: write KiB/MiB/GiB (powers of 1024) or "
                        "kB/MB/GB (powers of 1000)");
    expect_error(l, f + ":10: error: cpu.clock: '996MHz # fast': unknown unit 'MHz # fast': expected a frequency: Hz, "
                        "kHz, MHz or GHz, e.g. 996MHz (a comment must be on a line of its own)");
    expect_error(l, f + ":12: error: stress.enabled: 'maybe' is not a boolean: expected true/false, yes/no, on/off or "
                        "1/0");
    expect_error(l, f + ":14: error: dram.latency_cycles: '2.5' is not a whole number");
    expect_error(l, f + ":16: error: scenario.id: '../x' is not a valid name: use letters, digits, '.', '_' and '-', "
                        "not starting with '.'");
    ck_assert_uint_eq(l.errors.size(), 9);
}
END_TEST

START_TEST(test_file_errors)
{
    // Malformed lines, duplicates, keys outside groups.
    const std::string f = put("m.ini", "size=1\n[l1]\nassoc=4\nassoc=8\njunk line\n[l2\n=5\n");
    loaded l = load({f});
    expect_error(l, f + ":1: error: key 'size' before the first [group]");
    expect_error(l, f + ":4: error: duplicate key 'assoc' in [l1] (first set at line 3)");
    expect_error(l, f + ":5: error: 'junk line' is neither key=value, [group] nor a # comment");
    expect_error(l, f + ":6: error: malformed group header '[l2': expected [name]");
    expect_error(l, f + ":7: error: missing key name before '='");
    // Binary or non-UTF-8 files are refused with the line of the first bad byte.
    const std::string u = put("u.ini", "[scenario]\ndescription=caf\xe9\n");
    expect_error(load({u}), u + ":2: error: not valid UTF-8 text");
    raw_scenario raw;
    std::string err;
    ck_assert(!scenario_override("scenario.description=caf\xe9", &raw, &err));
    CK_STR_EQ(err, "error: -o scenario.description=...: the value is not valid UTF-8 text");
    // Missing file, directory.
    loaded m = load({g_dir + "/nope.ini"});
    expect_error(m, "error: " + g_dir + "/nope.ini: no such file");
    loaded d = load({g_dir});
    expect_error(d, "error: " + g_dir + ": is a directory");
}
END_TEST

START_TEST(test_include_errors)
{
    const std::string a = put("a.ini", "[scenario]\ninclude=b.ini\n");
    put("b.ini", "# b includes c\n[scenario]\ninclude=c.ini\n");
    put("c.ini", "[scenario]\ninclude=a.ini\n");
    loaded l = load({a});
    expect_error(l, g_dir + "/c.ini:2: error: include cycle: " + g_dir + "/a.ini -> " + g_dir + "/b.ini -> " + g_dir +
                        "/c.ini -> " + g_dir + "/a.ini");
    const std::string self = put("self.ini", "[scenario]\ninclude=self.ini\n");
    expect_error(load({self}), self + ":2: error: include cycle: " + self + " -> " + self);
    const std::string m = put("m.ini", "[scenario]\nid=m\ninclude=profiles/none.ini\n");
    expect_error(load({m}), m + ":3: error: cannot include '" + g_dir + "/profiles/none.ini': no such file");
    // -o cannot include.
    expect_error(load({m}, {"scenario.include=x.ini"}),
                 "error: -o scenario.include=x.ini: scenario.include can only be set in a scenario file");
}
END_TEST

START_TEST(test_option_errors)
{
    raw_scenario raw;
    std::string err;
    ck_assert(!scenario_override("l2.size", &raw, &err));
    CK_STR_EQ(err.c_str(), "error: -o l2.size: expected group.key=value, e.g. -o l2.size=512KiB");
    ck_assert(!scenario_override("size=1MiB", &raw, &err));
    ck_assert(!scenario_override("a.b.c=1", &raw, &err));
    ck_assert(!scenario_override(".x=1", &raw, &err));
    ck_assert(scenario_override("l2.size= 1MiB", &raw, &err));
    CK_STR_EQ(raw.values.back().text.c_str(), "1MiB");
    const std::string f = put("p.ini", "[driver]\npatches=missing.patch\n");
    expect_error(load({f}), f + ":2: error: driver.patches: 'missing.patch': no such file (looked for " + g_dir +
                                "/missing.patch)");
}
END_TEST

START_TEST(test_rules_name_the_last_key)
{
    const std::string f = put("r.ini", "[l1]\nsize=48KiB\n");
    expect_error(load({f}), f + ":2: error: the number of sets (l1.size / (l1.assoc * l1.line)) must be a power of "
                                "two (l1.size=48KiB, l1.assoc=4, l1.line=32B)");
    expect_error(load({f}, {"l1.size=32KiB", "stress.enabled=true", "stress.core=3", "stress.workers=2"}),
                 "error: -o stress.workers=2: the memory hog's workers run on cores stress.core .. stress.core + "
                 "stress.workers - 1, which must exist (cpu.cores) (stress.core=3, stress.workers=2, cpu.cores=4, "
                 "stress.enabled=true)");
}
END_TEST

// The combinations the models refuse at elaboration are refused by the
// loader first, at the key set last (the models' own checks stay behind
// them); the accepted values on either side still load.
START_TEST(test_rules_before_the_models)
{
    const std::string f = put("m.ini", "[app]\njoin_group=0.239.0.1\n");
    expect_error(load({f}), f + ":2: error: app.join_group must be an IPv4 multicast address (224.0.0.0/4), or "
                                "0.0.0.0 for none (app.join_group=0.239.0.1)");
    ck_assert(load({f}, {"app.join_group=239.0.0.1"}).ok);
    const std::string k = put("k.ini", "[kernel]\nbackground=true\nbg_irq_rate=100\nbg_irq_core=5\n");
    expect_error(load({k}), k + ":4: error: kernel.bg_irq_core must be a core that exists (kernel.bg_irq_core=5, "
                                "cpu.cores=4, kernel.background=true, kernel.bg_irq_rate=100)");
    ck_assert(load({k}, {"kernel.bg_irq_rate=0"}).ok);  // no background interrupt: the core is not used
    const std::string p = put("p.ini", "[peer]\ntcp_send=true\n[app]\nenabled=false\n");
    expect_error(load({p}), p + ":4: error: peer.tcp_send needs the board's application (app.enabled=true): it "
                                "reads the stream (iperf3 -s) (peer.tcp_send=true, app.enabled=false)");
    expect_error(load({p}), p + ":2: error: peer.tcp_send needs a kernel tree's driver (driver.tree): the board's "
                                "TCP and ICMP endpoints and its qdisc sit on the 6.x shim's transmit path "
                                "(tx.protocol=udp, tx.enabled=false, peer.ping=false, peer.tcp_send=true, "
                                "driver.tree=)");
    const std::string t = put("t.ini", "[tx]\nenabled=true\nsndbuf=64KiB\n");
    expect_error(load({t}), t + ":3: error: tx.sndbuf needs a kernel tree's driver (driver.tree): fecsim's own "
                                "driver's transmit path takes linear UDP datagrams (tx.protocol=udp, "
                                "tx.head_bytes=0B, tx.sndbuf=64KiB, tx.enabled=true, driver.tree=)");
    ck_assert(load({t}, {"tx.sndbuf=0"}).ok);
    const loaded cubic = load({t}, {"tx.sndbuf=0", "tx.protocol=tcp_cubic"});  // said once, by the TCP rule
    ck_assert_uint_eq(cubic.errors.size(), 1);
    expect_error(cubic, "error: -o tx.protocol=tcp_cubic: tx.protocol=tcp_cubic needs a kernel tree's driver "
                        "(driver.tree): the board's TCP and ICMP endpoints and its qdisc sit on the 6.x shim's "
                        "transmit path (tx.protocol=tcp_cubic, tx.enabled=true, peer.ping=false, "
                        "peer.tcp_send=false, driver.tree=)");
    const std::string u = put("u.ini", "[traffic]\nsize_mode=uniform\nsize_min=500\nsize_max=100\n");
    expect_error(load({u}), u + ":4: error: traffic.size_min must not exceed traffic.size_max "
                                "(traffic.size_min=500B, traffic.size_max=100B, traffic.size_mode=uniform)");
    ck_assert(load({u}, {"traffic.size_mode=fixed"}).ok);
    const std::string e = put("e.ini", "[enet]\nburst_bytes=60\n");
    expect_error(load({e}), e + ":2: error: enet.rx_fifo_bytes and enet.burst_bytes must be multiples of "
                                "enet.bus_bytes (enet.rx_fifo_bytes=4KiB, enet.burst_bytes=60B, enet.bus_bytes=8B)");
    ck_assert(load({e}, {"enet.bus_bytes=4"}).ok);
}
END_TEST

// A message of the models names keys: the one set last among them is where
// the rejection points; a word that is no key set, or a sentence's full
// stop, does not count.
START_TEST(test_origin_of_named_keys)
{
    const std::string f = put("o.ini", "[l1]\nsize=32KiB\n[l2]\nassoc=16\n");
    const loaded l = load({f}, {"stress.core=1"});
    ck_assert(l.ok);
    const std::string at_l1 = origin_of_named_keys(l.r, "l1.size is odd.").str();
    const std::string at_l2 = origin_of_named_keys(l.r, "l1.size with l2.assoc=16").str();
    const std::string at_o = origin_of_named_keys(l.r, "l2.assoc and stress.core").str();
    const std::string none = diag(origin_of_named_keys(l.r, "x"), "m");
    const std::string line2 = f + ":2", line4 = f + ":4";
    ck_assert_str_eq(at_l1.c_str(), line2.c_str());
    ck_assert_str_eq(at_l2.c_str(), line4.c_str());
    ck_assert_str_eq(at_o.c_str(), "-o stress.core=1");
    ck_assert(origin_of_named_keys(l.r, "l1.assoc (a default) and traffic: nothing set").file.empty());
    ck_assert_str_eq(none.c_str(), "error: m");
}
END_TEST

// Keys that moved to another group are refused under their old name, in
// files (FILE:LINE) and in -o, with the name to write instead.
START_TEST(test_moved_keys)
{
    const std::string f = put("old.ini", "[scenario]\nid=old\n[cpu]\ncores=4\nnetdev_budget=64\n"
                                         "[kernel]\nsched_slice=1ms\n");
    loaded l = load({f}, {"cpu.irq_core=1", "kernel.netdev_budget=32"});
    expect_error(l, f + ":5: error: cpu.netdev_budget moved to [kernel]: write kernel.netdev_budget");
    expect_error(l, "error: -o cpu.irq_core=1: cpu.irq_core moved to [kernel]: write kernel.irq_core");
    ck_assert_uint_eq(l.errors.size(), 2);
    // The new names take the values.
    loaded n = load({}, {"kernel.netdev_budget=64", "kernel.irq_core=2", "kernel.softirq_max_time=1ms"});
    ck_assert_msg(n.ok, "%s", n.errors.empty() ? "" : n.errors[0].c_str());
    ck_assert_uint_eq(n.r.cfg.kernel.netdev_budget, 64);
    ck_assert_uint_eq(n.r.cfg.kernel.irq_core, 2);
    ck_assert_uint_eq(n.r.cfg.kernel.softirq_max_time_ps, 1000000000ull);
    // Every entry's new name is a key, its old name is not.
    for (const auto& m : registry_moved_keys()) {
        const std::string from = m.from, to = m.to;
        const group_entry* g = registry_find(to.substr(0, to.find('.')));
        ck_assert_msg(g && g->find_param(to.substr(to.find('.') + 1)), "%s is not a key", m.to);
        const group_entry* o = registry_find(from.substr(0, from.find('.')));
        ck_assert_msg(!o || !o->find_param(from.substr(from.find('.') + 1)), "%s is still a key", m.from);
        ck_assert(registry_moved(from.substr(0, from.find('.')), from.substr(from.find('.') + 1)) == &m);
    }
    ck_assert(registry_moved("kernel", "netdev_budget") == nullptr);
    // --vary gives the same message.
    vary_key vk;
    std::string err;
    ck_assert(!vary_parse("cpu.netdev_budget=64,128", units_context(), &vk, &err));
    CK_STR_EQ(err.c_str(), "--vary cpu.netdev_budget: cpu.netdev_budget moved to [kernel]: write kernel.netdev_budget");
}
END_TEST

// A resolved file loads back to the identical configuration, compared key by key.
START_TEST(test_resolved_round_trip)
{
    const std::string patch = put("x.patch", "--- a\n+++ b\n");
    loaded l =
        load({"builtin:default.ini"}, {"l2.size=256KiB", "l1.replacement=lru", "scenario.quantum=7cycles",
                                       "stress.enabled=true", "scenario.description=round; trip \\ test",
                                       "driver.patches=" + patch, "dram.clock=533.5MHz", "scenario.duration=21.28us"});
    ck_assert_msg(l.ok, "%s", l.errors.empty() ? "" : l.errors[0].c_str());
    const std::string text = scenario_dump(l.r, " header line");
    const std::string path = put("resolved.ini", text);
    loaded back = load({path});
    ck_assert_msg(back.ok, "%s", back.errors.empty() ? "" : back.errors[0].c_str());
    size_t keys = 0;
    for (const auto& g : registry_groups()) {
        for (const auto& k : g.keys(false)) {
            const std::string a = scenario_value(l.r, g, k), b = scenario_value(back.r, g, k);
            ck_assert_msg(a == b, "%s.%s: '%s' != '%s'", g.name, k.c_str(), a.c_str(), b.c_str());
            keys++;
        }
        if (g.table) {  // and the stored numbers themselves
            const void* ca = g.config(l.r.cfg);
            const void* cb = g.config(back.r.cfg);
            for (const auto& d : *g.table)
                ck_assert_msg(models::param_get(ca, d) == models::param_get(cb, d), "%s.%s", g.name, d.key);
        }
    }
    ck_assert_uint_gt(keys, 50);
    CK_STR_EQ(scenario_canonical(l.r).c_str(), scenario_canonical(back.r).c_str());
    CK_STR_EQ(scenario_hash(l.r).c_str(), scenario_hash(back.r).c_str());
    CK_STR_EQ(back.r.cfg.scenario.description.c_str(), "round; trip \\ test");
    // Every key is in the file, with a comment.
    ck_assert(text.find("c2c_cycles=20") != std::string::npos);
    ck_assert(text.find("# SCU transfer of a line held by another core's L1") != std::string::npos);
    ck_assert(text.find("\ninclude=") == std::string::npos);
}
END_TEST

START_TEST(test_registry_consistent)
{
    // scenario_config's hand-written defaults (sim/soc.h) equal its table's.
    sim::scenario_config def;
    sim::scenario_config fromtable;
    models::param_defaults(&fromtable, scenario_param_table);
    for (const auto& d : scenario_param_table)
        ck_assert_msg(models::param_get(&def, d) == models::param_get(&fromtable, d), "scenario.%s", d.key);
    for (const auto& g : registry_groups()) {
        if (g.table)
            CK_STR_EQ(g.table->group, g.name);
        const auto keys = g.keys();
        for (size_t i = 0; i < keys.size(); i++)
            for (size_t j = i + 1; j < keys.size(); j++)
                ck_assert_msg(keys[i] != keys[j], "[%s] %s twice", g.name, keys[i].c_str());
    }
    // The cores' scheduling policy defaults (models/cpu/cpu_config.h) equal [kernel]'s.
    khost::kernel_config k;
    const models::cpu::sched_policy p;
    ck_assert_uint_eq(p.softirq_max_restart, k.softirq_max_restart);
    ck_assert_uint_eq(p.softirq_max_time_ps, k.softirq_max_time_ps);
    ck_assert_uint_eq(p.ksoftirqd_defers, k.ksoftirqd_defers);
    ck_assert_uint_eq(p.sched_slice_ps, k.sched_slice_ps);
    ck_assert_uint_eq(p.ctx_switch_cycles, k.ctx_switch_cycles);
    ck_assert_uint_eq(p.wakeup_cycles, k.wakeup_cycles);
    ck_assert_uint_eq(p.tick_cycles, k.tick_cycles);
    ck_assert_uint_eq(p.timer_softirq_cycles, k.timer_softirq_cycles);
    ck_assert_uint_eq(p.rcu_softirq_interval, k.rcu_softirq_interval);
    ck_assert_uint_eq(p.rcu_softirq_cycles, k.rcu_softirq_cycles);
    ck_assert_uint_eq(p.bg_irq_cycles, k.bg_irq_cycles);
    ck_assert_uint_eq(p.bg_irq_core, k.bg_irq_core);
    CK_STR_EQ(closest_name("assco", {"assoc", "size"}).c_str(), "'assoc'");
    CK_STR_EQ(closest_name("zzzzzz", {"assoc", "size"}).c_str(), "");
}
END_TEST

// The paths in an "Implemented in" text ("models/cache/pl310.{h,cc} (...)"),
// braces expanded: every word with a '/' in it.
std::vector<std::string> paths_in(const std::string& text)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
        std::string word, alts;
        while (i < text.size() && (g_ascii_isalnum(text[i]) || std::strchr("_./-{", text[i]))) {
            if (text[i] == '{') {
                const size_t e = text.find('}', i);
                ck_assert_msg(e != std::string::npos, "unclosed brace in '%s'", text.c_str());
                alts = text.substr(i + 1, e - i - 1);
                i = e + 1;
                break;
            }
            word += text[i++];
        }
        if (word.empty()) {
            i++;
            continue;
        }
        if (word.find('/') == std::string::npos)
            continue;
        while (alts.empty() && !word.empty() && word.back() == '.')
            word.pop_back();
        if (alts.empty()) {
            out.push_back(word);
            continue;
        }
        size_t a = 0;
        for (size_t c = alts.find(','); ; c = alts.find(',', a)) {
            out.push_back(word + alts.substr(a, c == std::string::npos ? std::string::npos : c - a));
            if (c == std::string::npos)
                break;
            a = c + 1;
        }
    }
    return out;
}

// Every group and statistics-only component names the files that implement
// it, and they exist in the source tree.
START_TEST(test_implemented_in)
{
    const char* srcdir = g_getenv("FECSIM_SRCDIR");
    std::vector<std::pair<std::string, std::string>> all;
    for (const auto& g : registry_groups())
        all.push_back({g.name, g.implemented_in ? g.implemented_in : ""});
    for (const auto& c : registry_stats_components())
        all.push_back({c.name, c.implemented_in ? c.implemented_in : ""});
    for (const auto& [name, impl] : all) {
        const auto paths = paths_in(impl);
        ck_assert_msg(!paths.empty(), "%s: no source file in '%s'", name.c_str(), impl.c_str());
        for (const auto& p : paths)
            ck_assert_msg(!srcdir || g_file_test((std::string(srcdir) + "/" + p).c_str(), G_FILE_TEST_EXISTS),
                          "%s: %s does not exist", name.c_str(), p.c_str());
    }
    CK_STR_EQ(registry_implemented_in("l2"), "models/cache/pl310.{h,cc}");
    CK_STR_EQ(registry_implemented_in("cpu3"), registry_implemented_in("cpu"));
    ck_assert(registry_implemented_in("l3") == nullptr);
    ck_assert_uint_eq(paths_in("a/b.{h,cc} (x), c/d.c; e").size(), 3);
}
END_TEST

// ---------------------------------------------------------------- hostile or careless input
// Each of these failed by hanging, eating memory or printing what it read;
// their test case has a short timeout so that a hang fails fast.

// CPU seconds used by this process so far.
double cpu_seconds() { return (double)std::clock() / CLOCKS_PER_SEC; }

// No message is more than one line, and none has a line that starts like a
// diagnostic of its own: input cannot forge a message.
void expect_single_lines(const loaded& l)
{
    for (const auto& e : l.errors) {
        ck_assert_msg(e.find('\n') == std::string::npos && e.find('\r') == std::string::npos,
                      "message spans lines: %s", e.c_str());
        ck_assert_msg(e.size() < 1000, "message of %zu bytes", e.size());
    }
}

START_TEST(test_include_fifo)
{
    const std::string fifo = g_dir + "/fifo.ini";
    ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
    const std::string f = put("f.ini", "[scenario]\nid=f\ninclude=fifo.ini\n");
    const double t0 = cpu_seconds();
    loaded l = load({f});
    expect_error(l, f + ":3: error: cannot include '" + fifo + "': is a FIFO (named pipe), not a regular file");
    // Named on its own, too.
    expect_error(load({fifo}), "error: " + fifo + ": is a FIFO (named pipe), not a regular file");
    ck_assert(cpu_seconds() - t0 < 1);
}
END_TEST

START_TEST(test_include_devices)
{
    const std::string f = put("z.ini", "[scenario]\ninclude=/dev/zero\n");
    expect_error(load({f}), f + ":2: error: cannot include '/dev/zero': is a character device, not a regular file");
    const std::string d = put("d.ini", "[scenario]\ninclude=.\n");
    expect_error(load({d}), d + ":2: error: cannot include '" + g_dir + "': is a directory");
    expect_error(load({"/dev/null"}), "error: /dev/null: is a character device, not a regular file");
}
END_TEST

START_TEST(test_size_limits)
{
    // A file over the limit is refused before it is read.
    const std::string big = put("big.ini", "[l2]\n" + std::string(8 << 20, 'x') + "=1\n");
    const double t0 = cpu_seconds();
    loaded l = load({big});
    expect_error(l, "error: " + big + ": is 8388616 bytes; a scenario file may have at most 1 MiB");
    ck_assert(cpu_seconds() - t0 < 1);
    // Lines have a limit of their own.
    const std::string line = put("line.ini", "[l2]\nsize=1MiB\n# " + std::string(5000, 'c') + "\nassoc=8\n");
    expect_error(load({line}), line + ":3: error: line is 5002 bytes long; a line may have at most 4096 bytes");
    // And what one scenario reads in all: files and bytes.
    put("one.ini", "[l2]\n");
    std::string many = "[scenario]\ninclude=";
    for (unsigned i = 0; i < k_scenario_max_files + 10; i++)
        many += "one.ini;";
    const std::string m = put("many.ini", many + "\n");
    loaded ml = load({m});
    expect_error(ml, m + ":2: error: cannot include '" + g_dir + "/one.ini': more than 256 files read for one "
                          "scenario (includes of includes, repeats counted)");
    ck_assert_uint_eq(ml.errors.size(), 1);  // said once, not for every item left
    std::string comments;
    while (comments.size() + 100 < k_scenario_max_file_bytes)
        comments += "# " + std::string(97, 'c') + "\n";
    put("mib.ini", "[l2]\n" + comments);
    std::string heavy = "[scenario]\ninclude=";
    for (unsigned i = 0; i < 5; i++)
        heavy += "mib.ini;";
    const std::string h = put("heavy.ini", heavy + "\n");
    expect_error(load({h}), h + ":2: error: cannot include '" + g_dir + "/mib.ini': the files read for one scenario "
                                "(with their includes) may have at most 4 MiB in all");
    // And the number of errors, when reading and when resolving.
    std::string junk = "[scenario]\n", unknown = "[l2]\n";
    for (int i = 0; i < 1500; i++) {
        junk += "junk\n";
        unknown += "k" + std::to_string(i) + "=1\n";
    }
    const std::string j = put("junk.ini", junk);
    loaded jl = load({j});
    ck_assert_uint_eq(jl.errors.size(), 1001);
    CK_STR_EQ(jl.errors.back(), j + ":1002: error: more than 1000 errors; those from here on are not reported");
    const std::string u = put("unknown.ini", unknown);
    loaded ul = load({u});
    ck_assert_uint_eq(ul.errors.size(), 1001);
    CK_STR_EQ(ul.errors.back(), u + ":1002: error: more than 1000 errors; the others are not reported");
}
END_TEST

START_TEST(test_huge_names_are_cheap)
{
    // An 8 MiB key reaches the resolver only from memory (-o is limited by
    // the system, files by their size): no did-you-mean, a short message.
    const std::string key(8 << 20, 'x');
    raw_scenario raw;
    std::string err;
    ck_assert(scenario_override("l2." + key + "=1", &raw, &err));
    ck_assert(scenario_override(key + ".size=1", &raw, &err));
    ck_assert(scenario_override("l2.size=" + key, &raw, &err));
    ck_assert(scenario_override("scenario.id=" + key, &raw, &err));
    const double t0 = cpu_seconds();
    loaded l;
    scenario_resolve(raw, &l.r, &l.errors);
    l.ok = l.errors.empty();
    ck_assert_msg(cpu_seconds() - t0 < 1, "resolving took %.1f s of CPU", cpu_seconds() - t0);
    ck_assert_uint_eq(l.errors.size(), 4);
    expect_single_lines(l);
    const std::string x64(64, 'x');
    const std::string ell = "\xe2\x80\xa6";
    ck_assert(l.errors[0].find("unknown key '" + x64 + ell + "' in [l2] (keys: size ") != std::string::npos);
    ck_assert(l.errors[1].find("unknown group [" + x64 + ell + "] (known:") != std::string::npos);
    ck_assert(l.errors[2].find("l2.size: '" + x64 + ell + "' is not a number") != std::string::npos);
    ck_assert(l.errors[3].find("scenario.id: '" + x64 + ell + "' is not a valid name") != std::string::npos);
    // The did-you-mean itself is bounded.
    CK_STR_EQ(closest_name(std::string(65, 'a'), {std::string(65, 'a')}), "");
    CK_STR_EQ(closest_name(std::string(64, 'a'), {std::string(64, 'a')}), "'" + std::string(64, 'a') + "'");
}
END_TEST

START_TEST(test_no_forged_lines)
{
    // In -o: every kind of key, and the key itself.
    const std::string forged = "x\nfake.ini:1: error: injected\r\n";
    loaded o = load({"builtin:default.ini"},
                    {"scenario.description=" + forged, "scenario.id=" + forged, "l2.size=" + forged,
                     "l2.siz" + forged + "=1", "driver.patches=" + forged, "l1.replacement=" + forged});
    ck_assert_uint_eq(o.errors.size(), 6);
    expect_single_lines(o);
    expect_error(o, "error: -o l2.size=x\\nfake.ini:1: error: injected\\r\\n: l2.size: 'x\\nfake.ini:1: error: "
                    "injected' is not a number: expected a whole number of bytes with an optional unit: B, kB, MB, "
                    "GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), e.g. 32KiB");
    // In a file: GKeyFile escapes in values, and names.
    const std::string f = put("inj.ini", "[scenario]\ndescription=x\\nfake.ini:1: error: injected\n"
                                         "id=a\\nfake.ini:1: error: injected\n[l2]\nsize=1\\n2\n"
                                         "[driver]\npatches=a\\nfake.ini:1: error: injected\n");
    loaded l = load({f});
    ck_assert_uint_eq(l.errors.size(), 4);
    expect_single_lines(l);
    expect_error(l, f + ":2: error: scenario.description: must be a single line");
    expect_error(l, f + ":3: error: scenario.id: 'a\\nfake.ini:1: error: injected' is not a valid name: use "
                        "letters, digits, '.', '_' and '-', not starting with '.'");
    // A file name cannot forge one either.
    const std::string n = put("a\nfake.ini:1: error: x.ini", "[l2]\nsize=3\n");
    loaded nl = load({n});
    expect_single_lines(nl);
    expect_error(nl, g_dir + "/a\\nfake.ini:1: error: x.ini:2: error: l2.size: '3' is out of range: allowed 16KiB .. "
                             "8MiB");
}
END_TEST

START_TEST(test_control_characters)
{
    // In a group name: the message has the line (it had none).
    const std::string g = put("g.ini", "[scenario]\nid=g\n[l\x01]\nsize=1\n[l2]\nassoc=8\n");
    loaded gl = load({g});
    expect_error(gl, g + ":3: error: control character \\x01 in column 3");
    ck_assert_uint_eq(gl.errors.size(), 1);  // its key is not reported as outside a group
    // \r\r\n line endings: each line is named; \r\n ones are fine.
    const std::string r = put("r.ini", "[scenario]\r\r\nid=r\r\r\n");
    loaded rl = load({r});
    expect_error(rl, r + ":1: error: control character \\r in column 11 (the line ends in \\r\\r\\n: write \\n or "
                         "\\r\\n line endings)");
    expect_error(rl, r + ":2: error: control character \\r in column 5 (the line ends in \\r\\r\\n: write \\n or "
                         "\\r\\n line endings)");
    const std::string crlf = put("crlf.ini", "[scenario]\r\nid=crlf\r\n[l2]\r\nsize=256KiB\r\n");
    loaded cl = load({crlf});
    ck_assert_msg(cl.ok, "%s", cl.errors.empty() ? "" : cl.errors[0].c_str());
    ck_assert_uint_eq(cl.r.cfg.mem.l2.size_bytes, 256 * 1024);
    CK_STR_EQ(cl.r.cfg.scenario.id, "crlf");
    // Anywhere else in a line, and in keys and values.
    const std::string k = put("k.ini", "[l2]\nsi\x1bze=1\nassoc=4\x7f\n");
    loaded kl = load({k});
    expect_error(kl, k + ":2: error: control character \\x1b in column 3");
    expect_error(kl, k + ":3: error: control character \\x7f in column 8");
    for (const auto& e : gl.errors)
        ck_assert(e.find(':') != std::string::npos && e.compare(0, g.size() + 1, g + ":") == 0);
}
END_TEST

START_TEST(test_include_not_a_scenario)
{
    // Binary: refused at the include=, nothing of it quoted.
    std::string bin = "\x7f" "ELF\x02\x01\x01";
    bin += std::string("\0\0\0SECRET", 9) + "\n[l2]\n";
    const std::string bf = g_dir + "/bin.dat";
    ck_assert(g_file_set_contents(bf.c_str(), bin.data(), (gssize)bin.size(), nullptr));
    const std::string a = put("a.ini", "[scenario]\ninclude=bin.dat\n");
    loaded al = load({a});
    expect_error(al, a + ":2: error: cannot include '" + bf + "': not a scenario file (NUL byte at line 1)");
    ck_assert_uint_eq(al.errors.size(), 1);
    expect_error(load({bf}), bf + ":1: error: not a text file (NUL byte)");  // named on its own: its line
    // Text that is not a scenario file (no [group] first), nothing quoted.
    put("shadow", "root:$6$SECRET:19000:0:99999:7:::\n[l2]\nsize=x\n");
    put("comments.ini", "# only comments\n\n");
    put("latin1.ini", "[scenario]\ndescription=caf\xe9\n");
    const std::string b = put("b.ini", "[scenario]\ninclude=shadow;comments.ini;latin1.ini\n");
    loaded bl = load({b});
    expect_error(bl, b + ":2: error: cannot include '" + g_dir +
                         "/shadow': not a scenario file (line 1 is not a [group] header, a # comment or blank)");
    expect_error(bl, b + ":2: error: cannot include '" + g_dir + "/comments.ini': not a scenario file (no [group] "
                         "header)");
    expect_error(bl, b + ":2: error: cannot include '" + g_dir + "/latin1.ini': not a scenario file (not UTF-8 "
                         "text at line 2)");
    ck_assert_uint_eq(bl.errors.size(), 3);
    for (const auto& e : al.errors)
        ck_assert(e.find("SECRET") == std::string::npos);
    for (const auto& e : bl.errors)
        ck_assert(e.find("SECRET") == std::string::npos && e.find("root") == std::string::npos);
}
END_TEST

START_TEST(test_path_kinds)
{
    const std::string fifo = g_dir + "/cap.pcap";
    ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
    put("drv/x.c", "int x;\n");
    put("one.patch", "--- a\n+++ b\n");
    const std::string f = put("p.ini", "[traffic]\npcap_file=cap.pcap\n[driver]\nsource=one.patch\npatches=drv\n");
    loaded l = load({f});
    expect_error(l, f + ":2: error: traffic.pcap_file: 'cap.pcap' is not a regular file");
    expect_error(l, f + ":4: error: driver.source: 'one.patch' is not a directory");
    expect_error(l, f + ":5: error: driver.patches: 'drv' is a directory, not a file");
    ck_assert_uint_eq(l.errors.size(), 3);
    loaded ok = load({f}, {"traffic.pcap_file=/dev/null", "driver.source=" + g_dir + "/drv",
                           "driver.patches=" + g_dir + "/one.patch"});
    expect_error(ok, "error: -o traffic.pcap_file=/dev/null: traffic.pcap_file: '/dev/null' is not a regular file");
    ck_assert_uint_eq(ok.errors.size(), 1);
}
END_TEST

// Found by make fuzz: a value that is not whole in its base unit is written
// back (units_format, the resolved file) as text that reads as the same value.
START_TEST(test_fuzz_findings)
{
    loaded l = load({"builtin:default.ini"}, {"dram.clock=0000000000001111270295.777777777778"});
    ck_assert_msg(l.ok, "%s", l.errors.empty() ? "" : l.errors[0].c_str());
    const std::string path = put("resolved.ini", scenario_dump(l.r, " fuzz"));
    loaded back = load({path});
    ck_assert_msg(back.ok, "%s", back.errors.empty() ? "" : back.errors[0].c_str());
    CK_STR_EQ(scenario_canonical(back.r), scenario_canonical(l.r));
    // The same for any frequency or bit rate: parse(format(v)) == v.
    const group_entry* dram = registry_find("dram");
    const models::param_desc* clock = dram->find_param("clock");
    GRand* rng = g_rand_new_with_seed(7);
    for (int i = 0; i < 20000; i++) {
        const double v = g_rand_double_range(rng, 1, 1e13) / (1 + g_rand_int_range(rng, 0, 1000));
        double back_v = 0;
        std::string why;
        const std::string text = units_format(*clock, v);
        ck_assert_msg(units_parse(*clock, text, &back_v, &why), "%s: %s", text.c_str(), why.c_str());
        ck_assert_msg(back_v == v, "%.17g -> %s -> %.17g", v, text.c_str(), back_v);
    }
    g_rand_free(rng);
}
END_TEST

// The line scan gives every key the value GKeyFile gives it, for the shipped
// scenarios and for the corners of the grammar.
START_TEST(test_scan_matches_gkeyfile)
{
    std::vector<std::pair<std::string, std::string>> texts = {
        {"corners.ini", "  # comment\n[l2]  \n  size =  256KiB \t\nassoc\t=\t8\n\n[ l2 ]\nline=\n[l2]\nclock=1 GHz\r\n"
                        "[scenario]\ndescription = a \\s b\\t;\\\\ c ; \n"}};
    for (const auto& n : builtin_scenario_names())
        texts.push_back({"builtin:" + n, builtin_scenario(n)});
    const char* srcdir = g_getenv("FECSIM_SRCDIR");
    if (srcdir) {
        const std::vector<std::string> shipped = {"scenarios/imx6q/copybreak-stock-stress.ini",
                                                  "scenarios/predictions/ring-stock-stress.ini",
                                                  "scenarios/regress/rx-8k-1518-idle.ini"};
        for (const auto& s : shipped) {
            gchar* t = nullptr;
            ck_assert(g_file_get_contents((std::string(srcdir) + "/" + s).c_str(), &t, nullptr, nullptr));
            texts.push_back({s, t});
            g_free(t);
        }
    }
    size_t compared = 0;
    for (const auto& [name, text] : texts) {
        raw_scenario raw;
        std::vector<std::string> errors;
        // Built-ins under their own names (their includes are built-ins), files from a directory of their own.
        const std::string fake = name.compare(0, 8, "builtin:") == 0 ? name : g_dir + "/x.ini";
        ck_assert(scenario_read_text(fake, text, &raw, &errors) || !errors.empty());
        GKeyFile* kf = g_key_file_new();
        ck_assert(g_key_file_load_from_data(kf, text.data(), text.size(), G_KEY_FILE_NONE, nullptr));
        for (const auto& v : raw.values) {
            if (v.where.file != fake)
                continue;  // from an include
            gchar* g = g_key_file_get_value(kf, v.group.c_str(), v.key.c_str(), nullptr);
            ck_assert_msg(g && v.text == g, "%s: %s.%s: '%s' != '%s'", name.c_str(), v.group.c_str(), v.key.c_str(),
                          v.text.c_str(), g ? g : "(none)");
            g_free(g);
            compared++;
        }
        g_key_file_free(kf);
    }
    ck_assert_uint_gt(compared, 50);
}
END_TEST

START_TEST(test_message_text)
{
    CK_STR_EQ(message_text("a\nb\rc\td\x01\x7f"), "a\\nb\\rc\\td\\x01\\x7f");
    CK_STR_EQ(message_text("caf\xc3\xa9 \xe9t\xc3"), "caf\xc3\xa9 \\xe9t\\xc3");        // UTF-8 kept, other bytes escaped
    CK_STR_EQ(message_text("\xc2\x85|\xe2\x80\xa8|\xe2\x80\xae"), "\\u0085|\\u2028|\\u202e");  // NEL, LS, RLO
    CK_STR_EQ(message_text(std::string(64, 'a')), std::string(64, 'a'));
    CK_STR_EQ(message_text(std::string(65, 'a')), std::string(64, 'a') + "\xe2\x80\xa6");
    CK_STR_EQ(message_text("\xc3\xa9\xc3\xa9\xc3\xa9", 2), "\xc3\xa9\xc3\xa9\xe2\x80\xa6");  // characters, not bytes
    CK_STR_EQ(message_quote("it's"), "'it's'");
    CK_STR_EQ(diag(origin{"f\n.ini", 3, "", 0}, "x\ny"), "f\\n.ini:3: error: x\\ny");
    // The did-you-mean with its bounded distance finds what the full matrix finds.
    CK_STR_EQ(closest_name("assco", {"assoc", "size"}), "'assoc'");
    CK_STR_EQ(closest_name("siez", {"size", "line"}), "'size'");
    CK_STR_EQ(closest_name("lnie", {"size", "line"}), "'line'");
    CK_STR_EQ(closest_name("hit_cylces", {"hit_cycles", "miss_cycles"}), "'hit_cycles'");
    CK_STR_EQ(closest_name("abcdefghij", {"abcdefgxyz", "abcdefghxy"}), "'abcdefghxy'");
    CK_STR_EQ(closest_name("abcdefghij", {"abcdwxyzij"}), "");
    CK_STR_EQ(closest_name("SIZE", {"size"}), "'size'");
}
END_TEST

// The driver build's cache and error kinds (tests/unit/driver_build.cc).
TCase* tcase_driver_build(void);

Suite* suite_loader(void)
{
    Suite* s = suite_create("loader");
    TCase* tc = tests_tcase("core", TEST_TIMEOUT_UNIT);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_builtin_default_resolves);
    tcase_add_test(tc, test_includes_and_later_wins);
    tcase_add_test(tc, test_overrides_and_layers);
    tcase_add_test(tc, test_cycles_in_time);
    tcase_add_test(tc, test_unknown_names);
    tcase_add_test(tc, test_bad_values);
    tcase_add_test(tc, test_file_errors);
    tcase_add_test(tc, test_include_errors);
    tcase_add_test(tc, test_option_errors);
    tcase_add_test(tc, test_rules_name_the_last_key);
    tcase_add_test(tc, test_rules_before_the_models);
    tcase_add_test(tc, test_origin_of_named_keys);
    tcase_add_test(tc, test_moved_keys);
    tcase_add_test(tc, test_resolved_round_trip);
    tcase_add_test(tc, test_registry_consistent);
    tcase_add_test(tc, test_implemented_in);
    tcase_add_test(tc, test_scan_matches_gkeyfile);
    tcase_add_test(tc, test_message_text);
    tcase_add_test(tc, test_fuzz_findings);
    suite_add_tcase(s, tc);
    // Input that used to hang or eat memory: a hang fails in seconds.
    TCase* h = tests_tcase("hostile", 10);
    tcase_add_checked_fixture(h, setup, teardown);
    tcase_add_test(h, test_include_fifo);
    tcase_add_test(h, test_include_devices);
    tcase_add_test(h, test_size_limits);
    tcase_add_test(h, test_huge_names_are_cheap);
    tcase_add_test(h, test_no_forged_lines);
    tcase_add_test(h, test_control_characters);
    tcase_add_test(h, test_include_not_a_scenario);
    tcase_add_test(h, test_path_kinds);
    suite_add_tcase(s, h);
    suite_add_tcase(s, tcase_driver_build());
    return s;
}
