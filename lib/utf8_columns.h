// Converting byte offsets in UTF-8 text to what people count: characters.
#ifndef QUARRY_LIB_UTF8_COLUMNS_H_
#define QUARRY_LIB_UTF8_COLUMNS_H_

#include <cstddef>
#include <string_view>

namespace quarry::detail {

// The number of code points in text[0, byte_offset): continuation bytes are
// not counted, so the result is right for valid UTF-8 and sane for invalid.
inline std::size_t code_points_before(std::string_view text, std::size_t byte_offset) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < byte_offset && i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++count;
  }
  return count;
}

// The 1-based column, in code points, of the character at byte_offset.
inline std::size_t column_of(std::string_view text, std::size_t byte_offset) {
  return code_points_before(text, byte_offset) + 1;
}

}  // namespace quarry::detail

#endif  // QUARRY_LIB_UTF8_COLUMNS_H_
