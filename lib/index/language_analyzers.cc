#include "lib/index/language_analyzers.h"

#include <algorithm>

#include "lib/index/schema.h"
#include "quarry/text/language_identifier.h"

namespace quarry::detail {
namespace {

// The identifier reads no more than its first 64 KiB.
constexpr std::size_t kIdentifiedBodyBytes = std::size_t{64} << 10;

}  // namespace

void add_counts(LanguageCounts& into, const LanguageCounts& more) {
  for (const auto& [language, count] : more) {
    into[language].articles += count.articles;
    into[language].identified += count.identified;
  }
}

LanguageAnalyzers::LanguageAnalyzers(const std::string& language)
    : main_(detail::main_language(language)), identifies_(language == kAutoLanguage) {
  of(main_);
}

const Analyzer& LanguageAnalyzers::of(const std::string& language) {
  auto found = analyzers_.find(language);
  if (found == analyzers_.end()) {
    found =
        analyzers_.emplace(language, Analyzer(AnalyzerConfig{language, stem_mark(language, main_)}))
            .first;
  }
  return found->second;
}

std::string LanguageAnalyzers::language_of(const Article& article) {
  std::string language = article.language;
  bool identified = false;
  if (language.empty() && identifies_) {
    // The title first: a headline alone is often too short to tell, and
    // with the body it weighs no more than its length.
    std::string text = article.title;
    text += "\n\n";
    text.append(article.body, 0, std::min(article.body.size(), kIdentifiedBodyBytes));
    language = identify_language(text);
    identified = !language.empty();
  }
  if (language.empty()) language = main_;
  LanguageCount& count = counts_[language];
  ++count.articles;
  if (identified) ++count.identified;
  return language;
}

}  // namespace quarry::detail
