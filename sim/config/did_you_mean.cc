#include "sim/config/did_you_mean.h"
#include <algorithm>
#include <glib.h>

namespace sim {

namespace {

// Optimal string alignment distance (edits, adjacent swaps count one).
size_t edit_distance(const std::string& a, const std::string& b)
{
    const size_t n = a.size(), m = b.size();
    std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            const size_t cost = g_ascii_tolower(a[i - 1]) == g_ascii_tolower(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

} // namespace

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates, const char* open,
                         const char* close)
{
    size_t best = std::string::npos;
    std::vector<std::string> hits;
    for (const auto& c : candidates) {
        size_t d = edit_distance(word, c);
        // A candidate that starts with the word ("maint" -> "maint_line_cycles") is close too.
        if (word.size() >= 3 && c.compare(0, word.size(), word) == 0)
            d = std::min<size_t>(d, 1);
        if (d < best) {
            best = d;
            hits.clear();
        }
        if (d == best && std::find(hits.begin(), hits.end(), c) == hits.end())
            hits.push_back(c);
    }
    const size_t limit = std::max<size_t>(1, std::min<size_t>(3, (word.size() + 1) / 3));
    if (best == std::string::npos || best > limit || hits.size() > 3)
        return "";
    std::string r;
    for (size_t i = 0; i < hits.size(); i++)
        r += (i ? (i + 1 == hits.size() ? " or " : ", ") : "") + std::string(open) + hits[i] + close;
    return r;
}

} // namespace sim
