// What of a text tells its language. Words in capitals do not: a
// headline set in capitals is mostly names, acronyms and figures ("RIO DE
// JANEIRO - IBC ESTIMATES 1987-88 COFFEE CROP AT 35.2 MLN BAGS"), which
// read as whatever language the names come from; in text written in lower
// case, the words in capitals are names and acronyms too.
#ifndef QUARRY_LIB_TEXT_LANGUAGE_EVIDENCE_H_
#define QUARRY_LIB_TEXT_LANGUAGE_EVIDENCE_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace quarry::detail {

// Text written in capitals (more of its letters in words of capitals only
// than in other words) tells its language when its words hold this many
// bytes: three times what other text needs (kMinIdentifiedWordBytes), as a
// sentence does and a headline does not.
inline constexpr std::size_t kMinCapitalWordBytes = 90;

struct LanguageEvidence {
  // The text a language identifier should read: `text` with its words in
  // capitals blanked out, unless it is written in capitals.
  std::string text;
  // Whether that holds enough words to tell a language: bytes of words
  // not wholly in capitals (words of scripts without case among them), and
  // a space after each, at least kMinIdentifiedWordBytes; in text written
  // in capitals, bytes of its words at least kMinCapitalWordBytes.
  bool enough = false;
};

// `text` must be well-formed UTF-8 for its words to be found; an
// ill-formed byte ends a word.
LanguageEvidence language_evidence(std::string_view text);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_TEXT_LANGUAGE_EVIDENCE_H_
