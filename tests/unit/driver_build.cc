// Driver build (drivers/khost/driver_build.{h,cc}): the directories of killed
// builds are removed by the next build, the cache key covers the compiler,
// and the build's own failures (driver_io_error) are told from bad input
// (driver_error). The driver here is a one-line .c file: the build is the
// subject, not the driver.
#include "tests/lib.h"
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <ftw.h>
#include <glib.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#include "drivers/khost/driver_build.h"

namespace {

std::string g_dir;  // per test (each test runs in its own process)

int rm_one(const char* p, const struct stat*, int, struct FTW*) { return remove(p); }

void setup()
{
    gchar* d = g_dir_make_tmp("fecsim-build-XXXXXX", nullptr);
    ck_assert_ptr_nonnull(d);
    g_dir = d;
    g_free(d);
}

void teardown() { nftw(g_dir.c_str(), rm_one, 16, FTW_DEPTH | FTW_PHYS); }

std::string put(const std::string& name, const std::string& text, mode_t mode = 0644)
{
    const std::string p = g_dir + "/" + name;
    gchar* parent = g_path_get_dirname(p.c_str());
    g_mkdir_with_parents(parent, 0777);
    g_free(parent);
    ck_assert(g_file_set_contents(p.c_str(), text.c_str(), -1, nullptr));
    chmod(p.c_str(), mode);
    return p;
}

std::vector<std::string> entries(const std::string& dir)
{
    std::vector<std::string> out;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d))
            if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, ".."))
                out.push_back(e->d_name);
        closedir(d);
    }
    return out;
}

// The entries of a driver cache but the kept compiler version (cc-version).
std::vector<std::string> builds(const std::string& dir)
{
    std::vector<std::string> out;
    for (const auto& e : entries(dir))
        if (e != "cc-version")
            out.push_back(e);
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& s)
{
    for (const auto& x : v)
        if (x == s)
            return true;
    return false;
}

std::string host()
{
    char h[256] = "localhost";
    gethostname(h, sizeof h - 1);
    return h;
}

khost::driver_build_config tiny(const std::string& name = "tiny")
{
    khost::driver_build_config c;
    put(name + "/tiny.c", "int fecsim_" + name + "_driver;\n");
    c.source_dir = g_dir + "/" + name;
    c.cache_dir = g_dir + "/cache";
    return c;
}

// A `cc` first in PATH, a shell script: runs `answer` for --version, else
// `body` (the compiler's arguments in "$@").
void fake_cc_script(const std::string& answer, const std::string& body)
{
    put("bin/cc", "#!/bin/sh\nif [ \"$1\" = --version ]; then " + answer + "; exit 0; fi\n" + body + "\n", 0755);
    const std::string path = g_dir + "/bin:" + (getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", path.c_str(), 1);
}

// The same printing `version` for --version.
void fake_cc(const std::string& version, const std::string& body) { fake_cc_script("echo '" + version + "'", body); }

} // namespace

START_TEST(test_killed_build_is_cleaned)
{
    // A driver that takes a while to compile, built in a child that is
    // killed (with its compiler) while the build is under way.
    std::string slow;
    for (int i = 0; i < 40000; i++)
        slow += "int f" + std::to_string(i) + "(int x) { return x * " + std::to_string(i) + " + 1; }\n";
    put("slow/slow.c", slow);
    khost::driver_build_config s;
    s.source_dir = g_dir + "/slow";
    s.cache_dir = g_dir + "/cache";
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setpgid(0, 0);
        try {
            khost::driver_load(s);
        } catch (...) {
        }
        _exit(0);
    }
    setpgid(pid, pid);
    const std::string prefix = "build-" + std::to_string(pid) + "@" + host() + "-";
    std::string killed;
    for (int i = 0; i < 3000 && killed.empty(); i++) {  // up to 30 s for the copy to be there
        for (const auto& e : entries(s.cache_dir))
            if (e.compare(0, prefix.size(), prefix) == 0 && has(entries(s.cache_dir + "/" + e), "slow.c"))
                killed = e;
        if (killed.empty())
            g_usleep(10000);
    }
    ck_assert_msg(!killed.empty(), "the build directory did not appear");
    kill(-pid, SIGKILL);
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFSIGNALED(st));
    // Directories of builds that are not dead, or not of this host, stay.
    const std::string alive = "build-" + std::to_string(getpid()) + "@" + host() + "-aaaaaa";
    const std::string other = "build-" + std::to_string(pid) + "@not-" + host() + "-bbbbbb";
    mkdir((s.cache_dir + "/" + alive).c_str(), 0755);
    mkdir((s.cache_dir + "/" + other).c_str(), 0755);
    ck_assert(has(entries(s.cache_dir), killed));
    // The next build removes the dead one.
    ck_assert_ptr_nonnull(khost::driver_load(tiny()));
    const auto after = builds(s.cache_dir);
    ck_assert_msg(!has(after, killed), "%s is still there", killed.c_str());
    ck_assert(has(after, alive) && has(after, other));
    ck_assert_uint_eq(after.size(), 3);  // and the finished build
}
END_TEST

START_TEST(test_key_covers_compiler)
{
    const khost::driver_build_config c = tiny();
    ck_assert_ptr_nonnull(khost::driver_load(c));
    ck_assert_uint_eq(builds(c.cache_dir).size(), 1);
    ck_assert_ptr_nonnull(khost::driver_load(c));  // cached
    ck_assert_uint_eq(builds(c.cache_dir).size(), 1);
    // Another compiler version is another build.
    fake_cc("cc (fake) 99.0", "exec /usr/bin/cc \"$@\"");
    ck_assert_ptr_nonnull(khost::driver_load(c));
    ck_assert_uint_eq(builds(c.cache_dir).size(), 2);
    // The flags are part of the key too (they are fixed: driver_cflags()).
    ck_assert(std::strstr(khost::driver_cflags(), "-fsanitize=thread"));
}
END_TEST

START_TEST(test_io_errors_are_not_bad_input)
{
    // The build itself fails: a cache that cannot be created, a compiler
    // that says the disk is full.
    khost::driver_build_config c = tiny();
    put("file", "x");
    c.cache_dir = g_dir + "/file/cache";
    try {
        khost::driver_load(c);
        ck_abort_msg("a cache below a regular file was accepted");
    } catch (const khost::driver_io_error& e) {
        ck_assert_msg(std::strstr(e.what(), "cannot create") && std::strstr(e.what(), "Not a directory"),
                      "message: %s", e.what());
    }
    fake_cc("cc (full) 1.0", "echo 'cc1: fatal error: tiny.o: No space left on device' >&2; exit 1");
    try {
        khost::driver_load(tiny("full"));
        ck_abort_msg("a full disk was not reported");
    } catch (const khost::driver_io_error& e) {
        ck_assert_msg(std::strstr(e.what(), "No space left on device"), "message: %s", e.what());
    }
    // Bad input stays driver_error, and is not an I/O error.
    setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1);
    khost::driver_build_config b = tiny("bad");
    put("bad/bad.c", "int x = undeclared_identifier;\n");
    try {
        khost::driver_load(b);
        ck_abort_msg("a driver that does not compile was accepted");
    } catch (const khost::driver_io_error& e) {
        ck_abort_msg("a compile error taken for an I/O error: %s", e.what());
    } catch (const khost::driver_error& e) {
        ck_assert_msg(std::strstr(e.what(), "does not compile"), "message: %s", e.what());
    }
    // A source that is not a regular file is refused, without blocking on it.
    khost::driver_build_config f = tiny("fifo");
    ck_assert_int_eq(mkfifo((g_dir + "/fifo/pipe.c").c_str(), 0600), 0);
    try {
        khost::driver_load(f);
        ck_abort_msg("a FIFO source was accepted");
    } catch (const khost::driver_io_error& e) {
        ck_abort_msg("a FIFO source taken for an I/O error: %s", e.what());
    } catch (const khost::driver_error& e) {
        ck_assert_msg(std::strstr(e.what(), "pipe.c is not a regular file"), "message: %s", e.what());
    }
}
END_TEST

// The compiler's version line is kept in the cache with the identity of
// the executable cc resolves to, and taken from there while that identity
// holds: a kept line that differs from what cc says is another cache key
// (so it was used), a kept identity that differs is looked at again.
START_TEST(test_compiler_version_kept)
{
    const khost::driver_build_config c = tiny();
    ck_assert_ptr_nonnull(khost::driver_load(c));
    gchar* text = nullptr;
    const std::string memo = c.cache_dir + "/cc-version";
    ck_assert_msg(g_file_get_contents(memo.c_str(), &text, nullptr, nullptr), "no %s", memo.c_str());
    const std::string kept = text;
    g_free(text);
    const size_t nl = kept.find('\n');
    ck_assert(nl != std::string::npos);
    const std::string id = kept.substr(0, nl), line = kept.substr(nl + 1);
    ck_assert_msg(line.compare(0, 3, "cc ") == 0 || line.find("gcc") != std::string::npos, "kept: %s", line.c_str());
    ck_assert_uint_eq(builds(c.cache_dir).size(), 1);
    put("cache/cc-version", id + "\ncc (kept) 0.0\n");
    ck_assert_ptr_nonnull(khost::driver_load(c));
    ck_assert_uint_eq(builds(c.cache_dir).size(), 2);  // keyed on the kept line: built again
    put("cache/cc-version", "0 0 0 0.000000000 /not/the/compiler\ncc (kept) 0.0\n");
    ck_assert_ptr_nonnull(khost::driver_load(c));
    ck_assert_uint_eq(builds(c.cache_dir).size(), 2);  // cc asked again: the first build's key
    text = nullptr;
    ck_assert(g_file_get_contents(memo.c_str(), &text, nullptr, nullptr));
    ck_assert_str_eq(text, kept.c_str());
    g_free(text);
    // A compiler that is a script is asked every time, and not kept: the
    // same script, unchanged, answers another version the second time.
    const std::string ver = put("ccver", "cc (script) 1.0\n");
    fake_cc_script("cat '" + ver + "'", "exec /usr/bin/cc \"$@\"");
    ck_assert_ptr_nonnull(khost::driver_load(c));
    ck_assert_uint_eq(builds(c.cache_dir).size(), 3);
    put("ccver", "cc (script) 2.0\n");
    ck_assert_ptr_nonnull(khost::driver_load(c));
    ck_assert_uint_eq(builds(c.cache_dir).size(), 4);
    text = nullptr;
    ck_assert(g_file_get_contents(memo.c_str(), &text, nullptr, nullptr));
    ck_assert_str_eq(text, kept.c_str());  // the real compiler's, untouched
    g_free(text);
}
END_TEST

// Run in the loader suite (tests/unit/loader.cc).
TCase* tcase_driver_build(void)
{
    TCase* tc = tests_tcase("driver_build", TEST_TIMEOUT_MODEL);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_killed_build_is_cleaned);
    tcase_add_test(tc, test_key_covers_compiler);
    tcase_add_test(tc, test_io_errors_are_not_bad_input);
    tcase_add_test(tc, test_compiler_version_kept);
    return tc;
}
