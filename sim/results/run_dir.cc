// sim/results/run_dir.cc: run directories (run_dir.h): the temporary
// directory, its rename into place, stale ones of dead runs, signal cleanup.
#include "sim/results/run_dir.h"
#include "drivers/khost/host_dirs.h"
#include "sim/config/text.h"
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <mutex>
#include <thread>
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

// ---------------------------------------------------------------- locks

namespace {

// Field 22 of /proc/<pid>/stat: the process's start time in clock ticks
// after boot; 0 when unknown.
long long proc_start_ticks(long pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!f || !std::getline(f, text))
        return 0;
    const size_t rp = text.rfind(')');
    if (rp == std::string::npos)
        return 0;
    std::istringstream in(text.substr(rp + 2));
    std::string field;
    for (int i = 3; i <= 22; i++)  // fields after "pid (comm)" start at 3
        if (!(in >> field))
            return 0;
    return std::atoll(field.c_str());
}

std::string slurp_small(const std::string& path)
{
    gchar* data = nullptr;
    gsize n = 0;
    if (!g_file_get_contents(path.c_str(), &data, &n, nullptr))
        return "";
    std::string s(data, n);
    g_free(data);
    return s;
}

std::string lock_path_of(const std::string& parent, const std::string& base)
{
    return parent + "/." + base + ".lock";
}

// Parses the lock text into *i; the liveness as run_dir.h says.
void lock_judge(const std::string& text, const struct stat& st, run_lock_info* i)
{
    long long pidstart = 0;
    for (const auto& f : split_trimmed(text, ' ')) {
        const size_t eq = f.find('=');
        const std::string k = f.substr(0, eq), v = eq == std::string::npos ? "" : f.substr(eq + 1);
        if (k == "host")
            i->host = v;
        else if (k == "pid")
            i->pid = std::atol(v.c_str());
        else if (k == "pidstart")
            pidstart = std::atoll(v.c_str());
        else if (k == "since")
            i->since = std::atoll(v.c_str());
    }
    i->beat_age = std::difftime(std::time(nullptr), st.st_mtime);
    if (i->host == khost::host_name() && i->pid > 0)
        i->live = khost::process_alive(i->pid) && (pidstart == 0 || proc_start_ticks(i->pid) == pidstart);
    else  // another host, or a lock not (yet) readable: its heartbeat decides
        i->live = i->beat_age < k_lock_stale_s;
}

run_lock_info lock_read(const std::string& path)
{
    run_lock_info i;
    i.path = path;
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
        return i;
    i.held = true;
    lock_judge(trim(slurp_small(path)), st, &i);
    return i;
}

} // namespace

std::string run_lock_info::describe() const
{
    char when[64] = "?";
    const time_t t = (time_t)since;
    struct tm tm;
    if (since > 0 && gmtime_r(&t, &tm))
        std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return "host " + (host.empty() ? std::string("?") : host) + " pid " + std::to_string(pid) + " since " + when +
           ", last heartbeat " + std::to_string((long long)beat_age) + " s ago";
}

run_lock_info run_dir_lock(const std::string& dir)
{
    std::string d = dir;
    while (d.size() > 1 && d.back() == '/')
        d.pop_back();
    const std::string parent = dir_name(d), base = base_name(d);
    return lock_read(lock_path_of(parent, base));
}

std::vector<run_dir_temporary> run_dir_temporaries(const std::string& parent)
{
    std::vector<run_dir_temporary> r;
    std::vector<run_lock_info> locks;
    DIR* d = opendir(parent.c_str());
    if (!d)
        return r;
    std::vector<std::string> names;
    while (dirent* e = readdir(d))
        names.push_back(e->d_name);
    closedir(d);
    for (const auto& n : names)
        if (n.size() > 6 && n[0] == '.' && n.compare(n.size() - 5, 5, ".lock") == 0)
            locks.push_back(lock_read(parent + "/" + n));
    const std::string me = khost::host_name();
    for (const auto& n : names) {
        if (n.compare(0, 5, ".tmp-") != 0)
            continue;
        const size_t at = n.find('@'), dash = n.rfind('-');
        if (at == std::string::npos || dash == std::string::npos || dash < at)
            continue;
        run_dir_temporary t;
        t.path = parent + "/" + n;
        t.pid = std::atol(n.c_str() + 5);
        t.host = n.substr(at + 1, dash - at - 1);
        if (t.host == me)
            t.live = khost::process_alive(t.pid);
        for (const auto& l : locks)
            if (l.live && l.host == t.host && l.pid == t.pid)
                t.live = true;
        r.push_back(t);
    }
    return r;
}

// Touches the lock file every k_lock_heartbeat_s seconds until stopped.
struct run_dir::heartbeat {
    std::mutex m;
    std::condition_variable cv;
    bool stop = false;
    std::thread t;
    explicit heartbeat(const std::string& path)
        : t([this, path] {
              std::unique_lock<std::mutex> l(m);
              while (!cv.wait_for(l, std::chrono::seconds(k_lock_heartbeat_s), [this] { return stop; }))
                  utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
          })
    {
    }
    ~heartbeat()
    {
        {
            std::lock_guard<std::mutex> l(m);
            stop = true;
        }
        cv.notify_all();
        t.join();
    }
};

// Take <parent>/.<base>.lock (run_dir.h). False with *err: an I/O error, or
// (m_busy) a live run holds it.
bool run_dir::lock(const std::string& parent, const std::string& base, std::string* err)
{
    const std::string path = lock_path_of(parent, base);
    const std::string me = khost::host_name();
    const std::string text = "host=" + me + " pid=" + std::to_string(getpid()) +
                             " pidstart=" + std::to_string(proc_start_ticks(getpid())) +
                             " since=" + std::to_string((long long)std::time(nullptr)) + "\n";
    const std::string mine = path + "." + std::to_string(getpid()) + "@" + me;
    for (int attempt = 0; attempt < 3; attempt++) {
        if (!write_all(mine, text, err))
            return false;
        const int rc = link(mine.c_str(), path.c_str());
        const int e = errno;
        unlink(mine.c_str());
        if (rc == 0) {
            m_lock = path;
            m_beat = new heartbeat(path);
            return true;
        }
        if (e != EEXIST) {
            *err = "cannot create the lock " + path + ": " + std::strerror(e);
            return false;
        }
        const run_lock_info held = lock_read(path);
        if (held.held && held.live) {
            m_busy = true;
            *err = parent + "/" + base + " is being run by " + held.describe() + " (lock " + path + ")";
            return false;
        }
        // Stale: move it aside (one breaker wins the rename), check that what
        // was moved is what was judged, then clear what its owner left.
        const std::string aside = path + ".stale-" + std::to_string(getpid()) + "@" + me;
        const std::string judged = slurp_small(path);
        if (rename(path.c_str(), aside.c_str()) != 0)
            continue;  // gone meanwhile: try again
        if (slurp_small(aside) != judged) {  // a new owner took it in between: give it back
            renameat2(AT_FDCWD, aside.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE);
            unlink(aside.c_str());
            continue;
        }
        unlink(aside.c_str());
        std::fprintf(stderr, "fecsim run: broke the stale lock %s of %s\n", path.c_str(), held.describe().c_str());
        const std::string owner = ".tmp-" + std::to_string(held.pid) + "@" + held.host + "-";
        for (const auto& t : run_dir_temporaries(parent))
            if (base_name(t.path).compare(0, owner.size(), owner) == 0)
                khost::rm_tree(t.path);
    }
    *err = "cannot take the lock " + path + " (it keeps changing hands)";
    return false;
}

void run_dir::unlock()
{
    delete m_beat;
    m_beat = nullptr;
    if (!m_lock.empty())
        unlink(m_lock.c_str());
    m_lock.clear();
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
    m_busy = false;
    const size_t s = d.rfind('/');
    const std::string parent = s == std::string::npos ? "." : (s == 0 ? "/" : d.substr(0, s));
    const std::string base = s == std::string::npos ? d : d.substr(s + 1);
    if (!make_dirs(parent, &m_created, err) || !lock(parent, base, err)) {
        discard();
        return false;
    }
    if (g_file_test(d.c_str(), G_FILE_TEST_EXISTS)) {  // the lock's last owner finished it meanwhile
        m_busy = true;
        *err = d + " was finished by another run meanwhile";
        discard();
        return false;
    }
    return make_tmp(parent, base, err);
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
                unlock();
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
    unlock();
    *final_path = target;
    return true;
}

void run_dir::discard()
{
    if (m_open)
        khost::rm_tree(m_tmp);
    m_open = false;
    unlock();
    for (size_t i = m_created.size(); i-- > 0;)
        rmdir(m_created[i].c_str());  // only if still empty
    m_created.clear();
}

run_dir::~run_dir()
{
    if (m_open || !m_lock.empty())
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
        if (!d->lock_path().empty())
            add(d->lock_path());
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
