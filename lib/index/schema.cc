#include "lib/index/schema.h"

#include <xxhash.h>

#include <chrono>
#include <cstdio>

#include "quarry/error.h"
#include "quarry/text/analyzer.h"
#include "quarry/text/language_identifier.h"

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

// The offset from UTC that `zone` names ("Z", "+02:00", "-0530", "+01"),
// in minutes; 0 when it names none.
long utc_offset_minutes(std::string_view zone) {
  if (zone.size() < 3 || (zone[0] != '+' && zone[0] != '-')) return 0;
  const long sign = zone[0] == '-' ? -1 : 1;
  const int hours = digits_value(zone.substr(1, 2));
  int minutes = 0;
  zone.remove_prefix(3);
  if (!zone.empty() && zone[0] == ':') zone.remove_prefix(1);
  if (zone.size() >= 2) minutes = digits_value(zone.substr(0, 2));
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return 0;
  return sign * (hours * 60L + minutes);
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
  std::string_view time = iso.substr(11);
  const int hour = digits_value(time.substr(0, 2));
  const int minute = digits_value(time.substr(3, 2));
  if (time[2] != ':' || hour < 0 || hour > 23 || minute < 0 || minute > 59) return "";
  int second = -1;
  std::string fraction;
  time.remove_prefix(5);
  if (time.size() >= 3 && time[0] == ':') {
    // A leap second is 60.
    second = digits_value(time.substr(1, 2));
    if (second > 60) second = -1;
  }
  if (second >= 0) {
    time.remove_prefix(3);
    if (time.size() >= 2 && (time[0] == '.' || time[0] == ',')) {
      time.remove_prefix(1);
      while (!time.empty() && time[0] >= '0' && time[0] <= '9') {
        fraction += time[0];
        time.remove_prefix(1);
      }
    }
  }
  // Within a day, articles are ordered by the instant they name: a time
  // with a zone is taken to UTC, still counted from the start of the day
  // written, so it may fall before it ("-" sorts before every digit) or
  // past its end (hours from 24). Without a zone, or in UTC, the time is
  // as written. Zones are whole minutes, so the seconds stay as written.
  long minutes = hour * 60L + minute - utc_offset_minutes(time);
  std::string value;
  if (minutes < 0) {
    value = "-";
    minutes += 24 * 60;
  }
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%02ld%02ld", minutes / 60, minutes % 60);
  value += buffer;
  if (second < 0) return value;
  std::snprintf(buffer, sizeof buffer, "%02d", second);
  return value + buffer + fraction;
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
  const std::string language = requested.empty() ? kAutoLanguage : requested;
  check_index_language(language);
  return language;
}

void check_index_language(const std::string& language) {
  if (language == kAutoLanguage) return;
  try {
    check_language(language);
  } catch (const ConfigError&) {
    throw ConfigError("unknown language '" + language + "'; available: " + kAutoLanguage +
                      " none " + Analyzer::available_languages());
  }
}

std::string main_language(const std::string& language) {
  return language == kAutoLanguage || language.empty() ? kDefaultLanguage : language;
}

std::string stem_mark(const std::string& language, const std::string& main) {
  if (language == main) return "";
  const std::string code = language_code(language);
  std::string mark = "X" + (!code.empty() && stemmer_language(code) == language ? code : language);
  for (char& c : mark) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return mark;
}

std::string stored_language(const Xapian::Database& db, const std::string& path) {
  std::string language = db.get_metadata(kLanguageKey);
  if (language.empty() && db.get_doccount() != 0) {
    throw IndexError(path + " is a Xapian database that Quarry did not build");
  }
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
