#include "query/whole_number.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <system_error>

namespace quarry {

CLI::Validator whole_number(std::size_t least) {
  return CLI::Validator(
      [least](const std::string& text) -> std::string {
        std::size_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (error == std::errc::result_out_of_range) {
          return text + " is too large (at most " + std::to_string(SIZE_MAX) + ")";
        }
        if (error != std::errc() || stop != end || value < least) {
          return text + " is not a whole number of " + std::to_string(least) + " or more";
        }
        return "";
      },
      "N");
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (error != std::errc() || stop != end || !std::isfinite(value) || value < 0) {
          return text + " is not a number of 0 or more";
        }
        return "";
      },
      "NUMBER");
}

}  // namespace quarry
