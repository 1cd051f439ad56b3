// tests/fuzz/mutants.cc: the scenario loader and the run command against
// mutated scenario files, as a hostile or careless user writes them.
//
// Each mutant is a shipped scenario file with one to three mutations (lines
// deleted, duplicated, swapped or cut; values replaced by extreme, malformed
// or control-character values; keys misspelt or made long; bytes inserted;
// includes of special files: /dev/zero, a FIFO, a directory, the file itself,
// an unreadable file; CRLF line ends), sometimes with a hostile -o option.
// Mutant i depends only on (--seed, i): a failing one is reproduced alone.
//
// Every mutant goes through `fecsim check`; one that passes also through a
// short `fecsim run`. A mutant fails when the process
//   - dies of a signal or exits with a status other than 0, 2 or 3 (crash),
//   - runs longer than --timeout seconds (hang; killed),
//   - writes a message line that names no place: every line on stderr must
//     start with FILE:LINE:, with the option it is about (error: -o ...), or
//     be one of the commands' fixed summary lines,
//   - writes more than 64 KiB to stderr.
// Failing mutants are kept in --keep with their command and output.
// Exit status: 0 when no mutant failed, 1 otherwise, 2 on bad usage.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <map>
#include <regex>
#include <signal.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace {

struct rng {
    uint64_t s;
    uint64_t next()
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return n ? (size_t)(next() % n) : 0; }
};

struct options {
    std::string fecsim, scenarios, keep, work;
    unsigned count = 3000, jobs = 2;
    uint64_t seed = 1;
    double timeout_s = 5;
};

std::string read_file(const std::string& p)
{
    std::string s;
    FILE* f = std::fopen(p.c_str(), "rb");
    if (!f)
        return s;
    char b[65536];
    size_t n;
    while ((n = std::fread(b, 1, sizeof b, f)) > 0)
        s.append(b, n);
    std::fclose(f);
    return s;
}

bool write_file(const std::string& p, const std::string& s)
{
    FILE* f = std::fopen(p.c_str(), "wb");
    if (!f)
        return false;
    const bool ok = std::fwrite(s.data(), 1, s.size(), f) == s.size();
    return std::fclose(f) == 0 && ok;
}

void find_ini(const std::string& dir, std::vector<std::string>* out)
{
    DIR* d = opendir(dir.c_str());
    if (!d)
        return;
    std::vector<std::string> names;
    while (dirent* e = readdir(d))
        if (e->d_name[0] != '.')
            names.push_back(e->d_name);
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
        const std::string p = dir + "/" + n;
        struct stat st;
        if (stat(p.c_str(), &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            find_ini(p, out);
        else if (n.size() > 4 && n.compare(n.size() - 4, 4, ".ini") == 0)
            out->push_back(p);
    }
}

std::vector<std::string> split_lines(const std::string& s)
{
    std::vector<std::string> v;
    size_t a = 0;
    while (a <= s.size()) {
        const size_t b = s.find('\n', a);
        if (b == std::string::npos) {
            if (a < s.size())
                v.push_back(s.substr(a));
            break;
        }
        v.push_back(s.substr(a, b - a));
        a = b + 1;
    }
    return v;
}

std::string join_lines(const std::vector<std::string>& v)
{
    std::string s;
    for (const auto& l : v)
        s += l + "\n";
    return s;
}

// Special files an include= can name; made once in the work directory.
struct specials {
    std::string fifo, dir, unreadable, binary;
};

const char* const k_values[] = {
    "", "-1", "0", "-0", "1e308", "1e-320", "18446744073709551616", "9223372036854775808", "nan", "inf", "-inf",
    "0x10", "0b1", "1.5.5", "1ps", "0s", "1000000s", "99999999999999999999GB", "1e-30s", "ms", "1 2", "\"1\"",
    "true", "yes", "off", "${HOME}", "%s%s%s%n", "../../../../etc/passwd", "/dev/zero", "/dev/stdin",
    "1,2,3", "1;2", "@", "\\", "\t", "1cycle", "4294967296cycles", "1e6KiB", "-5%", "200%", "\xff\xfe",
    "\xc3\x28", "a\rb", "64B", "65536B", "1MiB", "3G", "1ms 1ms",
};

std::string long_string(rng& r)
{
    static const char* const pieces[] = {"9", "a", "x=", "[", "\\n", "é"};
    std::string s;
    const size_t n = 1000 + r.below(200000);
    const char* p = pieces[r.below(sizeof pieces / sizeof *pieces)];
    while (s.size() < n)
        s += p;
    return s;
}

std::string random_bytes(rng& r)
{
    std::string s;
    const size_t n = 1 + r.below(8);
    for (size_t i = 0; i < n; i++) {
        static const char pick[] = {'\0', '\r', '\t', '\x1b', '\x7f', '\x01', '=', '[', ']', '#', ';', '\n', ' '};
        s += r.below(3) ? pick[r.below(sizeof pick)] : (char)(r.next() & 0xff);
    }
    return s;
}

std::string mutate_key(rng& r, const std::string& k)
{
    std::string s = k;
    switch (r.below(5)) {
    case 0:
        if (!s.empty())
            s.erase(r.below(s.size()), 1);
        break;
    case 1: s.insert(r.below(s.size() + 1), 1, (char)('a' + r.below(26))); break;
    case 2:
        if (s.size() > 1) {
            const size_t i = r.below(s.size() - 1);
            std::swap(s[i], s[i + 1]);
        }
        break;
    case 3: s = long_string(r); break;
    default: s = "cpu." + s; break;
    }
    return s;
}

// One mutation of the lines of a scenario file.
void mutate(rng& r, std::vector<std::string>& L, const specials& sp, const std::string& self,
            const std::vector<std::string>& shipped)
{
    const size_t n = L.size();
    const size_t i = r.below(n ? n : 1);
    switch (r.below(15)) {
    case 12:
    case 13:
    case 14: {  // a number scaled, its unit kept: still valid, often extreme
        for (size_t k = 0; k < n; k++) {
            std::string& l = L[(i + k) % n];
            const size_t eq = l.find('=');
            if (eq == std::string::npos || eq + 1 >= l.size() || !isdigit((unsigned char)l[eq + 1]))
                continue;
            char* end = nullptr;
            const double v = std::strtod(l.c_str() + eq + 1, &end);
            static const double f[] = {0, 0.001, 0.5, 2, 10, 1000, 1e6};
            char num[64];
            std::snprintf(num, sizeof num, "%.15g", v * f[r.below(sizeof f / sizeof *f)]);
            l = l.substr(0, eq + 1) + num + end;
            break;
        }
        break;
    }
    case 0:  // delete a line
        if (n)
            L.erase(L.begin() + (long)i);
        break;
    case 1:  // duplicate a line
        if (n)
            L.insert(L.begin() + (long)i, L[i]);
        break;
    case 2:  // swap two lines
        if (n > 1)
            std::swap(L[i], L[r.below(n)]);
        break;
    case 3:
    case 4: {  // replace a value
        for (size_t k = 0; k < n; k++) {
            std::string& l = L[(i + k) % n];
            const size_t eq = l.find('=');
            if (eq == std::string::npos || l[0] == '#' || l[0] == ';')
                continue;
            l = l.substr(0, eq + 1) +
                (r.below(8) ? std::string(k_values[r.below(sizeof k_values / sizeof *k_values)]) : long_string(r));
            break;
        }
        break;
    }
    case 5: {  // misspell a key
        for (size_t k = 0; k < n; k++) {
            std::string& l = L[(i + k) % n];
            const size_t eq = l.find('=');
            if (eq == std::string::npos || eq == 0 || l[0] == '#')
                continue;
            l = mutate_key(r, l.substr(0, eq)) + l.substr(eq);
            break;
        }
        break;
    }
    case 6: {  // bytes into a line
        if (!n) {
            L.push_back(random_bytes(r));
            break;
        }
        std::string& l = L[i];
        l.insert(r.below(l.size() + 1), random_bytes(r));
        break;
    }
    case 7: {  // an include of something that is not a scenario file
        const std::string targets[] = {"/dev/zero", "/dev/null", "/dev/urandom", sp.fifo, sp.dir, self,
                                       sp.unreadable, sp.binary, "/etc/shadow", "/proc/self/mem", "missing.ini",
                                       shipped[r.below(shipped.size())], "", "/"};
        L.insert(L.begin() + (long)i, "include=" + targets[r.below(sizeof targets / sizeof *targets)]);
        break;
    }
    case 8: {  // a malformed line
        const char* const lines[] = {"[", "]", "[]", "[scenario", "[a.b]", "[ scenario ]", "key", "=value",
                                     "a=b=c", " = ", "[driver]", "[stress]", "[output]", "\xef\xbb\xbf[scenario]",
                                     "include", "include=", "[scenario]\rduration=1ms"};
        L.insert(L.begin() + (long)i, lines[r.below(sizeof lines / sizeof *lines)]);
        break;
    }
    case 9:  // cut the file
        L.resize(i);
        if (n && r.below(2))
            L.push_back(L.empty() ? "" : L.back().substr(0, r.below(L.back().size() + 1)));
        break;
    case 10:  // CRLF or CRCRLF line ends
        for (auto& l : L)
            l += r.below(2) ? "\r" : "\r\r";
        break;
    default:  // a group header moved
        for (size_t k = 0; k < n; k++) {
            std::string& l = L[(i + k) % n];
            if (!l.empty() && l[0] == '[') {
                const char* const g[] = {"[scenario]", "[soc]", "[cpu]", "[kernel]", "[enet]", "[traffic]",
                                         "[driver]", "[app]", "[stress]", "[l2]", "[dram]", "[nope]"};
                l = g[r.below(sizeof g / sizeof *g)];
                break;
            }
        }
        break;
    }
}

// A hostile -o, or none.
std::vector<std::string> hostile_option(rng& r)
{
    switch (r.below(16)) {
    case 0: return {"-o", "scenario.duration=1ms\nfake.ini:1: error: injected"};
    case 1: return {"-o", long_string(r).substr(0, 100000)};  // an argument is at most 128 KiB
    case 2: return {"-o", "driver.patches=/dev/zero"};
    case 3: return {"-o", std::string("traffic.pcap_file=") + "/dev/stdin"};
    case 4: return {"--seed", k_values[r.below(sizeof k_values / sizeof *k_values)]};
    case 5: return {"-o", std::string("kernel.netdev_budget=") + k_values[r.below(sizeof k_values / sizeof *k_values)]};
    default: return {};
    }
}

struct job {
    unsigned id = 0;
    std::vector<std::string> argv;
    std::string err_path;
    pid_t pid = -1;
    double start = 0;
    bool killed = false;
    bool is_run = false;
};

double now_s()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

pid_t spawn(const job& j)
{
    const pid_t p = fork();
    if (p != 0)
        return p;
    const int in = open("/dev/null", O_RDONLY);
    const int out = open("/dev/null", O_WRONLY);
    const int err = open(j.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0)
        _exit(127);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    setpgid(0, 0);
    std::vector<char*> a;
    for (const auto& s : j.argv)
        a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    execv(a[0], a.data());
    _exit(127);
}

// The message lines a command may write besides located ones.
bool located(const std::string& l)
{
    static const std::regex ok(
        "^([^:\\s][^:]*:[0-9]+: (error|warning|note): .*"    // FILE:LINE: error: ...
        "|error: (-o|--seed|--patch)[ :].*"             // about a command-line option
        "|fecsim( [a-z-]+)?: [0-9]+ errors? in the scenario; nothing was run"
        "|\\.\\.\\. and [0-9]+ more"
        "|fecsim [a-z-]+: .*|Try 'fecsim [a-z-]+ --help'\\."  // usage errors of the command line
        "|\\s+.*)$");                                      // continuation of the message above
    return std::regex_match(l, ok);
}

int rm_entry(const char* p, const struct stat*, int, struct FTW*) { return remove(p); }
void rm_tree(const std::string& p) { nftw(p.c_str(), rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

struct tally {
    unsigned crashes = 0, hangs = 0, unlocated = 0, floods = 0, checked = 0, ran = 0;
    std::map<int, unsigned> status;  // by exit status
    std::vector<std::string> examples;
};

void usage()
{
    std::fprintf(stderr,
                 "usage: mutants --fecsim PROG --scenarios DIR [--count N] [--seed S] [--jobs J]\n"
                 "               [--timeout SECONDS] [--keep DIR] [--work DIR]\n");
}

} // namespace

int main(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            usage();
            return 2;
        }
        const char* v = argv[++i];
        if (a == "--fecsim") o.fecsim = v;
        else if (a == "--scenarios") o.scenarios = v;
        else if (a == "--count") o.count = (unsigned)std::strtoul(v, nullptr, 10);
        else if (a == "--seed") o.seed = std::strtoull(v, nullptr, 10);
        else if (a == "--jobs") o.jobs = std::max(1u, (unsigned)std::strtoul(v, nullptr, 10));
        else if (a == "--timeout") o.timeout_s = std::strtod(v, nullptr);
        else if (a == "--keep") o.keep = v;
        else if (a == "--work") o.work = v;
        else {
            usage();
            return 2;
        }
    }
    if (o.fecsim.empty() || o.scenarios.empty()) {
        usage();
        return 2;
    }
    std::vector<std::string> shipped;
    find_ini(o.scenarios, &shipped);
    if (shipped.empty()) {
        std::fprintf(stderr, "mutants: no .ini file under %s\n", o.scenarios.c_str());
        return 2;
    }
    const bool own_work = o.work.empty();  // removed at the end when nothing failed
    if (own_work) {
        char t[] = "/tmp/fecsim-mutants.XXXXXX";
        if (!mkdtemp(t)) {
            std::perror("mutants: mkdtemp");
            return 2;
        }
        o.work = t;
    }
    if (o.keep.empty())
        o.keep = o.work + "/failed";
    mkdir(o.work.c_str(), 0755);
    mkdir(o.keep.c_str(), 0755);
    specials sp{o.work + "/fifo", o.work + "/a-directory.ini", o.work + "/unreadable.ini", o.work + "/binary.ini"};
    mkfifo(sp.fifo.c_str(), 0644);
    mkdir(sp.dir.c_str(), 0755);
    write_file(sp.unreadable, "[scenario]\nsecret=do-not-quote-me\n");
    chmod(sp.unreadable.c_str(), 0);
    write_file(sp.binary, std::string("\x7f" "ELF\x02\x01\x01\0\0secret-binary-line\n", 24));

    tally t;
    std::vector<job> running;
    unsigned next = 0;
    std::vector<job> pending;  // run jobs waiting for a slot
    auto finish = [&](job& j, int ws) {
        const std::string err = read_file(j.err_path);
        std::string why;
        if (j.killed) {
            t.hangs++;
            why = "hang";
        } else if (WIFSIGNALED(ws)) {
            t.crashes++;
            why = std::string("signal ") + strsignal(WTERMSIG(ws));
        } else {
            const int st = WEXITSTATUS(ws);
            t.status[st]++;
            if (st != 0 && st != 2 && st != 3) {
                t.crashes++;
                why = "exit status " + std::to_string(st);
            }
        }
        if (why.empty() && err.size() > 65536) {
            t.floods++;
            why = "stderr of " + std::to_string(err.size()) + " bytes";
        }
        if (why.empty())
            for (const auto& l : split_lines(err))
                if (!l.empty() && !located(l)) {
                    t.unlocated++;
                    why = "message without a place: " + l.substr(0, 200);
                    break;
                }
        if (!why.empty()) {
            const std::string base = o.keep + "/m-" + std::to_string(j.id) + (j.is_run ? "-run" : "-check");
            std::string cmd;
            for (const auto& a : j.argv)
                cmd += "'" + a.substr(0, 300) + "' ";
            write_file(base + ".cmd", cmd + "\n" + why + "\n");
            write_file(base + ".err", err.substr(0, 65536));
            std::string src = read_file(o.work + "/m-" + std::to_string(j.id) + ".ini");
            write_file(base + ".ini", src);
            if (t.examples.size() < 20)
                t.examples.push_back("mutant " + std::to_string(j.id) + (j.is_run ? " (run)" : " (check)") + ": " +
                                     why);
        }
        // A mutant the loader accepts is run briefly too.
        if (!j.is_run && !j.killed && WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
            job r = j;
            r.is_run = true;
            r.killed = false;
            r.argv[1] = "run";
            r.argv.insert(r.argv.end(), {"-q", "-o", "scenario.duration=200us", "-o", "scenario.warmup=0s", "--out",
                                         o.work + "/out-" + std::to_string(j.id)});
            r.err_path = o.work + "/m-" + std::to_string(j.id) + ".run.err";
            pending.push_back(r);
        }
        unlink(j.err_path.c_str());
        if (j.is_run || pending.empty() || pending.back().id != j.id) {
            unlink((o.work + "/m-" + std::to_string(j.id) + ".ini").c_str());
            rm_tree(o.work + "/out-" + std::to_string(j.id));
        }
    };
    while (next < o.count || !running.empty() || !pending.empty()) {
        while (running.size() < o.jobs && (!pending.empty() || next < o.count)) {
            job j;
            if (!pending.empty()) {
                j = pending.back();
                pending.pop_back();
                t.ran++;
            } else {
                rng r{o.seed * 0x100000001b3ull + next};
                const std::string& base = shipped[r.below(shipped.size())];
                const std::string self = o.work + "/m-" + std::to_string(next) + ".ini";
                std::vector<std::string> L = split_lines(read_file(base));
                // The mutant lives elsewhere: its includes name the shipped files.
                const std::string dir = base.substr(0, base.rfind('/') + 1);
                for (auto& l : L)
                    if (l.compare(0, 8, "include=") == 0 && l.size() > 8 && l[8] != '/')
                        l = "include=" + dir + l.substr(8);
                const unsigned nm = r.below(2) ? 1 : 2 + (unsigned)r.below(2);
                for (unsigned k = 0; k < nm; k++)
                    mutate(r, L, sp, self, shipped);
                write_file(self, join_lines(L));
                j.id = next++;
                j.argv = {o.fecsim, "check", self};
                for (const auto& a : hostile_option(r))
                    j.argv.push_back(a);
                j.err_path = o.work + "/m-" + std::to_string(j.id) + ".err";
                t.checked++;
            }
            j.start = now_s();
            j.pid = spawn(j);
            running.push_back(j);
        }
        for (size_t k = 0; k < running.size();) {
            job& j = running[k];
            int ws = 0;
            const pid_t p = waitpid(j.pid, &ws, WNOHANG);
            if (p == j.pid) {
                finish(j, ws);
                running.erase(running.begin() + (long)k);
                continue;
            }
            if (!j.killed && now_s() - j.start > o.timeout_s) {
                j.killed = true;
                kill(-j.pid, SIGKILL);
                kill(j.pid, SIGKILL);
            }
            k++;
        }
        usleep(2000);
        if (t.checked % 250 == 0 && t.checked && running.size() == 0)
            std::fprintf(stderr, "mutants: %u checked\n", t.checked);
    }
    chmod(sp.unreadable.c_str(), 0644);
    std::printf("mutants: %u mutants checked, %u accepted ones run (seed %" PRIu64 ", timeout %.0f s)\n", t.checked,
                t.ran, o.seed, o.timeout_s);
    std::printf("exit statuses:");
    for (const auto& s : t.status)
        std::printf(" %d: %u", s.first, s.second);
    std::printf("\ncrashes %u, hangs %u, messages without a place %u, floods %u\n", t.crashes, t.hangs, t.unlocated,
                t.floods);
    for (const auto& e : t.examples)
        std::printf("  %s\n", e.c_str());
    if (!t.examples.empty())
        std::printf("failing mutants kept in %s\n", o.keep.c_str());
    else if (own_work)
        rm_tree(o.work);
    return t.crashes || t.hangs || t.unlocated || t.floods ? 1 : 0;
}
