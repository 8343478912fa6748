// Plain-text articles: telling text from binary data, and splitting a title
// from the body.
#ifndef QUARRY_LIB_INPUT_TEXT_ARTICLE_H_
#define QUARRY_LIB_INPUT_TEXT_ARTICLE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "quarry/input/article.h"

namespace quarry::detail {

// The first line of a text that holds more than white space, trimmed, and
// everything after that line's break. Both are empty for a blank text.
struct FirstLine {
  std::string_view line;
  std::string_view rest;
};

FirstLine split_first_line(std::string_view text);

enum class TextKind {
  kArticle,
  kBinary,   // NUL bytes, or many control characters
  kNotUtf8,  // most bytes are not UTF-8: some other encoding, or noise
  kEmpty,    // nothing but white space
};

struct TextArticle {
  TextKind kind = TextKind::kArticle;
  Article article;                 // filled in when kind is kArticle
  std::size_t repaired_bytes = 0;  // invalid UTF-8 bytes replaced by U+FFFD
};

// Makes an article of the contents of a .txt file: drops a byte order mark,
// turns CRLF and CR line breaks into LF, repairs invalid UTF-8, and takes the
// title from the text (see quarry::derive_title). When the title is the
// first line, the body is what follows it; otherwise the body is the whole
// text.
TextArticle parse_text_article(std::string id, std::string contents);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_TEXT_ARTICLE_H_
