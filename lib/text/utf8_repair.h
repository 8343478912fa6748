// Checking and repairing UTF-8, and reading its code points as the repair
// does: the engine's own, beside the counting and trimming of
// quarry/text/utf8.h that front ends use. Quarry handles text as UTF-8
// throughout, and ICU, nlohmann::json and the JSON output all need it
// valid, so text read from disk is repaired once, at the door.
#ifndef QUARRY_LIB_TEXT_UTF8_REPAIR_H_
#define QUARRY_LIB_TEXT_UTF8_REPAIR_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "quarry/text/utf8.h"

namespace quarry::detail {

// U+FFFD REPLACEMENT CHARACTER, encoded.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// The length of the well-formed UTF-8 sequence at the start of `text`, or 0
// when there is none there. Overlong forms, surrogates (U+D800..U+DFFF) and
// values above U+10FFFF are not well-formed (Unicode, table 3-7).
std::size_t valid_sequence_length(std::string_view text);

// How many bytes of `text` are not part of a well-formed sequence.
std::size_t count_invalid_utf8(std::string_view text);

// `text` with every byte that is not part of a well-formed sequence replaced
// by U+FFFD, one replacement per byte.
std::string repair_utf8(std::string_view text);

// The 1-based column, in code points, of the character at `byte_offset`:
// what people count when told where a query went wrong.
inline std::size_t column_of(std::string_view text, std::size_t byte_offset) {
  return count_code_points(text.substr(0, byte_offset)) + 1;
}

// The code point `text` starts with, which must not be empty, and in
// *length how many bytes it takes. A byte that starts no well-formed
// sequence reads as U+FFFD one byte long, as repair_utf8 would replace it.
char32_t first_code_point(std::string_view text, std::size_t* length);

// The code point `text` ends with, which must not be empty, and in *length
// how many bytes it takes; a byte that ends no well-formed sequence reads as
// U+FFFD one byte long.
char32_t last_code_point(std::string_view text, std::size_t* length);

// Whether `c` has Unicode's White_Space property.
bool is_white_space(char32_t c);

// The longest prefix of `text` no longer than `max_bytes` that does not end
// inside a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_TEXT_UTF8_REPAIR_H_
