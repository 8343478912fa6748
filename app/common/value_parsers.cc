#include "app/common/value_parsers.h"

#include <algorithm>
#include <charconv>
#include <system_error>

namespace quarry {

std::optional<std::size_t> parse_whole_number(std::string_view text) {
  // from_chars would read a leading '-' for a signed type only, but the
  // rule is the text's, not the type's.
  if (!is_digits(text)) return std::nullopt;
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<double> parse_decimal(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

}  // namespace quarry
