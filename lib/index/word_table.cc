#include "lib/index/word_table.h"

#include "lib/index/schema.h"

namespace quarry::detail {

WordTable::Entry& WordTable::counted(const std::string& word) {
  Entry& entry = entries_[word];
  if (entry.last_article != article_) {
    entry.last_article = article_;
    ++entry.articles;
  }
  return entry;
}

const std::string& WordTable::stem_term(const std::string& word) {
  Entry& entry = counted(word);
  if (entry.stem_term.empty()) entry.stem_term = kStemPrefix + analyzers_.main().stem(word);
  return entry.stem_term;
}

// The main language's stems are cached with the counts; another's are
// cached by its analyzer.
const std::string& WordTable::stem_term(const Analyzer& analyzer, const std::string& word) {
  const std::string& mark = analyzer.config().stem_mark;
  if (mark.empty()) return stem_term(word);
  counted(word);
  // The word as the language writes it (see add_words).
  other_term_ = mark;
  other_term_ += word;
  counted(other_term_);
  other_term_ = kStemPrefix;
  other_term_ += analyzer.stem(word);
  return other_term_;
}

void WordTable::forget(const std::vector<std::string>& words) {
  for (const std::string& word : words) {
    auto found = entries_.find(word);
    if (found != entries_.end() && found->second.articles > 0) --found->second.articles;
  }
}

void WordTable::absorb(WordTable&& other) {
  for (auto& [word, entry] : other.entries_) {
    if (entry.articles > 0) entries_[word].articles += entry.articles;
  }
  other.entries_ = {};
}

}  // namespace quarry::detail
