#include "quarry/text/analyzer.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>
#include <xapian.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "quarry/error.h"

namespace quarry {
namespace {

constexpr std::size_t kMaxCachedStems = 200000;

bool is_ascii(std::string_view text) {
  for (unsigned char c : text) {
    if (c >= 0x80) return false;
  }
  return true;
}

// Accents are stripped only from the Combining Diacritical Marks block: that
// folds é, ñ, ü, ç, Greek tonos and the like, while the vowel signs of Indic
// and other scripts, which change the letter rather than decorate it, stay.
bool is_foldable_accent(UChar32 c) { return c >= 0x0300 && c <= 0x036F; }

// Quotes people type for an apostrophe; NFKC leaves them distinct from '.
bool is_apostrophe_variant(UChar32 c) {
  return c == 0x2019 || c == 0x2018 || c == 0x02BC || c == 0x2032;
}

// Thai, Lao, Khmer, Myanmar and the like, written without spaces between
// words: ICU cuts them by dictionary, as it does CJK.
bool is_written_without_spaces(UChar32 c) {
  return u_getIntPropertyValue(c, UCHAR_LINE_BREAK) == U_LB_COMPLEX_CONTEXT;
}

// Marks and signs that belong to the letter before them (a Thai vowel or
// tone mark, a Khmer subscript sign): a character is a letter and these,
// as a reader sees it (an extended grapheme cluster).
bool extends_character(UChar32 c) {
  switch (u_getIntPropertyValue(c, UCHAR_GRAPHEME_CLUSTER_BREAK)) {
    case U_GCB_EXTEND:
    case U_GCB_SPACING_MARK:
    case U_GCB_ZWJ:
      return true;
    default:
      return false;
  }
}

// Where the character starting at text[at] ends, before `end`. Words hold
// no ill-formed bytes (the break iterator reads them as U+FFFD, a
// non-word), but one would end a character rather than be read past.
int32_t character_end(std::string_view text, int32_t at, int32_t end) {
  UChar32 c;
  U8_NEXT(text.data(), at, end, c);
  if (c < 0) return at;
  for (int32_t next = at; next < end;) {
    U8_NEXT(text.data(), next, end, c);
    if (c < 0 || !extends_character(c)) break;
    at = next;
  }
  return at;
}

// Whether the word text[begin, end) is of such a script. ASCII, most
// words, is not: it is told by its first byte.
bool starts_written_without_spaces(std::string_view text, int32_t begin, int32_t end) {
  if (static_cast<unsigned char>(text[static_cast<std::size_t>(begin)]) < 0x80) return false;
  UChar32 c;
  U8_NEXT(text.data(), begin, end, c);
  return c >= 0 && is_written_without_spaces(c);
}

// Xapian knows "none" as a stemmer that leaves words as they are.
Xapian::Stem make_stemmer(const std::string& language) {
  try {
    return Xapian::Stem(language);
  } catch (const Xapian::Error&) {
    throw ConfigError("unknown language '" + language + "'; available: none " +
                      Analyzer::available_languages());
  }
}

}  // namespace

void check_language(const std::string& language) { make_stemmer(language); }

struct Analyzer::Impl {
  // Never iterates itself: what each thread's iterator is cloned from.
  std::unique_ptr<icu::BreakIterator> words;
  const icu::Normalizer2* nfkc_casefold = nullptr;
  const icu::Normalizer2* nfd = nullptr;
  const icu::Normalizer2* nfc = nullptr;
  Xapian::Stem stemmer;
  // Articles repeat their words; Snowball is costly next to a lookup.
  mutable std::unordered_map<std::string, std::string> stems;

  std::string fold(std::string_view word) const;

  // The word break iterator of the calling thread: an iterator holds the
  // text it walks, so threads tokenizing at once cannot share one. Every
  // Analyzer's breaks words by the same rules, so one per thread serves
  // them all, cloned once rather than for each text.
  icu::BreakIterator& thread_words() const {
    thread_local std::unique_ptr<icu::BreakIterator> mine;
    if (!mine) mine.reset(words->clone());
    return *mine;
  }

  void add(std::string_view text, std::size_t begin, std::size_t end,
           std::vector<Token>* tokens) const {
    std::string term = fold(text.substr(begin, end - begin));
    if (term.empty() || term.size() > kMaxTermBytes) return;
    tokens->push_back(Token{std::move(term), begin, end});
  }

  void add_characters(std::string_view text, int32_t begin, int32_t end, std::size_t max_tokens,
                      std::vector<Token>* tokens) const;
};

// Dictionary segmentation depends on the surrounding text: ICU cuts
// "ฝนตกหนัก" as ฝน|ตกหนัก but reads "ฝนตก" alone as one word, and
// "北京市" as one word holding 北京. A word typed alone may thus be cut
// differently than in an article, or be part of one of its words. One
// term per character, searched as a phrase, always agrees: any run of
// characters a reader types is found where it is written.
void Analyzer::Impl::add_characters(std::string_view text, int32_t begin, int32_t end,
                                    std::size_t max_tokens, std::vector<Token>* tokens) const {
  for (int32_t at = begin; at < end && tokens->size() < max_tokens;) {
    const int32_t next = character_end(text, at, end);
    // Folding may spell a character as two (NFKC writes Thai ำ as ํา, Lao
    // ໜ as ຫນ): each is then a term, so that both spellings agree.
    const std::string folded = fold(text.substr(at, next - at));
    const auto folded_end = static_cast<int32_t>(folded.size());
    for (int32_t part = 0; part < folded_end && tokens->size() < max_tokens;) {
      const int32_t part_end = character_end(folded, part, folded_end);
      if (part_end - part <= static_cast<int32_t>(kMaxTermBytes)) {
        tokens->push_back(Token{folded.substr(part, part_end - part), static_cast<std::size_t>(at),
                                static_cast<std::size_t>(next)});
      }
      part = part_end;
    }
    at = next;
  }
}

std::string Analyzer::Impl::fold(std::string_view word) const {
  if (is_ascii(word)) {
    // NFKC case folding of ASCII is plain lower-casing, and ASCII has no
    // accents: skip ICU on the common path.
    std::string folded(word);
    for (char& c : folded) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return folded;
  }
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(word.data(), static_cast<int32_t>(word.size())));
  icu::UnicodeString folded = nfkc_casefold->normalize(text, status);
  icu::UnicodeString decomposed = nfd->normalize(folded, status);
  if (U_FAILURE(status)) return std::string(word);

  icu::UnicodeString stripped;
  for (int32_t i = 0; i < decomposed.length();) {
    UChar32 c = decomposed.char32At(i);
    i += U16_LENGTH(c);
    if (is_foldable_accent(c)) continue;
    stripped.append(is_apostrophe_variant(c) ? UChar32{'\''} : c);
  }
  icu::UnicodeString composed = nfc->normalize(stripped, status);
  if (U_FAILURE(status)) return std::string(word);
  std::string out;
  composed.toUTF8String(out);
  return out;
}

Analyzer::Analyzer(AnalyzerConfig config) : config_(std::move(config)), impl_(new Impl) {
  impl_->stemmer = make_stemmer(config_.language);
  UErrorCode status = U_ZERO_ERROR;
  impl_->words.reset(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
  impl_->nfkc_casefold = icu::Normalizer2::getNFKCCasefoldInstance(status);
  impl_->nfd = icu::Normalizer2::getNFDInstance(status);
  impl_->nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status) || !impl_->words) {
    throw ConfigError(std::string("cannot load Unicode data: ") + u_errorName(status));
  }
}

Analyzer::~Analyzer() = default;
Analyzer::Analyzer(Analyzer&&) noexcept = default;
Analyzer& Analyzer::operator=(Analyzer&&) noexcept = default;

std::vector<Token> Analyzer::tokenize(std::string_view text) const {
  return tokenize(text, static_cast<std::size_t>(-1));
}

std::vector<Token> Analyzer::tokenize(std::string_view text, std::size_t max_tokens) const {
  std::vector<Token> tokens;
  if (text.empty() || max_tokens == 0) return tokens;
  // About one word in six bytes of prose: growing the vector moves every
  // token again.
  tokens.reserve(std::min(max_tokens, text.size() / 6 + 1));
  UErrorCode status = U_ZERO_ERROR;
  // A UTF-8 UText lets the break iterator work on the bytes in place and
  // report byte offsets; ill-formed bytes read as U+FFFD, a non-word.
  std::unique_ptr<UText, decltype(&utext_close)> utext(
      utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status),
      &utext_close);
  if (U_FAILURE(status)) return tokens;
  icu::BreakIterator& words = impl_->thread_words();
  words.setText(utext.get(), status);
  if (U_FAILURE(status)) return tokens;

  int32_t begin = words.first();
  for (int32_t end = words.next(); end != icu::BreakIterator::DONE && tokens.size() < max_tokens;
       begin = end, end = words.next()) {
    const int32_t kind = words.getRuleStatus();
    if (kind < UBRK_WORD_NONE_LIMIT) continue;
    if ((kind >= UBRK_WORD_KANA && kind < UBRK_WORD_IDEO_LIMIT) ||
        starts_written_without_spaces(text, begin, end)) {
      impl_->add_characters(text, begin, end, max_tokens, &tokens);
      continue;
    }
    impl_->add(text, begin, end, &tokens);
  }
  return tokens;
}

std::string Analyzer::normalize(std::string_view word) const { return impl_->fold(word); }

std::string Analyzer::in_typed_case(std::string_view typed, std::string_view word) const {
  const std::string folded = normalize(typed);
  std::string out;
  std::string_view rest = word;
  if (!folded.empty() && word.starts_with(folded)) {
    out = typed;
    rest.remove_prefix(folded.size());
  }
  std::size_t capitals = 0;
  bool small = false;
  bool capital_first = false;
  const auto size = static_cast<int32_t>(typed.size());
  for (int32_t i = 0; i < size;) {
    UChar32 c;
    U8_NEXT(typed.data(), i, size, c);
    if (c < 0) continue;
    if (u_isupper(c) || u_istitle(c)) {
      if (capitals == 0 && !small) capital_first = true;
      ++capitals;
    } else if (u_islower(c)) {
      small = true;
    }
  }
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(rest.data(), static_cast<int32_t>(rest.size())));
  if (capitals > 1 && !small) {
    text.toUpper(icu::Locale::getRoot());
  } else if (out.empty() && capital_first && !text.isEmpty()) {
    const UChar32 first = text.char32At(0);
    text.replace(0, U16_LENGTH(first), u_totitle(first));
  }
  text.toUTF8String(out);
  return out;
}

std::string Analyzer::stem(const std::string& term) const {
  auto cached = impl_->stems.find(term);
  if (cached != impl_->stems.end()) return cached->second;
  // Bounded: a vocabulary past this size is mostly one-off words.
  if (impl_->stems.size() >= kMaxCachedStems) impl_->stems.clear();
  return impl_->stems.emplace(term, config_.stem_mark + impl_->stemmer(term)).first->second;
}

std::string Analyzer::available_languages() { return Xapian::Stem::get_available_languages(); }

}  // namespace quarry
