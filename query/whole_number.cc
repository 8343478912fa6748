#include "query/whole_number.h"

#include <cstdint>
#include <optional>
#include <string>

#include "app/common/value_parsers.h"

namespace quarry {

CLI::Validator whole_number(std::size_t least) {
  return CLI::Validator(
      [least](const std::string& text) -> std::string {
        const std::optional<std::size_t> value = parse_whole_number(text);
        if (!value && is_digits(text)) {
          return text + " is too large (at most " + std::to_string(SIZE_MAX) + ")";
        }
        if (!value || *value < least) {
          return text + " is not a whole number of " + std::to_string(least) + " or more";
        }
        return "";
      },
      "N");
}

}  // namespace quarry
