#include "lib/search/snippet_module.h"

#include <vector>

#include "lib/search/stored_positions.h"

namespace quarry::detail {
namespace {

class SnippetModule final : public SearchModule {
 public:
  // A local index tells where the query's stems are in a hit faster than
  // stemming the hit's words; over the network each stem would cost a
  // round trip, so remote hits are stemmed.
  void fill_hit(const SearchContext& context, const StoredHit& stored, Hit* hit) override {
    const SnippetOptions& options = context.options.snippets;
    if (!options.enabled) return;
    const HighlightTerms& terms = stored.parsed.highlight;
    // The hit's own language finds the forms of the query's words in it.
    const Analyzer& analyzer =
        stored.language.empty() ? context.analyzer : context.languages.of(stored.language);
    if (terms.stems.empty() || context.shards.any_remote()) {
      hit->snippet = make_snippet(analyzer, stored.body, terms, options.passage);
      hit->title_highlights = highlight_all(analyzer, hit->title, terms).highlights;
      return;
    }
    const std::vector<Token> title = analyzer.tokenize(hit->title);
    const ArticleStemWords places =
        article_stem_words(context.shards.articles(), stored.did, title.size(), terms.stems);
    hit->snippet = make_snippet(analyzer, stored.body, terms, places.body, options.passage);
    hit->title_highlights = highlight_all(hit->title, title, terms, places.title).highlights;
  }
};

}  // namespace

std::unique_ptr<SearchModule> make_snippet_module() { return std::make_unique<SnippetModule>(); }

}  // namespace quarry::detail
