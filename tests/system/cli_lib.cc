#include <sstream>
#include "tests/system/cli.h"
#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <ftw.h>
#include <glib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/lib.h"

std::string fecsim_bin()
{
    const char* b = getenv("FECSIM");
    return b ? b : "sim/fecsim";
}

std::string fecsim_srcdir()
{
    const char* s = getenv("FECSIM_SRCDIR");
    return s ? s : ".";
}

static int decode(int st)
{
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return -1;
}

static proc_result spawn(const std::vector<std::string>& argv, const std::string& cwd)
{
    std::vector<gchar*> a;
    for (const auto& s : argv)
        a.push_back(const_cast<gchar*>(s.c_str()));
    a.push_back(nullptr);
    proc_result r;
    gchar* out = nullptr;
    gchar* err = nullptr;
    gint st = 0;
    GError* e = nullptr;
    const bool ok = g_spawn_sync(cwd.empty() ? nullptr : cwd.c_str(), a.data(), nullptr, G_SPAWN_DEFAULT, nullptr,
                                 nullptr, &out, &err, &st, &e);
    ck_assert_msg(ok, "cannot run %s: %s", argv[0].c_str(), e ? e->message : "");
    r.status = decode(st);
    r.out = out ? out : "";
    r.err = err ? err : "";
    g_free(out);
    g_free(err);
    return r;
}

proc_result fecsim(const std::vector<std::string>& args, const std::string& cwd)
{
    std::vector<std::string> a = {fecsim_bin()};
    a.insert(a.end(), args.begin(), args.end());
    return spawn(a, cwd);
}

proc_result shell(const std::string& cmd, const std::string& cwd) { return spawn({"/bin/sh", "-c", cmd}, cwd); }

pid_t fecsim_start(const std::vector<std::string>& args, const std::string& cwd)
{
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setpgid(0, 0);
        if (!cwd.empty() && chdir(cwd.c_str()) != 0)
            _exit(126);
        std::vector<char*> a;
        const std::string bin = fecsim_bin();
        a.push_back(const_cast<char*>(bin.c_str()));
        for (const auto& s : args)
            a.push_back(const_cast<char*>(s.c_str()));
        a.push_back(nullptr);
        freopen("/dev/null", "w", stdout);
        execv(a[0], a.data());
        _exit(127);
    }
    setpgid(pid, pid);  // also here, so the group exists before we signal it
    return pid;
}

int wait_exit(pid_t pid)
{
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return decode(st);
}

std::string tmp_dir()
{
    gchar* d = g_dir_make_tmp("fecsim-test-XXXXXX", nullptr);
    ck_assert_ptr_nonnull(d);
    std::string s = d;
    g_free(d);
    return s;
}

static int rm_one(const char* p, const struct stat*, int, struct FTW*) { return remove(p); }

void rm_rf(const std::string& path) { nftw(path.c_str(), rm_one, 16, FTW_DEPTH | FTW_PHYS); }

std::string read_text(const std::string& path)
{
    gchar* d = nullptr;
    gsize n = 0;
    if (!g_file_get_contents(path.c_str(), &d, &n, nullptr))
        return "";
    std::string s(d, n);
    g_free(d);
    return s;
}

bool exists(const std::string& path) { return g_file_test(path.c_str(), G_FILE_TEST_EXISTS); }

std::vector<std::string> entries(const std::string& dir, bool hidden)
{
    std::vector<std::string> v;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n == "." || n == ".." || (!hidden && n[0] == '.'))
                continue;
            v.push_back(n);
        }
        closedir(d);
    }
    std::sort(v.begin(), v.end());
    return v;
}

std::string only_subdir(const std::string& dir)
{
    const auto v = entries(dir);
    ck_assert_msg(v.size() == 1, "%s: expected one entry, found %zu", dir.c_str(), v.size());
    return dir + "/" + v[0];
}

std::map<std::string, long long> stats_txt(const std::string& path)
{
    std::map<std::string, long long> m;
    std::istringstream in(read_text(path));
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream l(line);
        std::string name;
        long long x;
        if (l >> name >> x)
            m[name] = x;
    }
    return m;
}
