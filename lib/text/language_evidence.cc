#include "lib/text/language_evidence.h"

#include <unicode/uchar.h>

#include <vector>

#include "lib/text/utf8_repair.h"
#include "quarry/text/language_identifier.h"

namespace quarry::detail {
namespace {

// A word's letters and marks ("é" may be "e" and a combining accent).
bool in_word(char32_t c) {
  const auto category = U_GET_GC_MASK(static_cast<UChar32>(c));
  return u_isalpha(static_cast<UChar32>(c)) || (category & U_GC_M_MASK) != 0;
}

struct Word {
  std::size_t start = 0;
  std::size_t bytes = 0;
  bool upper = false;  // holds a capital (or title-case) letter
  bool lower = false;  // holds a lower-case letter
};

std::vector<Word> words_of(std::string_view text) {
  std::vector<Word> words;
  bool inside = false;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t length = 0;
    const auto c = static_cast<UChar32>(first_code_point(text.substr(at), &length));
    if (!in_word(static_cast<char32_t>(c))) {
      inside = false;
    } else {
      if (!inside) words.push_back({at, 0, false, false});
      inside = true;
      Word& word = words.back();
      word.bytes += length;
      word.upper = word.upper || u_isupper(c) || u_istitle(c);
      word.lower = word.lower || u_islower(c);
    }
    at += length;
  }
  return words;
}

}  // namespace

LanguageEvidence language_evidence(std::string_view text) {
  const std::vector<Word> words = words_of(text);
  // Bytes of words, each with a space after it, as CLD2 counts them.
  std::size_t not_capitals = 0;
  std::size_t capitals = 0;
  std::size_t all = 0;
  for (const Word& word : words) {
    if (word.lower || !word.upper) not_capitals += word.bytes + 1;
    if (word.upper && !word.lower) capitals += word.bytes + 1;
    all += word.bytes + 1;
  }
  LanguageEvidence evidence;
  if (capitals > not_capitals) {
    evidence.text = text;
    evidence.enough = all >= kMinCapitalWordBytes;
    return evidence;
  }
  evidence.text = text;
  for (const Word& word : words) {
    if (word.upper && !word.lower) evidence.text.replace(word.start, word.bytes, word.bytes, ' ');
  }
  evidence.enough = not_capitals >= kMinIdentifiedWordBytes;
  return evidence;
}

}  // namespace quarry::detail
