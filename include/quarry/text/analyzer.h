// The one text analyzer: it turns text into terms for indexing, for query
// parsing and for highlighting, so that what is indexed is what is found and
// what is found is what is highlighted.
//
// Pipeline: Unicode word segmentation (UAX #29, with dictionary segmentation
// for CJK, Thai, Lao, Khmer and Myanmar), then NFKC case folding, removal of
// Latin/Greek/Cyrillic accents, and one apostrophe; then, on request,
// Snowball stemming. Words of scripts written without spaces (those cut by
// dictionary) become one term per character (a letter with its marks), so
// that a word searched for is the phrase of its characters and is found
// wherever it is written, however the dictionary cut the text around it.
#ifndef QUARRY_TEXT_ANALYZER_H_
#define QUARRY_TEXT_ANALYZER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace quarry {

// The language of an analyzer given none, and of a new index.
inline constexpr char kDefaultLanguage[] = "english";

struct AnalyzerConfig {
  // A Snowball stemmer that Xapian ships ("english", "french", "german", …),
  // or "none" to index words unstemmed.
  std::string language = kDefaultLanguage;
  // Written before every stem: an index holding articles of several
  // languages gives each language but its first a mark of its own, so that
  // French "marche" and English "march" stay apart. Empty for the first.
  std::string stem_mark = {};
};

// Throws ConfigError, naming the languages there are, unless `language` is
// one an Analyzer accepts. Cheaper than making an Analyzer to find out.
void check_language(const std::string& language);

// One word of a text. The terms one character folds into (Thai ำ as ํ and
// า) are tokens of the same offsets, one after the other.
struct Token {
  std::string term;   // the normalized word, as stored in the index
  std::size_t begin;  // byte offset of the word in the analyzed text
  std::size_t end;    // byte offset one past the word
};

// Safe to share between threads once built for tokenize() and normalize(),
// which may be called from several threads at once. stem() is not: it
// keeps a cache of stems, so a thread that stems needs an Analyzer of its
// own.
class Analyzer {
 public:
  // Throws ConfigError when the language has no stemmer.
  explicit Analyzer(AnalyzerConfig config = {});
  ~Analyzer();
  Analyzer(Analyzer&&) noexcept;
  Analyzer& operator=(Analyzer&&) noexcept;

  // The words of `text`, in order. Invalid UTF-8 never throws: bad bytes are
  // treated as non-word characters. Words longer than kMaxTermBytes once
  // normalized are dropped, as no one searches for them.
  std::vector<Token> tokenize(std::string_view text) const;
  // The first `max_tokens` words only: the rest of the text is not read.
  std::vector<Token> tokenize(std::string_view text, std::size_t max_tokens) const;

  // The normalized form of `word` with no segmentation applied.
  std::string normalize(std::string_view word) const;

  // `word`, a normalized word (of the index), written in the case of
  // `typed`, what a user typed for it, as a completion or a correction
  // shows it. When `word` starts with `typed` normalized, `typed` itself
  // then the rest ("Manch" → "Manchester"); else `word`, with a capital
  // first when `typed` starts with one ("Beckam" → "Beckham"). The rest is
  // in capitals when `typed` has more than one and no small letter ("MANCH"
  // → "MANCHESTER", "BECKAM" → "BECKHAM").
  std::string in_typed_case(std::string_view typed, std::string_view word) const;

  // The stem of an already normalized term, after the configured mark. Not
  // thread-safe (see above).
  std::string stem(const std::string& term) const;

  const AnalyzerConfig& config() const { return config_; }

  // Languages with a stemmer, space separated, as Xapian names them.
  static std::string available_languages();

  static constexpr std::size_t kMaxTermBytes = 64;

 private:
  struct Impl;
  AnalyzerConfig config_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry

#endif  // QUARRY_TEXT_ANALYZER_H_
