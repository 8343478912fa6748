#include "app/common/search_option_values.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <sstream>

#include "app/common/value_parsers.h"
#include "quarry/error.h"
#include "quarry/search/recency.h"
#include "quarry/text/utf8.h"

namespace quarry {
namespace {

// The parts of a comma-separated list, trimmed, the empty ones left out.
std::vector<std::string_view> list_parts(std::string_view text) {
  std::vector<std::string_view> parts;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view part = trim_white_space(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::string joined(const std::vector<std::string_view>& words, std::string_view between) {
  std::string text;
  for (std::string_view word : words) {
    if (!text.empty()) text += between;
    text += word;
  }
  return text;
}

}  // namespace

std::string_view sort_name(SortOrder sort) { return name_of(kSortNames, sort); }

std::optional<SortOrder> sort_named(std::string_view name) { return value_named(kSortNames, name); }

std::string_view collapse_name(Collapse collapse) { return name_of(kCollapseNames, collapse); }

std::optional<Collapse> collapse_named(std::string_view name) {
  return value_named(kCollapseNames, name);
}

std::vector<std::string_view> facet_names() { return names_of(kFacetNames); }

std::vector<FacetField> parse_facet_fields(std::string_view list) {
  std::vector<FacetField> fields;
  for (std::string_view name : list_parts(list)) {
    const std::optional<FacetField> field = facet_field(name);
    if (!field) {
      throw ConfigError("no facet '" + std::string(name) + "': facets are " +
                        joined(facet_names(), ", "));
    }
    if (std::find(fields.begin(), fields.end(), *field) == fields.end()) fields.push_back(*field);
  }
  return fields;
}

void parse_feedback(std::string_view text, FeedbackConfig* config) {
  for (std::string_view part : list_parts(text)) {
    if (const std::optional<FeedbackMode> mode = value_named(kFeedbackModeNames, part)) {
      config->mode = *mode;
      continue;
    }
    const auto equals = part.find('=');
    const std::string_view name =
        trim_white_space(equals == std::string_view::npos ? part : part.substr(0, equals));
    const std::string_view number = equals == std::string_view::npos
                                        ? std::string_view()
                                        : trim_white_space(part.substr(equals + 1));
    const double value = parse_decimal(number).value_or(-1);
    // "nan" and "inf" are decimals too, which no parameter takes.
    if (!std::isfinite(value) || value < 0) {
      throw ConfigError("feedback '" + std::string(part) + "' is not " +
                        joined(names_of(kFeedbackModeNames), ", ") +
                        " or NAME=NUMBER, e.g. terms=20");
    }
    const bool whole = value <= std::numeric_limits<unsigned>::max() && value == std::floor(value);
    if (name == "docs" && whole && value >= 1) {
      config->docs = static_cast<unsigned>(value);
    } else if (name == "terms" && whole) {
      config->terms = static_cast<unsigned>(value);
    } else if (name == "weight" && value <= 1) {
      config->weight = value;
    } else if (name == "power") {
      config->power = value;
    } else if (name == "min_matches" && whole) {
      config->min_matches = static_cast<unsigned>(value);
    } else if (name == "min_words" && whole) {
      config->min_words = static_cast<unsigned>(value);
    } else if (name == "weight") {
      throw ConfigError("feedback weight takes a number from 0 to 1");
    } else if (name == "docs" || name == "terms" || name == "min_matches" || name == "min_words") {
      throw ConfigError("feedback " + std::string(name) + " takes a whole number" +
                        (name == "docs" ? " from 1" : ""));
    } else {
      throw ConfigError("feedback takes no parameter '" + std::string(name) +
                        "'; known: docs, terms, weight, power, min_matches, min_words");
    }
  }
}

void parse_ranking_parameters(std::string_view text, RankingConfig* config) {
  for (std::string_view part : list_parts(text)) {
    const auto equals = part.find('=');
    const std::optional<double> value =
        equals == std::string_view::npos ? std::nullopt
                                         : parse_decimal(trim_white_space(part.substr(equals + 1)));
    if (!value) {
      throw ConfigError("ranking parameter '" + std::string(part) +
                        "' is not NAME=NUMBER, e.g. k1=1.2");
    }
    const std::string_view name = trim_white_space(part.substr(0, equals));
    if (name.empty()) {
      throw ConfigError("ranking parameter '" + std::string(part) + "' has no name, e.g. k1=1.2");
    }
    // Out of range, "nan" and "inf" included, is the scheme's to say.
    config->parameters[std::string(name)] = *value;
  }
}

double parse_half_life(std::string_view text) {
  const std::string_view trimmed = trim_white_space(text);
  if (trimmed == kRecencyOff) return 0;
  if (trimmed.size() >= 2) {
    const char letter = trimmed.back();
    const std::string_view number = trimmed.substr(0, trimmed.size() - 1);
    const double value = parse_decimal(number).value_or(0);
    for (const HalfLifeUnit& unit : kHalfLifeUnits) {
      // Written so that NaN fails too; a century of weeks is plenty.
      if (unit.letter == letter && value > 0 && value * unit.seconds < 1e12) {
        return value * unit.seconds;
      }
    }
  }
  std::string units;
  for (const HalfLifeUnit& unit : kHalfLifeUnits)
    units += (units.empty() ? "" : ", ") + std::string(1, unit.letter);
  throw ConfigError("'" + std::string(text) +
                    "' is not a half-life: give a positive number and a unit (" + units +
                    "), such as 7d or 12h, or " + std::string(kRecencyOff));
}

std::string half_life_text(double seconds) {
  if (seconds <= 0) return std::string(kRecencyOff);
  const HalfLifeUnit* best = &kHalfLifeUnits[0];
  for (const HalfLifeUnit& unit : kHalfLifeUnits) {
    if (std::fmod(seconds, unit.seconds) == 0) best = &unit;
  }
  std::ostringstream text;
  text << seconds / best->seconds << best->letter;
  return text.str();
}

std::string half_life_words(double seconds) {
  // The names of kHalfLifeUnits' units, in the same order.
  constexpr std::string_view kNames[] = {"second", "minute", "hour", "day", "week"};
  static_assert(std::size(kNames) == std::size(kHalfLifeUnits));
  std::size_t best = 0;
  for (std::size_t i = 0; i < std::size(kHalfLifeUnits); ++i) {
    if (std::fmod(seconds, kHalfLifeUnits[i].seconds) == 0) best = i;
  }
  const double count = seconds / kHalfLifeUnits[best].seconds;
  if (count == 1) return std::string(kNames[best]);
  std::ostringstream text;
  text << count << ' ' << kNames[best] << 's';
  return text.str();
}

std::optional<std::int64_t> parse_as_of(std::string_view text) {
  const std::string_view trimmed = trim_white_space(text);
  if (trimmed.empty() || trimmed == "now") return std::nullopt;
  if (const std::optional<std::int64_t> instant = instant_of(trimmed)) return instant;
  throw ConfigError("'" + std::string(text) +
                    "' is not a date: give an ISO 8601 date or date-time, such as 2024-05-01 or "
                    "2024-05-01T12:00Z, or now");
}

bool takes_bm25_parameters(std::string_view scheme) {
  return std::find(std::begin(kBm25Schemes), std::end(kBm25Schemes), scheme) !=
         std::end(kBm25Schemes);
}

std::string bm25_schemes() {
  return joined({std::begin(kBm25Schemes), std::end(kBm25Schemes)}, " or ");
}

}  // namespace quarry
