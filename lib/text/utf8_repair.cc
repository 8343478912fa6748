#include "lib/text/utf8_repair.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <cstdint>

namespace quarry::detail {
namespace {

// No sequence is longer; looking at no more bytes keeps ICU's int32_t
// offsets in range however long the text.
constexpr std::size_t kMaxSequenceBytes = 4;

const std::uint8_t* bytes_of(std::string_view text) {
  return reinterpret_cast<const std::uint8_t*>(text.data());
}

}  // namespace

std::size_t valid_sequence_length(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length;
  // The second byte's range is what rules out overlong forms (after E0 and
  // F0), surrogates (after ED) and values past U+10FFFF (after F4).
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (starts_code_point(text[i])) return 0;
  }
  return length;
}

std::size_t count_invalid_utf8(std::string_view text) {
  std::size_t invalid = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = valid_sequence_length(text.substr(i));
    if (length == 0) {
      ++invalid;
      ++i;
    } else {
      i += length;
    }
  }
  return invalid;
}

std::string repair_utf8(std::string_view text) {
  std::string repaired;
  repaired.reserve(text.size() + text.size() / 8);
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = valid_sequence_length(text.substr(i));
    if (length == 0) {
      repaired += kReplacementCharacter;
      ++i;
    } else {
      repaired.append(text, i, length);
      i += length;
    }
  }
  return repaired;
}

char32_t first_code_point(std::string_view text, std::size_t* length) {
  const auto size = static_cast<std::int32_t>(std::min(text.size(), kMaxSequenceBytes));
  std::int32_t end = 0;
  UChar32 c;
  U8_NEXT_OR_FFFD(bytes_of(text), end, size, c);
  // ICU takes the longest start of a sequence as one bad character; repair
  // counts each bad byte.
  *length =
      c == 0xFFFD && !text.starts_with(kReplacementCharacter) ? 1 : static_cast<std::size_t>(end);
  return static_cast<char32_t>(c);
}

char32_t last_code_point(std::string_view text, std::size_t* length) {
  const std::string_view tail = text.substr(text.size() - std::min(text.size(), kMaxSequenceBytes));
  auto start = static_cast<std::int32_t>(tail.size());
  UChar32 c;
  U8_PREV_OR_FFFD(bytes_of(tail), 0, start, c);
  *length = c == 0xFFFD && !tail.ends_with(kReplacementCharacter)
                ? 1
                : tail.size() - static_cast<std::size_t>(start);
  return static_cast<char32_t>(c);
}

// u_isUWhiteSpace() with a shortcut: most text is ASCII, and the ICU lookup
// showed up in profiles of reading corpora.
bool is_white_space(char32_t c) {
  if (c < 0x80) return c == ' ' || (c >= '\t' && c <= '\r');
  return u_isUWhiteSpace(static_cast<UChar32>(c));
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  while (end > 0 && !starts_code_point(text[end])) --end;
  return text.substr(0, end);
}

}  // namespace quarry::detail
