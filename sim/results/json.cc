// sim/results/json.cc: JSON helpers (json.h).
#include "sim/results/json.h"
#include "sim/config/units.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <glib.h>
#include <json-glib/json-glib.h>

namespace sim {

void json_member_int(JsonBuilder* b, const char* key, int64_t v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, (gint64)v);
}

void json_member_double(JsonBuilder* b, const char* key, double v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_double_value(b, std::isfinite(v) ? v : 0);
}

void json_member_string(JsonBuilder* b, const char* key, const std::string& v)
{
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, v.c_str());
}

void json_member_strings(JsonBuilder* b, const char* key, const std::vector<std::string>& v)
{
    json_member_array(b, key);
    for (const auto& x : v)
        json_builder_add_string_value(b, x.c_str());
    json_builder_end_array(b);
}

void json_member_object(JsonBuilder* b, const char* key)
{
    json_builder_set_member_name(b, key);
    json_builder_begin_object(b);
}

void json_member_array(JsonBuilder* b, const char* key)
{
    json_builder_set_member_name(b, key);
    json_builder_begin_array(b);
}

std::string json_to_string(JsonNode* node, bool pretty)
{
    JsonGenerator* g = json_generator_new();
    json_generator_set_pretty(g, pretty);
    json_generator_set_indent(g, 2);
    json_generator_set_root(g, node);
    gchar* s = json_generator_to_data(g, nullptr);
    std::string r = s;
    g_free(s);
    g_object_unref(g);
    return r + "\n";
}

std::string json_builder_text(JsonBuilder* b)
{
    JsonNode* n = json_builder_get_root(b);
    g_object_unref(b);
    std::string s = json_to_string(n, true);
    json_node_unref(n);
    return s;
}

std::string json_object_text(JsonObject* o)
{
    JsonNode* n = json_node_init_object(json_node_alloc(), o);
    json_object_unref(o);
    std::string s = json_to_string(n, true);
    json_node_unref(n);
    return s;
}

std::string number_text(double v) { return std::isnan(v) ? "nan" : shortest_number(v); }

static void flatten(JsonNode* n, const std::string& prefix, std::vector<std::pair<std::string, std::string>>* out)
{
    switch (json_node_get_node_type(n)) {
    case JSON_NODE_OBJECT: {
        JsonObject* o = json_node_get_object(n);
        GList* members = json_object_get_members(o);
        for (GList* l = members; l; l = l->next) {
            const char* k = (const char*)l->data;
            flatten(json_object_get_member(o, k), prefix.empty() ? k : prefix + "." + k, out);
        }
        g_list_free(members);
        break;
    }
    case JSON_NODE_ARRAY: {
        JsonArray* a = json_node_get_array(n);
        for (guint i = 0; i < json_array_get_length(a); i++)
            flatten(json_array_get_element(a, i), prefix + "." + std::to_string(i), out);
        break;
    }
    case JSON_NODE_VALUE: {
        const GType t = json_node_get_value_type(n);
        if (t == G_TYPE_INT64)
            out->push_back({prefix, std::to_string(json_node_get_int(n))});
        else if (t == G_TYPE_DOUBLE)
            out->push_back({prefix, number_text(json_node_get_double(n))});
        else if (t == G_TYPE_BOOLEAN)
            out->push_back({prefix, json_node_get_boolean(n) ? "true" : "false"});
        else
            out->push_back({prefix, json_node_get_string(n) ? json_node_get_string(n) : ""});
        break;
    }
    case JSON_NODE_NULL: out->push_back({prefix, ""}); break;
    }
}

bool json_flatten_file(const std::string& path, std::vector<std::pair<std::string, std::string>>* out, std::string* err)
{
    JsonParser* p = json_parser_new();
    GError* e = nullptr;
    if (!json_parser_load_from_file(p, path.c_str(), &e)) {
        *err = path + ": " + e->message;
        g_error_free(e);
        g_object_unref(p);
        return false;
    }
    flatten(json_parser_get_root(p), "", out);
    g_object_unref(p);
    return true;
}

} // namespace sim
