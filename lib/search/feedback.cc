#include "quarry/search/feedback.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "quarry/error.h"
#include "quarry/text/utf8.h"

namespace quarry {

void parse_feedback(std::string_view text, FeedbackConfig* config) {
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view part = trim_white_space(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (part.empty()) continue;
    if (part == "on" || part == "off" || part == "auto") {
      config->mode = part == "on"    ? FeedbackMode::kOn
                     : part == "off" ? FeedbackMode::kOff
                                     : FeedbackMode::kAuto;
      continue;
    }
    const auto equals = part.find('=');
    const std::string_view name =
        trim_white_space(equals == std::string_view::npos ? part : part.substr(0, equals));
    const std::string_view number = equals == std::string_view::npos
                                        ? std::string_view()
                                        : trim_white_space(part.substr(equals + 1));
    double value = 0;
    auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    // from_chars reads "nan" and "inf" too, which no parameter takes.
    if (number.empty() || error != std::errc() || end != number.data() + number.size() ||
        !std::isfinite(value) || value < 0) {
      throw ConfigError("feedback '" + std::string(part) +
                        "' is not on, off, auto or NAME=NUMBER, e.g. terms=20");
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

}  // namespace quarry
