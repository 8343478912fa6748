// Counting and trimming UTF-8 text the way the engine does, for front ends
// that lay out what it returns: snippet highlights, for one, are counted in
// code points.
#ifndef QUARRY_TEXT_UTF8_H_
#define QUARRY_TEXT_UTF8_H_

#include <cstddef>
#include <string_view>

namespace quarry {

// Whether `byte` starts a code point in UTF-8, that is, is not a
// continuation byte (10xxxxxx). Counting such bytes counts code points.
constexpr bool starts_code_point(char byte) {
  return (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
}

// Whether `text` is well-formed UTF-8 as Unicode defines it: no overlong
// forms, no encoded surrogates, nothing past U+10FFFF.
bool is_valid_utf8(std::string_view text);

// The number of code points in `text`, which must be valid UTF-8.
std::size_t count_code_points(std::string_view text);

// `text` without leading and trailing white space, as Unicode defines it
// (the White_Space property: ASCII spaces and line breaks, U+00A0, U+3000,
// …). A byte of invalid UTF-8 is not white space.
std::string_view trim_white_space(std::string_view text);

}  // namespace quarry

#endif  // QUARRY_TEXT_UTF8_H_
