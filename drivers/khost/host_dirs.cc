#include "drivers/khost/host_dirs.h"
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace khost {

std::string host_name()
{
    char h[256] = "localhost";
    gethostname(h, sizeof h - 1);
    h[sizeof h - 1] = 0;
    std::string s = h;
    std::replace(s.begin(), s.end(), '/', '_');
    return s;
}

bool process_alive(long pid)
{
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return false;
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!f || !std::getline(f, text))
        return true;  // no /proc: trust kill()
    const size_t rp = text.rfind(')');
    return !(rp != std::string::npos && rp + 2 < text.size() && (text[rp + 2] == 'Z' || text[rp + 2] == 'X'));
}

std::vector<std::string> stale_dirs(const std::string& parent, const std::string& prefix)
{
    std::vector<std::string> dead;
    DIR* d = opendir(parent.c_str());
    if (!d)
        return dead;
    const std::string host = host_name();
    while (dirent* e = readdir(d)) {
        const std::string n = e->d_name;
        if (n.compare(0, prefix.size(), prefix) != 0)
            continue;
        const size_t at = n.find('@');
        const size_t dash = n.rfind('-');
        if (at == std::string::npos || dash == std::string::npos || dash < at)
            continue;
        char* end = nullptr;
        const long pid = std::strtol(n.c_str() + prefix.size(), &end, 10);
        if (end != n.c_str() + at || pid <= 0 || n.substr(at + 1, dash - at - 1) != host)
            continue;
        struct stat st;
        const std::string path = parent + "/" + n;
        if (lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && !process_alive(pid))
            dead.push_back(path);
    }
    closedir(d);
    return dead;
}

// Removes the entries of the directory open as dfd (taken), recursively:
// subdirectories are opened relative to their parent with O_NOFOLLOW.
static void rm_entries(int dfd)
{
    DIR* d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return;
    }
    std::vector<std::string> names;
    while (dirent* e = readdir(d))
        if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, ".."))
            names.push_back(e->d_name);
    const int fd = dirfd(d);
    for (const auto& n : names) {
        struct stat st;
        if (fstatat(fd, n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            const int sub = openat(fd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                rm_entries(sub);
            unlinkat(fd, n.c_str(), AT_REMOVEDIR);
        } else {
            unlinkat(fd, n.c_str(), 0);
        }
    }
    closedir(d);
}

void rm_tree(const std::string& path)
{
    struct stat st;
    if (lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    const int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    rm_entries(fd);
    rmdir(path.c_str());
}

} // namespace khost
