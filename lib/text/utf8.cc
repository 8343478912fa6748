#include "lib/text/utf8.h"

namespace quarry::detail {

namespace {

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

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
    if (!is_continuation(byte(i))) return 0;
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

std::size_t count_code_points(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) {
    if (!is_continuation(static_cast<unsigned char>(c))) ++count;
  }
  return count;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  while (end > 0 && is_continuation(static_cast<unsigned char>(text[end]))) --end;
  return text.substr(0, end);
}

}  // namespace quarry::detail
