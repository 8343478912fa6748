// How much of an article is indexed. News articles run to kilobytes; a body
// of many megabytes is a whole book, a database dump or a mistake, and
// indexing all of it would cost memory while building and time at every
// snippet drawn from it, for a document that ranks poorly anyway.
#ifndef QUARRY_LIB_INPUT_ARTICLE_LIMITS_H_
#define QUARRY_LIB_INPUT_ARTICLE_LIMITS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/input/article.h"

namespace quarry::detail {

// Cuts `body` to at most kMaxBodyBytes (see article_reader.h), at the last
// line break or space before the limit when one is near, so that no word is
// split, and never inside a UTF-8 sequence. Returns whether it was cut.
bool cut_long_body(std::string* body);

// The note reported for an article of `original_bytes` that was cut.
std::string long_article_note(std::size_t original_bytes);

// `value` of the input, quoted for a problem's message: whole when short,
// else its first kMaxQuotedBytes up to where a character ends, and "…". A
// value may be a whole body put in the wrong field.
std::string quote_value(std::string_view value);

// How much of a value quote_value quotes.
inline constexpr std::size_t kMaxQuotedBytes = 64;

// Why an article with this id cannot be indexed (longer than kMaxIdBytes,
// see article_reader.h), or "" when it can.
std::string refuse_long_id(std::string_view id);

// Cuts the title, category and source of `article` to kMaxTitleBytes and
// kMaxLabelBytes (see article_reader.h), a title at a word boundary when
// one is near, each where a character ends. Returns a note for each field
// cut, the same for every reader.
std::vector<std::string> cut_long_fields(Article* article);

// A date must be ISO 8601: "2017-12-10", optionally followed by a time
// ("2017-12-10T15:01:01"), of a day that exists, in kMaxDateBytes at most.
// Clears *date when it is not and returns the note reported for it, the
// same for every reader; returns "" for a good or empty date.
std::string drop_bad_date(std::string* date);

// The longest date read: a day, a time to the nanosecond and a zone
// ("2017-12-10T15:01:01.123456789+05:30") take 35 bytes.
inline constexpr std::size_t kMaxDateBytes = 64;

// A language is named as a stemmer ("french"), an ISO 639-1 code ("fr") or
// a language tag ("fr-CA"), ASCII case ignored: *language becomes the
// stemmer's name. Clears *language when it names none, or a language with
// no stemmer, and returns the note reported for it, the same for every
// reader (the article's language is then told from its text); returns ""
// for a known or empty language.
std::string normalize_language(std::string* language);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_ARTICLE_LIMITS_H_
