#include "lib/search/like_module.h"

#include <utility>

#include "lib/search/more_like_this.h"

namespace quarry::detail {
namespace {

class LikeModule final : public SearchModule {
 public:
  void rewrite(const SearchContext& context, ParsedQuery* parsed) override {
    const LikeOptions& options = context.options.like;
    if (options.id.empty()) return;
    LikeQuery like = like_query(context.shards.articles(), options.id, options.terms,
                                context.options.collapse.by);
    if (parsed->query.empty()) {
      parsed->highlight = std::move(like.highlight);
      parsed->query = std::move(like.query);
    } else {
      parsed->query = Xapian::Query(Xapian::Query::OP_FILTER, like.query, parsed->query);
    }
    parsed->scoring_parts = {{"like:" + options.id, parsed->query}};
  }
};

}  // namespace

std::unique_ptr<SearchModule> make_like_module() { return std::make_unique<LikeModule>(); }

}  // namespace quarry::detail
