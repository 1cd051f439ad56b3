// sim/config/units.h: the one parser and formatter of parameter values.
//
// Every scenario value, -o override and --vary value goes through
// units_parse(); every value fecsim prints (resolved scenario, list-params,
// docs, sweep tables) goes through units_format(). Values are in the base
// units of models/common/params.h: bytes, cycles, Hz, bit/s, picoseconds,
// plain numbers; choices are indices into the table's unit column.
//
// Accepted forms, by param_kind (a number is decimal, optionally with a
// fraction and exponent; integers may also be written 0x...; spaces between
// number and unit are allowed):
//   bytes    N, NB; kB MB GB TB = 10^3..10^12; KiB MiB GiB TiB = 2^10..2^40.
//            The result must be a whole number of bytes ("1.5KiB" = 1536 B).
//   count    whole number
//   cycles   whole number, optionally followed by "cycle"/"cycles"
//   hz       N Hz, kHz, MHz, GHz (a bare number is Hz)
//   bps      N bps, kbps, Mbps, Gbps (also bit/s, kbit/s, Mbit/s, Gbit/s; a bare number is bit/s)
//   time     N ps, ns, us (or µs), ms, s, or "N cycle(s)": N periods of the CPU
//            clock ([cpu] clock), each rounded to a whole picosecond as the
//            models' clock_domain does; the result must be a whole number of ps.
//            A bare number is rejected (ambiguous).
//   ratio    real number, or "N%" (= N/100)
//   boolean  true/false, yes/no, on/off, 1/0 (any case)
//   choice   one of the names in the unit column
//   mac      six hex bytes separated by ':' or '-' (02:00:00:00:00:01), or a
//            whole number (first byte most significant: 0x020000000001)
//   ipv4     dotted quad (239.0.0.1), or a whole number (0xEF000001)
// The formatter writes the largest unit that represents the value exactly
// ("32KiB", "996MHz", "21280ns", "100MB"); addresses in their usual
// notation ("02:00:00:00:00:01", "239.0.0.1"); so parse(format(v)) == v.
#pragma once
#include <string>
#include "common/params.h"

namespace sim {

struct units_context {
    double cpu_hz = 0;  // CPU clock for "N cycles" in time values; 0 = not available
};

// Parse `text` as a value of d's kind into base units. On failure returns
// false and sets *err to a sentence saying what is wrong and what is allowed
// (without the key name: the caller prefixes file:line and key).
bool units_parse(const models::param_desc& d, const std::string& text, double* out, std::string* err,
                 const units_context& ctx = units_context());
// Same, by kind only (choices need a desc: use the overload above).
bool units_parse_kind(models::param_kind k, const std::string& text, double* out, std::string* err,
                      const units_context& ctx = units_context());

// Friendliest exact text of a value in base units.
std::string units_format(const models::param_desc& d, double v);
std::string units_format_kind(models::param_kind k, double v);

// Name of a kind ("bytes", "hz", ...) and a one-line description of what it accepts.
const char* units_kind_name(models::param_kind k);
// Every kind, in documentation order (*n set to the count).
const models::param_kind* units_kinds(size_t* n);
const char* units_kind_syntax(models::param_kind k);

// Display scaling for plots and tables: the unit in which a set of values of
// kind k reads best (e.g. "KiB", "MHz", "us"), and its size in base units.
// Returns "" / 1 for kinds without units.
std::string units_display_unit(models::param_kind k, double max_abs, double* scale);

// Shortest decimal text that reads back as v; whole numbers (below 1e15)
// without exponent.
std::string shortest_number(double v);

} // namespace sim
