#include "lib/index/schema.h"

#include <xxhash.h>

#include <cstdio>

#include "quarry/error.h"

namespace quarry::detail {
namespace {

// Xapian refuses terms over 245 bytes; stay clear of the limit.
constexpr std::size_t kMaxInlineValueBytes = 200;

std::string hex128(const std::string& value) {
  XXH128_hash_t hash = XXH3_128bits(value.data(), value.size());
  char buffer[33];
  std::snprintf(buffer, sizeof buffer, "%016llx%016llx",
                static_cast<unsigned long long>(hash.high64),
                static_cast<unsigned long long>(hash.low64));
  return buffer;
}

}  // namespace

std::string boolean_term(const char* prefix, const std::string& value) {
  if (value.size() <= kMaxInlineValueBytes) return prefix + value;
  // '#' marks the hashed form; a short value equal to "#" and 32 hex
  // digits would collide with it, which no real id or path does.
  return std::string(prefix) + "#" + hex128(value);
}

std::string id_term(const std::string& id) { return boolean_term(kIdPrefix, id); }

void check_schema(const Xapian::Database& db, const std::string& path) {
  const std::string schema = db.get_metadata(kSchemaKey);
  if (schema.empty() || schema == std::to_string(kSchemaVersion)) return;
  throw IndexError("index " + path + " was built by another version of Quarry (layout " + schema +
                   ", this one reads " + std::to_string(kSchemaVersion) +
                   "); move it aside and index the articles again");
}

}  // namespace quarry::detail
