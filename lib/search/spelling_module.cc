#include "lib/search/spelling_module.h"

#include <string>
#include <utility>

#include "lib/index/schema.h"
#include "lib/search/spelling.h"

namespace quarry::detail {
namespace {

class SpellingModule final : public SearchModule {
 public:
  SearchResult search(const SearchContext& context, std::string_view query,
                      const ParsedQuery& parsed, SearchRunner& rest) override {
    std::string suggestion = suggest(context, query, parsed);
    const Correction correct = context.options.spelling.correct;
    if (suggestion.empty() || correct == Correction::kNever) {
      SearchResult found = rest.run(parsed);
      found.suggestion = std::move(suggestion);
      return found;
    }
    // As search engines do: rather than nothing, what was probably meant.
    SearchResult found;
    if (correct == Correction::kAuto) {
      found = rest.run(parsed);
      if (found.total > 0) {
        found.suggestion = std::move(suggestion);
        return found;
      }
    }
    SearchResult corrected = rest.run(rest.read(suggestion));
    if (correct == Correction::kAuto && corrected.total == 0) {
      found.suggestion = std::move(suggestion);
      return found;
    }
    corrected.suggestion = std::move(suggestion);
    corrected.corrected = true;
    return corrected;
  }

  void forget() override { speller_.forget(); }

 private:
  // Replaces each rare free word with a much more frequent word of the
  // index close to it (see better_spelling).
  std::string suggest(const SearchContext& context, std::string_view query,
                      const ParsedQuery& parsed) {
    ShardGroup& shards = context.shards;
    const Xapian::doccount articles = shards.articles().get_doccount();
    std::string suggestion;
    std::size_t copied = 0;
    bool changed = false;
    for (const QueryWord& word : parsed.free_words) {
      const bool finds_articles =
          shards.articles().get_termfreq(kStemPrefix + context.analyzer.stem(word.term)) > 0;
      const std::string better = speller_.better_spelling(
          shards.spelling(), articles, context.analyzer, word.term, finds_articles);
      if (better.empty() || word.begin < copied) continue;
      suggestion.append(query.substr(copied, word.begin - copied));
      suggestion += better;
      copied = word.end;
      changed = true;
    }
    if (!changed) return "";
    suggestion.append(query.substr(copied));
    return suggestion;
  }

  // Spelling suggestions known, dropped when the index changes.
  Speller speller_;
};

}  // namespace

std::unique_ptr<SearchModule> make_spelling_module() { return std::make_unique<SpellingModule>(); }

}  // namespace quarry::detail
