// The language an article is written in, named as the Snowball stemmer that
// serves it ("english", "french", "german", "portuguese", "swedish", …, the
// names AnalyzerConfig::language takes): told by the article itself (a
// language field, an ISO 639-1 code or a name), or identified from its text.
//
// All three functions are pure, thread-safe and never throw.
#ifndef QUARRY_TEXT_LANGUAGE_IDENTIFIER_H_
#define QUARRY_TEXT_LANGUAGE_IDENTIFIER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace quarry {

// Text with fewer bytes of words than this (letters, and a space between
// words; not digits or punctuation) is too short to identify: a word or two
// ("Paris", "Hello world") belong to many languages.
inline constexpr std::size_t kMinIdentifiedWordBytes = 30;

// The language `text` (UTF-8; invalid bytes are skipped) is written in, by
// Chrome's Compact Language Detector 2, as a stemmer name; or "" when it
// cannot be told reliably: the text is too short (words in capitals,
// names and acronyms, count only in text written in capitals, and there
// need a sentence's worth), its languages are mixed with none clearly
// first, it is no language at all (numbers, symbols), or its language has
// no stemmer. Only the first 64 KiB are read.
std::string identify_language(std::string_view text);

// The stemmer name of a language as a user or an article names it, ASCII
// case ignored: a name the stemmers take ("french", "German", "german2",
// "none"), the language's own name ("deutsch", "français", "francais"), or
// an ISO 639-1 code ("fr"), alone or starting a language tag ("pt-BR",
// "en_GB"). "" for anything else, and for a language with no stemmer
// ("el", "japanese").
std::string stemmer_language(std::string_view code_or_name);

// The ISO 639-1 code of a stemmer language ("french" → "fr", "porter" →
// "en"); "" for "none" and for what is not a stemmer name.
std::string language_code(std::string_view language);

// A stemmer language as users see it, on hits and in facets: its ISO
// 639-1 code, or its name where it has none ("none").
std::string language_label(std::string_view language);

}  // namespace quarry

#endif  // QUARRY_TEXT_LANGUAGE_IDENTIFIER_H_
