#include "quarry/text/utf8.h"

#include <algorithm>

#include "lib/text/utf8_repair.h"

namespace quarry {

bool is_valid_utf8(std::string_view text) { return detail::count_invalid_utf8(text) == 0; }

std::size_t count_code_points(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), starts_code_point));
}

std::string_view trim_white_space(std::string_view text) {
  std::size_t length;
  while (!text.empty() && detail::is_white_space(detail::first_code_point(text, &length))) {
    text.remove_prefix(length);
  }
  while (!text.empty() && detail::is_white_space(detail::last_code_point(text, &length))) {
    text.remove_suffix(length);
  }
  return text;
}

}  // namespace quarry
