#include "lib/input/path_text.h"

#include "lib/text/utf8_repair.h"

namespace quarry::detail {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

int capital_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The byte the escape at the start of `text` stands for ("%25", or "%80" to
// "%FF"), or -1 when it starts with none. Only bytes that path_text escapes
// count: "%20", "%e9" or "%41" in a name are left as they are, and read back
// so.
int escaped_byte(std::string_view text) {
  if (text.size() < 3 || text[0] != '%') return -1;
  const int high = capital_hex_digit(text[1]);
  const int low = capital_hex_digit(text[2]);
  if (high < 0 || low < 0) return -1;
  const int byte = high * 16 + low;
  return byte == '%' || byte >= 0x80 ? byte : -1;
}

void append_escape(unsigned char byte, std::string* text) {
  *text += '%';
  *text += kHexDigits[byte >> 4];
  *text += kHexDigits[byte & 0xF];
}

}  // namespace

std::string path_text(std::string_view bytes) {
  std::string text;
  text.reserve(bytes.size());
  for (std::size_t at = 0; at < bytes.size();) {
    const std::string_view rest = bytes.substr(at);
    if (const std::size_t length = valid_sequence_length(rest); length > 0) {
      // A "%" stays itself unless the bytes after it would read back as an
      // escape: those bytes are copied unchanged, being ASCII.
      if (rest[0] == '%' && escaped_byte(rest) >= 0) {
        append_escape('%', &text);
      } else {
        text.append(rest.substr(0, length));
      }
      at += length;
    } else {
      append_escape(static_cast<unsigned char>(rest[0]), &text);
      ++at;
    }
  }
  return text;
}

std::string path_bytes(std::string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    if (const int byte = escaped_byte(text.substr(at)); byte >= 0) {
      bytes += static_cast<char>(byte);
      at += 3;
    } else {
      bytes += text[at++];
    }
  }
  return bytes;
}

}  // namespace quarry::detail
