// models/common/params.h: per-model parameter tables.
//
// Each model keeps ONE table, an X-macro file <model>_params.def with rows
//   P(member, ctype, kind, "key", default, min, max, "unit|choices", "description")
// that generates both the config struct (member defaults) and the table that
// drives the scenario loader, --list-params, the resolved-scenario dump and the
// generated docs/models/*.md. Values are stored in base units: bytes, cycles
// of the owning model's clock, Hz, bit/s, picoseconds, plain numbers.
// Parsing of unit strings ("32KiB", "1GHz", "110ns") lives in sim/units.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace models {

enum class param_kind : uint8_t {
    bytes,    // size in bytes; accepts B/KiB/MiB/GiB and kB/MB/GB
    count,    // plain integer
    cycles,   // integer cycles of the owning model's clock
    hz,       // frequency; accepts Hz/kHz/MHz/GHz
    bps,      // bit rate; accepts bps/kbps/Mbps/Gbps
    time,     // duration in ps; accepts ps/ns/us/ms/s
    ratio,    // real number (probability, fraction, factor)
    boolean,  // true/false, yes/no, on/off, 1/0
    choice,   // one of the '|'-separated names in the unit column, stored as index
    mac,      // 48-bit MAC address, first byte most significant; accepts 02:00:00:00:00:01 or a number
    ipv4,     // IPv4 address, first byte most significant; accepts 239.0.0.1 or a number
};

enum class param_storage : uint8_t { u32, u64, f64, b };

struct param_desc {
    const char* key;
    param_kind kind;
    const char* unit;  // unit name, or '|'-separated choices for param_kind::choice
    double def;        // default, base units (index for choices)
    double min, max;   // inclusive range, base units
    const char* desc;
    size_t offset;     // into the config struct
    param_storage storage;
};

struct param_table {
    const char* group;  // scenario group name, e.g. "l1"
    const char* title;  // one line: what the model is
    const param_desc* rows;
    size_t n_rows;
    const param_desc* begin() const { return rows; }
    const param_desc* end() const { return rows + n_rows; }
    const param_desc* find(const char* key) const;
};

template <typename T> constexpr param_storage storage_of()
{
    if constexpr (std::is_same_v<T, bool>)
        return param_storage::b;
    else if constexpr (std::is_floating_point_v<T>)
        return param_storage::f64;
    else if constexpr (sizeof(T) == 8)
        return param_storage::u64;
    else {
        static_assert(sizeof(T) == 4, "parameters are 32/64-bit integers, enums, doubles or bools");
        return param_storage::u32;
    }
}

double param_get(const void* cfg, const param_desc& d);
// Range-checked store; on failure returns false and says why in *err.
bool param_set(void* cfg, const param_desc& d, double v, std::string* err);
// Fill every member of cfg from the table defaults.
void param_defaults(void* cfg, const param_table& t);
// Name of choice index i ("" when out of range); index of a name (-1 if none).
std::string param_choice_name(const param_desc& d, unsigned i);
int param_choice_index(const param_desc& d, const std::string& name);

// Every model table linked into the program, in documentation order.
const param_table* const* param_tables_all(size_t* n);
const param_table* param_table_by_group(const char* group);

} // namespace models

// Generates "struct NAME { members with defaults }" from a .def file.
#define FEC_PARAM_STRUCT_MEMBER(m, t, k, key, def, lo, hi, unit, desc) t m = (t)(def);
#define FEC_PARAM_TABLE_ROW(S, m, t, k, key, def, lo, hi, unit, desc)                            \
    {key, ::models::param_kind::k, unit, (double)(def), (double)(lo), (double)(hi), desc,        \
     offsetof(S, m), ::models::storage_of<t>()},
