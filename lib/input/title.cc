// Titles of plain-text articles: a headline when the first line reads as
// one, else the first sentence, which needs ICU's sentence and word breaks.
#include "quarry/input/title.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf16.h>

#include <memory>

#include "lib/input/text_article.h"
#include "lib/text/utf8_repair.h"
#include "quarry/error.h"

namespace quarry {
namespace detail {
namespace {

constexpr UChar32 kEllipsis = 0x2026;

// The first sentence is looked for in this much of the first paragraph; any
// sentence that ends later is far too long for a title anyway.
constexpr std::size_t kSentenceScanBytes = 4096;

std::string to_utf8(const icu::UnicodeString& text) {
  std::string utf8;
  text.toUTF8String(utf8);
  return utf8;
}

// `text` with each run of white space, line breaks included, made a single
// space, and invalid UTF-8 replaced, so that the result can serve as a title.
std::string collapse_white_space(std::string_view text) {
  std::string collapsed;
  collapsed.reserve(text.size());
  bool pending_space = false;
  while (!text.empty()) {
    std::size_t length;
    const UChar32 c = first_code_point(text, &length);
    if (is_white_space(c)) {
      pending_space = !collapsed.empty();
    } else {
      if (pending_space) collapsed += ' ';
      pending_space = false;
      if (c == 0xFFFD && length == 1) {
        collapsed += kReplacementCharacter;
      } else {
        collapsed.append(text.substr(0, length));
      }
    }
    text.remove_prefix(length);
  }
  return collapsed;
}

bool is_closing_mark(UChar32 c) {
  const int8_t type = u_charType(c);
  // Initial quotes too: German closes quotations with “.
  return type == U_END_PUNCTUATION || type == U_FINAL_PUNCTUATION ||
         type == U_INITIAL_PUNCTUATION || c == '"' || c == '\'';
}

// Whether `line` ends as a sentence does, perhaps inside quotes or brackets:
// 'He said "No."' ends, "Results (updated)" does not.
bool ends_with_sentence_terminal(std::string_view line) {
  while (!line.empty()) {
    std::size_t length;
    const UChar32 c = last_code_point(line, &length);
    if (!is_closing_mark(c)) return u_hasBinaryProperty(c, UCHAR_S_TERM) || c == kEllipsis;
    line.remove_suffix(length);
  }
  return false;
}

// A hard-wrapped paragraph also starts with a short line without a full stop.
// It gives itself away by a comma at the break, or by going on in lower case
// on the very next line.
bool looks_wrapped(const FirstLine& first) {
  std::size_t length;
  const UChar32 last = last_code_point(first.line, &length);
  if (last == ',' || last == ';' || last == 0x3001 || last == 0xFF0C) return true;
  const std::string_view next_line = trim_white_space(first.rest.substr(0, first.rest.find('\n')));
  return !next_line.empty() && u_islower(first_code_point(next_line, &length));
}

bool is_headline(const FirstLine& first, std::string_view candidate) {
  return count_code_points(candidate) <= kMaxTitleChars &&
         !ends_with_sentence_terminal(first.line) && !trim_white_space(first.rest).empty() &&
         !looks_wrapped(first);
}

// The lines from the start of `text` up to the first blank line, at most
// kSentenceScanBytes of them.
std::string_view first_paragraph(std::string_view text) {
  text = utf8_prefix(text, kSentenceScanBytes);
  std::size_t newline = text.find('\n');
  while (newline != std::string_view::npos) {
    const std::size_t next = text.find('\n', newline + 1);
    const std::string_view next_line =
        text.substr(newline + 1, next == std::string_view::npos ? next : next - newline - 1);
    if (trim_white_space(next_line).empty()) return text.substr(0, newline);
    newline = next;
  }
  return text;
}

struct BreakIterators {
  std::unique_ptr<icu::BreakIterator> sentence;
  std::unique_ptr<icu::BreakIterator> word;
  std::unique_ptr<icu::BreakIterator> character;
};

BreakIterators make_break_iterators() {
  UErrorCode status = U_ZERO_ERROR;
  BreakIterators iterators;
  // "ss=standard" keeps abbreviations such as "Mr." and "U.S." from ending a
  // sentence, which news text is full of.
  iterators.sentence.reset(
      icu::BreakIterator::createSentenceInstance(icu::Locale("en@ss=standard"), status));
  iterators.word.reset(icu::BreakIterator::createWordInstance(icu::Locale::getEnglish(), status));
  iterators.character.reset(
      icu::BreakIterator::createCharacterInstance(icu::Locale::getEnglish(), status));
  if (U_FAILURE(status)) {
    throw Error(std::string("cannot create ICU break iterators: ") + u_errorName(status));
  }
  return iterators;
}

// Making the sentence iterator costs some 0.3 ms, far more than a title, and
// break iterators are not thread-safe; so each thread keeps its own set.
BreakIterators& break_iterators() {
  thread_local BreakIterators iterators = make_break_iterators();
  return iterators;
}

icu::UnicodeString first_sentence(const icu::UnicodeString& paragraph) {
  icu::BreakIterator& sentences = *break_iterators().sentence;
  sentences.setText(paragraph);
  int32_t end = sentences.next();
  if (end == icu::BreakIterator::DONE) end = paragraph.length();
  icu::UnicodeString sentence(paragraph, 0, end);
  // White space is collapsed to single spaces by now.
  while (sentence.endsWith(u" ")) sentence.truncate(sentence.length() - 1);
  return sentence;
}

// Moves `cut` back over white space and over punctuation that would read
// oddly before "…" (commas, dashes, opening quotes), but not over closing
// brackets and quotes.
int32_t trim_cut(const icu::UnicodeString& text, int32_t cut) {
  while (cut > 0) {
    const UChar32 c = text.char32At(cut - 1);
    const int8_t type = u_charType(c);
    const bool filler = is_white_space(c) ||
                        (u_ispunct(c) && type != U_END_PUNCTUATION && type != U_FINAL_PUNCTUATION);
    if (!filler) break;
    cut -= U16_LENGTH(c);
  }
  return cut;
}

std::string shorten(const icu::UnicodeString& sentence) {
  // kMaxTitleChars - 1 code points leave room for the "…".
  const int32_t limit = sentence.moveIndex32(0, static_cast<int32_t>(kMaxTitleChars) - 1);
  BreakIterators& iterators = break_iterators();
  iterators.word->setText(sentence);
  int32_t cut = iterators.word->isBoundary(limit) ? limit : iterators.word->preceding(limit);
  cut = trim_cut(sentence, cut);
  if (cut <= 0) {
    // One word longer than a title (a URL, a chemical name): cut inside it,
    // but not inside a character.
    iterators.character->setText(sentence);
    cut = iterators.character->isBoundary(limit) ? limit : iterators.character->preceding(limit);
    if (cut <= 0) cut = limit;
  }
  icu::UnicodeString title(sentence, 0, cut);
  title.append(kEllipsis);
  return to_utf8(title);
}

}  // namespace
}  // namespace detail

std::string derive_title(std::string_view text, bool* title_is_first_line) {
  const detail::FirstLine first = detail::split_first_line(text);
  // A line this long is no headline, and may be a whole article.
  std::string headline = first.line.size() <= detail::kSentenceScanBytes
                             ? detail::collapse_white_space(first.line)
                             : std::string();
  const bool is_first_line = !headline.empty() && detail::is_headline(first, headline);
  if (title_is_first_line != nullptr) *title_is_first_line = is_first_line;
  if (is_first_line) return headline;
  if (first.line.empty()) return {};

  const std::string_view from_first_line = text.substr(first.line.data() - text.data());
  const icu::UnicodeString paragraph = icu::UnicodeString::fromUTF8(
      detail::collapse_white_space(detail::first_paragraph(from_first_line)));
  const icu::UnicodeString sentence = detail::first_sentence(paragraph);
  if (static_cast<std::size_t>(sentence.countChar32()) <= kMaxTitleChars) {
    return detail::to_utf8(sentence);
  }
  return detail::shorten(sentence);
}

}  // namespace quarry
