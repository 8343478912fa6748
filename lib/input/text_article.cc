#include "lib/input/text_article.h"

#include <utility>

#include "lib/text/utf8.h"
#include "quarry/input/title.h"

namespace quarry::detail {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool is_control(unsigned char byte) {
  switch (byte) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case 0x1B:  // ESC, of the colour codes in captured terminal output
      return false;
    default:
      return byte < 0x20 || byte == 0x7F;
  }
}

TextKind classify(std::string_view bytes, std::size_t* invalid_utf8) {
  std::size_t controls = 0;
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == 0) return TextKind::kBinary;
    if (is_control(byte)) ++controls;
  }
  // Text in any encoding has next to no control characters besides line
  // breaks and tabs; arbitrary data has about one byte in ten.
  if (controls * 20 > bytes.size()) return TextKind::kBinary;
  // A little invalid UTF-8 is a stray Latin-1 "é" worth repairing; when most
  // bytes are invalid the text is in another encoding, and repairing it would
  // leave little but U+FFFD.
  *invalid_utf8 = count_invalid_utf8(bytes);
  if (*invalid_utf8 * 2 > bytes.size()) return TextKind::kNotUtf8;
  return TextKind::kArticle;
}

void normalize_line_breaks(std::string* text) {
  if (text->find('\r') == std::string::npos) return;
  std::size_t out = 0;
  for (std::size_t in = 0; in < text->size(); ++in) {
    char c = (*text)[in];
    if (c == '\r') {
      c = '\n';
      if (in + 1 < text->size() && (*text)[in + 1] == '\n') ++in;
    }
    (*text)[out++] = c;
  }
  text->resize(out);
}

}  // namespace

FirstLine split_first_line(std::string_view text) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = trim_white_space(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!line.empty()) return {line, text};
  }
  return {};
}

TextArticle parse_text_article(std::string id, std::string contents) {
  TextArticle result;
  std::size_t invalid_utf8 = 0;
  result.kind = classify(contents, &invalid_utf8);
  if (result.kind != TextKind::kArticle) return result;
  if (contents.starts_with(kByteOrderMark)) contents.erase(0, kByteOrderMark.size());
  if (invalid_utf8 > 0) contents = repair_utf8(contents);
  result.repaired_bytes = invalid_utf8;
  normalize_line_breaks(&contents);

  const FirstLine first = split_first_line(contents);
  if (first.line.empty()) {
    result.kind = TextKind::kEmpty;
    return result;
  }
  bool title_is_first_line = false;
  result.article.title = derive_title(contents, &title_is_first_line);
  result.article.body = trim_white_space(title_is_first_line ? first.rest : contents);
  result.article.id = std::move(id);
  return result;
}

}  // namespace quarry::detail
