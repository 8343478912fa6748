#include "lib/index/schema.h"

#include <xxhash.h>

#include <chrono>
#include <cstdio>

#include "quarry/error.h"
#include "quarry/text/analyzer.h"

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

int digits_value(std::string_view text) {
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return text.empty() ? -1 : value;
}

}  // namespace

std::string sortable_date(std::string_view iso) {
  if (iso.size() < 10 || iso[4] != '-' || iso[7] != '-') return "";
  const int year = digits_value(iso.substr(0, 4));
  const int month = digits_value(iso.substr(5, 2));
  const int day = digits_value(iso.substr(8, 2));
  if (year < 0 || month < 0 || day < 0) return "";
  const std::chrono::year_month_day date{std::chrono::year{year},
                                         std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok()) return "";
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d%02d%02d", year, month, day);
  return buffer;
}

std::string sortable_time(std::string_view iso) {
  if (sortable_date(iso).empty() || iso.size() < 16 || (iso[10] != 'T' && iso[10] != ' ')) {
    return "";
  }
  const std::string_view time = iso.substr(11);
  const int hour = digits_value(time.substr(0, 2));
  const int minute = digits_value(time.substr(3, 2));
  if (time[2] != ':' || hour < 0 || hour > 23 || minute < 0 || minute > 59) return "";
  std::string value(time.substr(0, 2));
  value += time.substr(3, 2);
  if (time.size() < 8 || time[5] != ':') return value;
  // A leap second is 60.
  const int second = digits_value(time.substr(6, 2));
  if (second < 0 || second > 60) return value;
  value += time.substr(6, 2);
  if (time.size() < 10 || (time[8] != '.' && time[8] != ',')) return value;
  for (char c : time.substr(9)) {
    if (c < '0' || c > '9') break;
    value += c;
  }
  return value;
}

std::string hit_order_key(std::string_view date, std::string_view id) {
  // Dates have eight digits, so each byte subtracted from 0xff sorts them
  // newest first, below the 0xff that stands for no date.
  std::string key;
  if (date.empty()) key = "\xff";
  for (char c : date) key += static_cast<char>(0xff - static_cast<unsigned char>(c));
  key += id;
  return key;
}

std::string id_of_hit_order_key(std::string_view key) {
  if (key.empty()) return "";
  return std::string(key.substr(static_cast<unsigned char>(key[0]) == 0xff ? 1 : 8));
}

std::string boolean_term(const char* prefix, const std::string& value) {
  if (value.size() <= kMaxInlineValueBytes) return prefix + value;
  // '#' marks the hashed form; a short value equal to "#" and 32 hex
  // digits would collide with it, which no real id or path does.
  return std::string(prefix) + "#" + hex128(value);
}

std::string id_term(const std::string& id) { return boolean_term(kIdPrefix, id); }

std::string new_index_language(const std::string& requested) {
  const std::string language = requested.empty() ? kDefaultLanguage : requested;
  check_language(language);
  return language;
}

void check_schema(const Xapian::Database& db, const std::string& path) {
  const std::string schema = db.get_metadata(kSchemaKey);
  if (schema.empty() || schema == std::to_string(kSchemaVersion)) return;
  throw IndexError("index " + path + " was built by another version of Quarry (layout " + schema +
                   ", this one reads " + std::to_string(kSchemaVersion) +
                   "); move it aside and index the articles again");
}

}  // namespace quarry::detail
