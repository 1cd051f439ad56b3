// tests/fuzz/loader.cc: libFuzzer target for the scenario loader (make fuzz).
//
// Each input is the text of a scenario file. It is read into the raw layer
// (scenario_read_text, with its includes, which reach the file system and
// the built-ins) and resolved (scenario_resolve), as fecsim run does with a
// file. Besides what the sanitizers catch, an input fails if
//   - a message spans lines or is longer than k_max_message bytes, or
//   - a scenario that resolves without error does not come back the same
//     from its resolved file (scenario_dump read and resolved again).
// Not part of make check: it needs clang's libFuzzer and runs for minutes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "sim/config/scenario.h"

namespace {

// Longest acceptable message: a few quoted names, the list of a group's keys.
constexpr size_t k_max_message = 4096;

[[noreturn]] void fail(const char* what, const std::string& detail)
{
    std::fprintf(stderr, "fuzz_loader: %s:\n%s\n", what, detail.c_str());
    std::abort();
}

void check_messages(const std::vector<std::string>& errors)
{
    for (const auto& e : errors) {
        if (e.find('\n') != std::string::npos || e.find('\r') != std::string::npos)
            fail("a message spans lines", e);
        if (e.size() > k_max_message)
            fail("a message is too long", e.substr(0, 512));
    }
}

} // namespace

// libsystemc, linked for the models' parameter tables, wants an sc_main;
// nothing here elaborates a model, so it is never called.
extern "C" int sc_main(int, char**) { return 1; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    // Relative includes are taken from a directory that does not exist:
    // absolute paths and built-ins are what the input can reach.
    const std::string name = "/nonexistent/fuzz/input.ini";
    sim::raw_scenario raw;
    std::vector<std::string> errors;
    sim::scenario_read_text(name, std::string((const char*)data, size), &raw, &errors);
    sim::resolved_scenario r;
    const bool ok = sim::scenario_resolve(raw, &r, &errors) && errors.empty();
    check_messages(errors);
    if (!ok)
        return 0;
    const std::string dumped = sim::scenario_dump(r, " fuzz");
    sim::raw_scenario raw2;
    std::vector<std::string> errors2;
    sim::resolved_scenario r2;
    if (!sim::scenario_read_text("/nonexistent/fuzz/resolved.ini", dumped, &raw2, &errors2) ||
        !sim::scenario_resolve(raw2, &r2, &errors2) || !errors2.empty())
        fail("the resolved file does not load", (errors2.empty() ? std::string() : errors2[0]) + "\n" + dumped);
    check_messages(errors2);
    if (sim::scenario_canonical(r) != sim::scenario_canonical(r2))
        fail("the resolved file loads to another scenario",
             sim::scenario_canonical(r) + "\n---\n" + sim::scenario_canonical(r2));
    return 0;
}
