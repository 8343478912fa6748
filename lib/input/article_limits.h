// How much of an article is indexed. News articles run to kilobytes; a body
// of many megabytes is a whole book, a database dump or a mistake, and
// indexing all of it would cost memory while building and time at every
// snippet drawn from it, for a document that ranks poorly anyway.
#ifndef QUARRY_LIB_INPUT_ARTICLE_LIMITS_H_
#define QUARRY_LIB_INPUT_ARTICLE_LIMITS_H_

#include <cstddef>
#include <string>

namespace quarry::detail {

// Cuts `body` to at most kMaxBodyBytes (see article_reader.h), at the last
// line break or space before the limit when one is near, so that no word is
// split, and never inside a UTF-8 sequence. Returns whether it was cut.
bool cut_long_body(std::string* body);

// The note reported for an article of `original_bytes` that was cut.
std::string long_article_note(std::size_t original_bytes);

// A date must be ISO 8601: "2017-12-10", optionally followed by a time
// ("2017-12-10T15:01:01"), of a day that exists. Clears *date when it is not
// and returns the note reported for it, the same for every reader; returns ""
// for a good or empty date.
std::string drop_bad_date(std::string* date);

// A language is named as a stemmer ("french"), an ISO 639-1 code ("fr") or
// a language tag ("fr-CA"), ASCII case ignored: *language becomes the
// stemmer's name. Clears *language when it names none, or a language with
// no stemmer, and returns the note reported for it, the same for every
// reader (the article's language is then told from its text); returns ""
// for a known or empty language.
std::string normalize_language(std::string* language);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_ARTICLE_LIMITS_H_
