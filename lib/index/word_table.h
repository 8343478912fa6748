// The words a build has read: each with its stem term and the number of
// articles that hold it. One lookup per word read serves both the postings
// and the vocabulary, and a stamp per word counts each article once without
// sorting its words.
#ifndef QUARRY_LIB_INDEX_WORD_TABLE_H_
#define QUARRY_LIB_INDEX_WORD_TABLE_H_

#include <xapian.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lib/index/language_analyzers.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

class WordTable {
 public:
  // For an index asked for `index_language` (kLanguageKey). Throws
  // ConfigError when it has no stemmer.
  explicit WordTable(const std::string& index_language) : analyzers_(index_language) {}

  // The analyzers the table's words come from and are stemmed by.
  LanguageAnalyzers& analyzers() { return analyzers_; }

  // Starts counting the next article: each word counts once per article.
  void next_article() { ++article_; }

  // The indexed term of `word` (the stem, prefixed) in the main language,
  // counting the current article as holding the word. The reference lasts
  // as long as the table.
  const std::string& stem_term(const std::string& word);
  // The same in the language of `analyzer`, one of analyzers(). The
  // reference lasts until the next call.
  const std::string& stem_term(const Analyzer& analyzer, const std::string& word);

  // Counts the current article as holding `word` (as article_words gives
  // them, marked or not), without stemming it.
  void count(const std::string& word) { counted(word); }

  // Takes an article that held `words` out of the counts, before it is
  // replaced.
  void forget(const std::vector<std::string>& words);

  // Adds the counts of `other`, which is left empty: a repeated id lives in
  // one writer only, so the sum counts each article once.
  void absorb(WordTable&& other);

  // Each word held by at least one article, with the number of articles.
  template <typename Visit>
  void for_each_word(Visit visit) const {
    for (const auto& [word, entry] : entries_) {
      if (entry.articles > 0) visit(word, entry.articles);
    }
  }

 private:
  struct Entry {
    std::string stem_term;  // empty until the word is stemmed
    Xapian::doccount articles = 0;
    std::uint64_t last_article = 0;  // the article counted last
  };

  Entry& counted(const std::string& word);

  LanguageAnalyzers analyzers_;
  std::unordered_map<std::string, Entry> entries_;
  std::string other_term_;  // the last term of a language but the main one
  std::uint64_t article_ = 1;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_WORD_TABLE_H_
