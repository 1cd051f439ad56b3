// Drivers taken from a kernel source tree ([driver] tree=, name=): bad trees
// are refused before anything runs, naming the scenario line; a driver that
// uses kernel symbols the shim does not provide is refused with all of them
// and the driver lines that use them; a stop-on-call function stops the run
// (exit 3) naming itself and its caller. The trees here are small synthetic
// ones written by the tests (Makefile + the fec file names).
#include "tests/lib.h"
#include <fstream>
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

std::string scenario(const std::string& tree, const std::string& name = "fec")
{
    const std::string f = g_tmp + "/tree.ini";
    put(f, "[scenario]\nid=tree\nduration=1ms\n[driver]\ntree=" + tree + "\n" + (name.empty() ? "" : "name=" + name + "\n"));
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
// (code, an inline of a shim header, and a function-pointer initializer).
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
        "devm_clk_get: fec_main.c:",
    };
    for (const char* w : want)
        ck_assert_msg(r.err.find(w) != std::string::npos, "no '%s' in: %s", w, r.err.c_str());
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

Suite* suite_cli_tree(void)
{
    Suite* s = suite_create("cli_tree");
    TCase* tc = tests_tcase("synthetic", TEST_TIMEOUT_SYSTEM);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_unsupported_version_is_refused);
    tcase_add_test(tc, test_bad_tree_and_name_are_refused);
    tcase_add_test(tc, test_missing_symbols_are_all_listed);
    tcase_add_test(tc, test_stop_on_call);
    suite_add_tcase(s, tc);
    return s;
}
