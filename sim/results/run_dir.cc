// sim/results/run_dir.cc: run directories (run_dir.h): the temporary
// directory, its rename into place, stale ones of dead runs, signal cleanup.
#include "sim/results/run_dir.h"
#include "drivers/khost/host_dirs.h"
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <vector>
#include <fcntl.h>
#include <glib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sim {

bool make_dirs(const std::string& path, std::vector<std::string>* created, std::string* err)
{
    if (path.empty() || g_file_test(path.c_str(), G_FILE_TEST_IS_DIR))
        return true;
    const size_t s = path.rfind('/', path.size() > 1 ? path.size() - 2 : 0);
    if (s != std::string::npos && s > 0 && !make_dirs(path.substr(0, s), created, err))
        return false;
    if (mkdir(path.c_str(), 0777) != 0 && errno != EEXIST) {
        *err = "cannot create directory " + path + ": " + std::strerror(errno);
        return false;
    }
    if (created)
        created->push_back(path);
    return true;
}

static bool write_all(const std::string& path, const std::string& content, std::string* err)
{
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        *err = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    if (std::fclose(f) != 0 || !ok) {
        *err = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

bool write_file_atomic(const std::string& path, const std::string& content, std::string* err)
{
    GError* e = nullptr;
    if (!g_file_set_contents(path.c_str(), content.data(), (gssize)content.size(), &e)) {
        *err = e->message;
        g_error_free(e);
        return false;
    }
    return true;
}

bool run_dir_complete(const std::string& dir)
{
    return g_file_test((dir + "/summary.json").c_str(), G_FILE_TEST_IS_REGULAR);
}

// Remove ".tmp-<pid>@<host>-*" directories of dead processes on this host.
void run_dir_clean_stale(const std::string& parent)
{
    for (const auto& p : khost::stale_dirs(parent, ".tmp-"))
        khost::rm_tree(p);
}

bool run_dir::make_tmp(const std::string& parent, const std::string& base, std::string* err)
{
    if (!make_dirs(parent, &m_created, err))
        return false;
    run_dir_clean_stale(parent);
    std::string t = parent + "/.tmp-" + std::to_string(getpid()) + "@" + khost::host_name() + "-XXXXXX";
    std::vector<char> buf(t.begin(), t.end());
    buf.push_back(0);
    if (!mkdtemp(buf.data())) {
        *err = "cannot create a directory in " + parent + ": " + std::strerror(errno);
        discard();
        return false;
    }
    m_tmp = buf.data();
    m_parent = parent;
    m_base = base;
    m_open = true;
    return true;
}

bool run_dir::open_auto(const std::string& root, const std::string& scenario_id, const std::string& run_id,
                        std::string* err)
{
    m_fixed = false;
    m_final = root + "/" + scenario_id + "/" + run_id;
    return make_tmp(root + "/" + scenario_id, run_id, err);
}

bool run_dir::open_fixed(const std::string& dir, std::string* err)
{
    std::string d = dir;
    while (d.size() > 1 && d.back() == '/')
        d.pop_back();
    if (g_file_test(d.c_str(), G_FILE_TEST_EXISTS)) {
        *err = d + " exists and does not hold a finished run; remove it or choose another directory";
        return false;
    }
    m_fixed = true;
    m_final = d;
    const size_t s = d.rfind('/');
    const std::string parent = s == std::string::npos ? "." : (s == 0 ? "/" : d.substr(0, s));
    return make_tmp(parent, s == std::string::npos ? d : d.substr(s + 1), err);
}

bool run_dir::write(const std::string& name, const std::string& content, std::string* err)
{
    return write_all(tmp_path(name), content, err);
}

bool run_dir::commit(std::string* final_path, bool* already_done, std::string* err)
{
    *already_done = false;
    std::string target = m_final;
    for (int n = 2;; n++) {
        if (renameat2(AT_FDCWD, m_tmp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0)
            break;
        if (errno != EEXIST && errno != ENOTEMPTY) {
            *err = "cannot rename " + m_tmp + " to " + target + ": " + std::strerror(errno);
            return false;
        }
        if (m_fixed) {
            if (run_dir_complete(target)) {
                *already_done = true;
                khost::rm_tree(m_tmp);
                m_open = false;
                *final_path = target;
                return true;
            }
            *err = target + " appeared meanwhile and does not hold a finished run";
            return false;
        }
        target = m_final + "-" + std::to_string(n);
    }
    m_open = false;
    m_created.clear();
    *final_path = target;
    return true;
}

void run_dir::discard()
{
    if (m_open)
        khost::rm_tree(m_tmp);
    m_open = false;
    for (size_t i = m_created.size(); i-- > 0;)
        rmdir(m_created[i].c_str());  // only if still empty
    m_created.clear();
}

run_dir::~run_dir()
{
    if (m_open)
        discard();
}

// ---------------------------------------------------------------- signals

namespace {
constexpr int k_max_paths = 24;
char g_clean_paths[k_max_paths][1024];  // files first, then directories (deepest first)
int g_n_clean = 0;

void on_signal(int sig)
{
    for (int i = 0; i < g_n_clean; i++)
        if (unlink(g_clean_paths[i]) != 0)
            rmdir(g_clean_paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}
} // namespace

void run_dir_install_signal_cleanup(const run_dir* d)
{
    static const char* files[] = {"scenario.resolved.ini", "stats.json",  "stats.txt", "summary.json", "series.csv",
                                  "cmdline.txt",           "version.txt", "sim.log"};
    g_n_clean = 0;
    auto add = [](const std::string& p) {
        if (g_n_clean < k_max_paths && p.size() < sizeof g_clean_paths[0])
            std::strcpy(g_clean_paths[g_n_clean++], p.c_str());
    };
    if (d) {
        for (const char* f : files)
            add(d->tmp_path(f));
        add(d->tmp_path(""));
        for (size_t i = d->created().size(); i-- > 0;)
            add(d->created()[i]);
    }
    install_stop_handler(on_signal);
}

void install_stop_handler(void (*handler)(int))
{
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
}

} // namespace sim
