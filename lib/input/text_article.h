// Plain-text articles: telling text from binary data, and splitting a title
// from the body.
#ifndef QUARRY_LIB_INPUT_TEXT_ARTICLE_H_
#define QUARRY_LIB_INPUT_TEXT_ARTICLE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

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
  // What of the header could not be used, one line each (a date that is
  // not ISO 8601: see drop_bad_date). The article is kept without it.
  std::vector<std::string> header_problems;
};

// Makes an article of the contents of a .txt file: drops a byte order mark,
// turns CRLF and CR line breaks into LF, repairs invalid UTF-8, and reads
// the header, if the text starts with one: lines "Name: value" up to the
// first blank line, each naming a field of the article (Title, Date,
// Source, Category, Language, in any case, each at most once), with the
// body after them:
//
//   Title: Mourinho in dressing-room bust-up after derby
//   Date: 2017-12-10
//   Source: Press Association
//   Category: sport
//
//   Jose Mourinho was involved in a furious dressing-room bust-up...
//
// Lines that are not all such fields are no header but the article's text.
// A date must be ISO 8601 (YYYY-MM-DD, optionally followed by a time:
// 2017-12-10T15:01:01). Without a Title, the title comes from the text
// (see quarry::derive_title): when it is the first line, the body is what
// follows it; otherwise the body is the whole text.
TextArticle parse_text_article(std::string id, std::string contents);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_TEXT_ARTICLE_H_
