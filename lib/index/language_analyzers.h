// The analyzers of an index that holds articles of several languages: one
// per language, made as it is first needed, each marking its stems as the
// index lays them out (stem_mark), and the rule that gives each article
// its language.
#ifndef QUARRY_LIB_INDEX_LANGUAGE_ANALYZERS_H_
#define QUARRY_LIB_INDEX_LANGUAGE_ANALYZERS_H_

#include <cstddef>
#include <map>
#include <string>

#include "quarry/index/index_writer.h"
#include "quarry/input/article.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

// Adds `more` to `into`.
void add_counts(LanguageCounts& into, const LanguageCounts& more);

// Not thread-safe: each thread that analyzes needs its own, as it needs
// its own Analyzer.
class LanguageAnalyzers {
 public:
  // For an index asked for `language` (kLanguageKey: a stemmer's name, or
  // kAutoLanguage). Throws ConfigError when it has no stemmer.
  explicit LanguageAnalyzers(const std::string& language);

  // The language articles that say none are analyzed in when they are not
  // identified, and whose stems are unmarked.
  const std::string& main_language() const { return main_; }
  const Analyzer& main() const { return analyzers_.at(main_); }

  // The analyzer of `language`, a stemmer's name. Throws ConfigError when
  // it has none.
  const Analyzer& of(const std::string& language);

  // The language `article` is analyzed in: the one it says, else, in an
  // index that identifies languages, the one its text is written in when
  // that can be told, else the main language. Counted in counts().
  std::string language_of(const Article& article);

  const LanguageCounts& counts() const { return counts_; }

 private:
  std::string main_;
  bool identifies_;
  std::map<std::string, Analyzer> analyzers_;
  LanguageCounts counts_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_LANGUAGE_ANALYZERS_H_
