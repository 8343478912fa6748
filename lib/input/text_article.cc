#include "lib/input/text_article.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "lib/input/article_limits.h"
#include "lib/text/utf8_repair.h"
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

struct Header {
  Article fields;
  std::vector<std::string> names;  // of the fields given, lower-cased
  std::vector<std::string> problems;
  std::size_t length = 0;  // bytes of the text it takes, its blank line included
};

std::string lower_ascii(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

// Sets the field `name` names; false when it names none or was given
// already.
bool set_field(std::string_view name, std::string_view value, Header* header) {
  std::string key = lower_ascii(name);
  std::string* field = key == "title"      ? &header->fields.title
                       : key == "date"     ? &header->fields.date
                       : key == "source"   ? &header->fields.source
                       : key == "category" ? &header->fields.category
                       : key == "language" ? &header->fields.language
                                           : nullptr;
  if (field == nullptr ||
      std::find(header->names.begin(), header->names.end(), key) != header->names.end()) {
    return false;
  }
  header->names.push_back(std::move(key));
  *field = value;
  return true;
}

// The header `text` starts with, if it has one (see parse_text_article).
std::optional<Header> read_header(std::string_view text) {
  Header header;
  std::size_t at = 0;
  bool ended = false;  // by a blank line: a one-line text "Source: …" is no header
  while (at < text.size() && !ended) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = trim_white_space(text.substr(at, end - at));
    at = std::min(end + 1, text.size());
    ended = line.empty();
    if (ended) break;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    if (!set_field(trim_white_space(line.substr(0, colon)),
                   trim_white_space(line.substr(colon + 1)), &header)) {
      return std::nullopt;
    }
  }
  if (header.names.empty() || !ended) return std::nullopt;
  if (std::string note = drop_bad_date(&header.fields.date); !note.empty()) {
    header.problems.push_back(std::move(note));
  }
  if (std::string note = normalize_language(&header.fields.language); !note.empty()) {
    header.problems.push_back(std::move(note));
  }
  header.length = at;
  return header;
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

  std::string_view text = contents;
  if (std::optional<Header> header = read_header(text)) {
    result.article = std::move(header->fields);
    result.header_problems = std::move(header->problems);
    text.remove_prefix(header->length);
  }
  const FirstLine first = split_first_line(text);
  if (first.line.empty()) {
    result.kind = TextKind::kEmpty;
    return result;
  }
  if (result.article.title.empty()) {
    bool title_is_first_line = false;
    result.article.title = derive_title(text, &title_is_first_line);
    if (title_is_first_line) text = first.rest;
  }
  result.article.body = trim_white_space(text);
  result.article.id = std::move(id);
  return result;
}

}  // namespace quarry::detail
