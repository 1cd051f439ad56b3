// drivers/khost/symbolize.h: names a code address of kernel code.
//
// Contract: pc is an address inside an object with debug information (the
// driver's shared object, or the program that links the shim runtime).
// The result is "function (file:line)" of the innermost inlined frame that is
// not in a shim header (memcpy, skb_put ...), so a driver address names the
// driver's function and source line; "function" alone when there is no line
// information (C++ names demangled), "(unknown site)" outside any loaded
// object. return_address: pc is a return address (the call is the byte
// before it). Runs addr2line (binutils) once per call: for reports, not for
// hot paths.
#pragma once
#include <string>

namespace khost {

std::string code_site(const void* pc, bool return_address);

// Whether pc (its innermost frame, inlined ones included) is the shim's code
// (drivers/shim/) rather than the driver's.
bool is_shim_code(const void* pc, bool return_address);
// Whether pc is in fecsim's own program (its models and kernel host), not in
// a driver object it loaded.
bool in_main_program(const void* pc);

// The name of the function (static ones included) whose code holds pc, from
// its object's symbol table (read with nm once per object); "" if none.
// Cheap after the first call for an object.
std::string function_name(const void* pc);

} // namespace khost
