#include "common/params.h"
#include <cmath>
#include <cstring>
#include <sstream>

namespace models {

const param_desc* param_table::find(const char* key) const
{
    for (const auto& d : *this)
        if (std::strcmp(d.key, key) == 0)
            return &d;
    return nullptr;
}

double param_get(const void* cfg, const param_desc& d)
{
    const char* p = static_cast<const char*>(cfg) + d.offset;
    switch (d.storage) {
    case param_storage::u32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case param_storage::u64: { uint64_t v; std::memcpy(&v, p, 8); return (double)v; }
    case param_storage::f64: { double v; std::memcpy(&v, p, 8); return v; }
    case param_storage::b: { bool v; std::memcpy(&v, p, 1); return v ? 1 : 0; }
    }
    return 0;
}

bool param_set(void* cfg, const param_desc& d, double v, std::string* err)
{
    if (std::isnan(v) || v < d.min || v > d.max) {
        if (err) {
            std::ostringstream os;
            os << d.key << ": value " << v << " outside the allowed range [" << d.min << ", "
               << d.max << "]";
            *err = os.str();
        }
        return false;
    }
    bool integral = d.storage == param_storage::u32 || d.storage == param_storage::u64;
    if (integral && v != std::floor(v)) {
        if (err)
            *err = std::string(d.key) + ": needs a whole number";
        return false;
    }
    char* p = static_cast<char*>(cfg) + d.offset;
    switch (d.storage) {
    case param_storage::u32: { uint32_t x = (uint32_t)v; std::memcpy(p, &x, 4); break; }
    case param_storage::u64: { uint64_t x = (uint64_t)v; std::memcpy(p, &x, 8); break; }
    case param_storage::f64: std::memcpy(p, &v, 8); break;
    case param_storage::b: { bool x = v != 0; std::memcpy(p, &x, 1); break; }
    }
    return true;
}

void param_defaults(void* cfg, const param_table& t)
{
    for (const auto& d : t)
        param_set(cfg, d, d.def, nullptr);
}

std::string param_choice_name(const param_desc& d, unsigned i)
{
    std::string s = d.unit;
    size_t start = 0;
    for (unsigned k = 0;; k++) {
        size_t bar = s.find('|', start);
        if (k == i)
            return s.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
        if (bar == std::string::npos)
            return "";
        start = bar + 1;
    }
}

int param_choice_index(const param_desc& d, const std::string& name)
{
    for (unsigned i = 0;; i++) {
        std::string c = param_choice_name(d, i);
        if (c.empty())
            return -1;
        if (c == name)
            return (int)i;
    }
}

} // namespace models
