#include "lib/search/facet_module.h"

#include "lib/search/match_count.h"

namespace quarry::detail {
namespace {

class FacetModule final : public SearchModule {
 public:
  bool counts_every_match(const SearchContext& context) const override {
    return !context.options.facets.fields.empty();
  }

  void count(const SearchContext& context, const Matches& matches, SearchResult* result) override {
    if (!counts_every_match(context)) return;
    FacetCounter counter(context.options.facets.fields);
    result->total = counter.count(context.shards.articles(), matches.query);
    result->total_exact = true;
    result->facets = counter.facets(context.analyzer);
  }
};

}  // namespace

std::unique_ptr<SearchModule> make_facet_module() { return std::make_unique<FacetModule>(); }

}  // namespace quarry::detail
