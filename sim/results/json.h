// sim/results/json.h: JSON helpers shared by the writers of summary.json,
// stats.json, the regress report and the sweep files, and the number text
// they agree on.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

typedef struct _JsonBuilder JsonBuilder;
typedef struct _JsonNode JsonNode;
typedef struct _JsonObject JsonObject;

namespace sim {

// Members of the JSON object a JsonBuilder is building. Non-finite doubles
// are written as 0 (JSON has no NaN).
void json_member_int(JsonBuilder* b, const char* key, int64_t v);
void json_member_double(JsonBuilder* b, const char* key, double v);
void json_member_string(JsonBuilder* b, const char* key, const std::string& v);
void json_member_strings(JsonBuilder* b, const char* key, const std::vector<std::string>& v);
// Start a member that is an object / an array (end it with json_builder_end_*).
void json_member_object(JsonBuilder* b, const char* key);
void json_member_array(JsonBuilder* b, const char* key);

// Text of a node, newline-terminated; pretty: indented by 2.
std::string json_to_string(JsonNode* node, bool pretty);
// Pretty text of what b built; releases b.
std::string json_builder_text(JsonBuilder* b);
// Pretty text of o; releases the caller's reference to o.
std::string json_object_text(JsonObject* o);

// Shortest text that reads back as v; whole numbers (below 1e15) without
// exponent, NaN as "nan".
std::string number_text(double v);

// Flatten a JSON object into (dotted name, text value) pairs in document
// order: {"drops":{"socket":3}} -> ("drops.socket","3"); arrays use indices
// ("cpu.0.idle_pct"). Integers exactly, other numbers as number_text, null as "".
bool json_flatten_file(const std::string& path, std::vector<std::pair<std::string, std::string>>* out,
                       std::string* err);

} // namespace sim
