#include "sim/config/did_you_mean.h"
#include <algorithm>
#include <glib.h>

namespace sim {

namespace {

// Optimal string alignment distance (edits, adjacent swaps count one), or
// max + 1 when it is more than max. Memory O(|b|): the last three rows of the
// matrix; stops as soon as two consecutive rows are all above max (no later
// row can then be at most max).
size_t edit_distance(const std::string& a, const std::string& b, size_t max)
{
    const size_t n = a.size(), m = b.size();
    if ((n > m ? n - m : m - n) > max)
        return max + 1;
    std::vector<size_t> before(m + 1), prev(m + 1), cur(m + 1);
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    bool prev_over = false;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        size_t low = cur[0];
        for (size_t j = 1; j <= m; j++) {
            const size_t cost = g_ascii_tolower(a[i - 1]) == g_ascii_tolower(b[j - 1]) ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                cur[j] = std::min(cur[j], before[j - 2] + 1);
            low = std::min(low, cur[j]);
        }
        if (low > max && prev_over)
            return max + 1;
        prev_over = low > max;
        std::swap(before, prev);
        std::swap(prev, cur);
    }
    return std::min(prev[m], max + 1);
}

} // namespace

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates, const char* open,
                         const char* close)
{
    if (word.size() > k_closest_name_max_chars)
        return "";
    // Farther than this is never proposed.
    const size_t limit = std::max<size_t>(1, std::min<size_t>(3, (word.size() + 1) / 3));
    size_t best = std::string::npos;
    std::vector<std::string> hits;
    for (const auto& c : candidates) {
        size_t d = edit_distance(word, c, limit);
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
    if (best == std::string::npos || best > limit || hits.size() > 3)
        return "";
    std::string r;
    for (size_t i = 0; i < hits.size(); i++)
        r += (i ? (i + 1 == hits.size() ? " or " : ", ") : "") + std::string(open) + hits[i] + close;
    return r;
}

} // namespace sim
