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

#include "quarry/text/analyzer.h"

namespace quarry::detail {

class WordTable {
 public:
  // Throws ConfigError when the language has no stemmer.
  explicit WordTable(AnalyzerConfig config) : analyzer_(std::move(config)) {}

  // The analyzer the table's words come from and are stemmed by.
  const Analyzer& analyzer() const { return analyzer_; }

  // Starts counting the next article: each word counts once per article.
  void next_article() { ++article_; }

  // The indexed term of `word` (the stem, prefixed), counting the current
  // article as holding the word. The reference lasts as long as the table.
  const std::string& stem_term(const std::string& word);

  // Counts the current article as holding `word`, without stemming it.
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

  Analyzer analyzer_;
  std::unordered_map<std::string, Entry> entries_;
  std::uint64_t article_ = 1;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_WORD_TABLE_H_
