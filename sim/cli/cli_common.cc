// sim/cli/cli_common.cc: what the fecsim commands share: option parsing,
// scenario loading from options, version text.
#include <cstdio>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <systemc>
#include "drivers/khost/data_dir.h"
#include "sim/cli/commands.h"
#include "sim/version.h"
#include "drivers/khost/kernel_tree.h"
#include "drivers/khost/driver_build.h"

namespace sim {

std::string version_text()
{
#ifdef FECSIM_PGO_BUILD
    std::string s = "fecsim " PACKAGE_VERSION " (git " FECSIM_GIT_REVISION ", profile-guided build)\n";
#else
    std::string s = "fecsim " PACKAGE_VERSION " (git " FECSIM_GIT_REVISION ")\n";
#endif
    s += std::string("SystemC ") + sc_core::sc_release() + ", GLib " + std::to_string(glib_major_version) + "." +
         std::to_string(glib_minor_version) + "." + std::to_string(glib_micro_version) + ", json-glib " +
         JSON_VERSION_S + "\n";
    try {
        s += "data: " + khost::data_dir() + "\n";
    } catch (const khost::data_dir_error& e) {
        s += std::string("data: ") + e.what() + "\n";
    }
    return s;
}

// sha256 of a file's bytes in hex, or "(unreadable)".
static std::string file_sha256(const std::string& path)
{
    gchar* data = nullptr;
    gsize len = 0;
    std::string h = "(unreadable)";
    if (g_file_get_contents(path.c_str(), &data, &len, nullptr)) {
        gchar* x = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar*)data, len);
        h = x;
        g_free(x);
        g_free(data);
    }
    return h;
}

// "  patch PATH (-pN, sha256 HEX)" for each of the run's patches, the strip
// level as the build found it (khost::driver_patch_notes), then a line for
// each hunk that applied at an offset or with fuzz, in patch's words.
static std::string patches_text(const khost::driver_config& d)
{
    std::string s;
    khost::driver_build_config b;
    b.source_dir = d.source;
    b.tree = d.tree;
    b.tree_driver = d.name;
    b.patches = d.patches;
    std::vector<std::string> notes;
    try {
        notes = khost::driver_patch_notes(b);
    } catch (const std::exception&) {  // the run applied them: not expected
    }
    for (size_t i = 0; i < d.patches.size(); i++) {
        const std::string& p = d.patches[i];
        std::string level = "strip level not known", hunks;
        if (i < notes.size() && notes[i].size() > 3 && notes[i][0] == '-') {
            level = notes[i].substr(0, notes[i].find(' '));
            // patch's words for each hunk that applied elsewhere than it said
            for (size_t t = notes[i].find('\t'); t != std::string::npos;) {
                const size_t e = notes[i].find('\t', t + 1);
                hunks += "    " + notes[i].substr(t + 1, e == std::string::npos ? e : e - t - 1) + "\n";
                t = e;
            }
        }
        s += "  patch " + p + " (" + level + ", sha256 " + file_sha256(p) + ")\n" + hunks;
    }
    // "  define FILE:LINE NAME OLD -> NEW" for each driver.defines item
    b.defines = khost::parse_driver_defines(d.defines);  // checked by the loader
    try {
        for (const auto& n : khost::driver_define_notes(b))
            s += "  define " + n + "\n";
    } catch (const std::exception&) {  // the run applied them: not expected
    }
    return s;
}

std::string tree_driver_text(const khost::driver_config& d)
{
    if (d.tree.empty())
        return d.patches.empty() && d.defines.empty() ? ""
                                                      : "driver: fecsim's own, with patches or defines\n" + patches_text(d);
    const khost::kernel_tree t = khost::kernel_tree_open(d.tree, d.name);  // checked by the loader
    const khost::tree_driver* td = khost::tree_driver_find(t.driver);
    std::string s = "driver: " + t.driver + " from the kernel tree " +
                    (t.tarball.empty() ? t.root : t.tarball + " (extracted to " + t.root + ")") + " (Linux " + t.version_text() +
                    ", shim API level " + t.api + "), " +
                    (d.patches.empty() && d.defines.empty() ? std::string("its files compiled unchanged")
                                                            : d.defines.empty() ? "with patches"
                                                                                : "with patches or defines") +
                    "\n";
    s += patches_text(d);
    for (const auto& f : t.files)
        s += "  sha256 " + file_sha256(t.dir + "/" + f) + "  " + td->dir + "/" + f + "\n";
    return s;
}

std::string driver_summary_text(const khost::driver_config& d)
{
    const std::string defines = d.defines.empty() ? "" : ", defines " + d.defines;
    if (d.tree.empty())
        return "fecsim's own (" + (d.source.empty() ? std::string("drivers/fec") : d.source) + ")" + defines;
    const khost::kernel_tree t = khost::kernel_tree_open(d.tree, d.name);  // checked by the loader
    return t.driver + " from the kernel tree " + (t.tarball.empty() ? t.root : t.tarball) + " (Linux " +
           t.version_text() + ")" + defines;
}

// ---------------------------------------------------------------- shared options

std::vector<GOptionEntry> scenario_option_entries(scenario_options* o, std::initializer_list<GOptionEntry> own)
{
    std::vector<GOptionEntry> e;
    e.push_back({"set", 'o', 0, G_OPTION_ARG_STRING_ARRAY, &o->set,
                 "Override a scenario key after all files (repeatable), e.g. -o l2.size=512KiB", "GROUP.KEY=VALUE"});
    e.push_back(
        {"seed", 0, 0, G_OPTION_ARG_STRING, &o->seed, "Seed of every random generator (= -o scenario.seed=N)", "N"});
    e.push_back({"patch", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->patch,
                 "Driver patch (unified diff: git format-patch, git diff or diff -u output, with the "
                 "paths of the driver's tree or directory; applied to a copy of the driver sources before "
                 "they are built, with the one strip level -p0..-p4 that applies; repeatable, in order; "
                 "appends to driver.patches)",
                 "FILE"});
    e.insert(e.end(), own.begin(), own.end());
    return e;
}

int load_scenario(const std::vector<std::string>& files, const scenario_options& o, resolved_scenario* r,
                  const std::vector<std::string>& extra, bool quiet)
{
    raw_scenario raw;
    std::vector<std::string> errors;
    // A profile named on the command line (-o or --vary scenario.soc=NAME)
    // is read first and replaces the one the files name that way.
    const std::string soc_key = "scenario.soc=";
    std::string soc, soc_from;
    for (gchar** s = o.set; s && *s; s++)
        if (std::string(*s).rfind(soc_key, 0) == 0) {
            soc = std::string(*s).substr(soc_key.size());
            soc_from = "-o " + std::string(*s);
        }
    for (const auto& x : extra)
        if (x.rfind(soc_key, 0) == 0) {
            soc = x.substr(soc_key.size());
            soc_from = "--vary " + x;
        }
    if (!soc_from.empty())
        scenario_read_profile(soc, origin{soc_from, 0, "", 0}, &raw, &errors);
    if (files.empty())
        scenario_read("builtin:default.ini", &raw, &errors, !soc_from.empty());
    for (const auto& f : files)
        scenario_read(f, &raw, &errors, !soc_from.empty());
    for (gchar** s = o.set; s && *s; s++) {
        std::string err;
        if (!scenario_override(*s, &raw, &err))
            errors.push_back(err);
    }
    if (o.seed)
        scenario_set(&raw, "scenario", "seed", o.seed, "--seed", o.seed);
    for (gchar** p = o.patch; p && *p; p++)
        scenario_set(&raw, "driver", "patches", *p, "--patch", *p);
    for (const auto& x : extra) {
        std::string err;
        if (!scenario_override(x, &raw, &err))
            errors.push_back(err);
    }
    // Resolve even after reading errors: its errors are real too, and all are reported at once.
    scenario_resolve(raw, r, &errors);
    const auto sel = r->strings.find("scenario.soc");
    const auto got = r->strings.find("soc.profile");
    if (errors.empty() && sel != r->strings.end() && !sel->second.empty() && !sel->second[0].empty() && got != r->strings.end() &&
        !got->second.empty() && got->second[0] != sel->second[0]) {
        const auto at = r->set_at.find("soc.profile");
        const origin where = at != r->set_at.end() ? at->second : origin{"(default)", 0, "", 0};
        errors.push_back(diag(where, "soc.profile=" + message_quote(got->second[0]) + " overrides the profile " +
                                         "scenario.soc selects, " + message_quote(sel->second[0]) +
                                         ": this scenario names its profile another way (include=)"));
    }
    if (quiet)
        return errors.empty() ? EXIT_OK : EXIT_BAD_INPUT;
    for (size_t i = 0; i < errors.size() && i < 50; i++)
        std::fprintf(stderr, "%s\n", errors[i].c_str());
    if (errors.size() > 50)
        std::fprintf(stderr, "... and %zu more\n", errors.size() - 50);
    if (!errors.empty()) {
        std::fprintf(stderr, "fecsim: %zu error%s in the scenario; nothing was run\n", errors.size(),
                     errors.size() == 1 ? "" : "s");
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

int usage_error(const char* name, const std::string& what)
{
    std::fprintf(stderr, "fecsim %s: %s\nTry 'fecsim %s --help'.\n", name, what.c_str(), name);
    return EXIT_BAD_INPUT;
}

bool parse_command(const char* name, const char* params, const char* summary, const char* examples,
                   std::vector<GOptionEntry> entries, int argc, char** argv, std::vector<std::string>* args,
                   int* status)
{
    const std::string prg = std::string("fecsim ") + name;
    g_set_prgname(prg.c_str());
    GOptionContext* ctx = g_option_context_new(params);
    g_option_context_set_summary(ctx, summary);
    if (examples && *examples)
        g_option_context_set_description(ctx, (std::string("Examples (from the source tree):\n") + examples).c_str());
    entries.push_back({nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr});
    g_option_context_add_main_entries(ctx, entries.data(), nullptr);
    GError* err = nullptr;
    const bool ok = g_option_context_parse(ctx, &argc, &argv, &err);
    g_option_context_free(ctx);
    g_set_prgname("fecsim");
    if (!ok) {
        *status = usage_error(name, err->message);
        g_error_free(err);
        return false;
    }
    args->clear();
    for (int i = 1; i < argc; i++)
        args->push_back(argv[i]);
    return true;
}

} // namespace sim
