#include "lib/search/like_module.h"

#include <utility>

#include "lib/search/more_like_this.h"
#include "lib/search/story_reports.h"

namespace quarry::detail {
namespace {

class LikeModule final : public SearchModule {
 public:
  void rewrite(const SearchContext& context, ParsedQuery* parsed) override {
    const LikeOptions& options = context.options.like;
    story_.clear();
    if (options.id.empty()) return;
    LikeQuery like = like_query(context.shards.articles(), options.id, options.terms);
    story_ = std::move(like.story);
    if (parsed->query.empty()) {
      parsed->highlight = std::move(like.highlight);
      parsed->query = std::move(like.query);
    } else {
      parsed->query = Xapian::Query(Xapian::Query::OP_FILTER, like.query, parsed->query);
    }
    parsed->scoring_parts = {{"like:" + options.id, parsed->query}};
  }

  void fill_hit(const SearchContext& context, const StoredHit& stored, Hit* hit) override {
    if (story_.empty()) return;
    const std::optional<Group> story =
        group_of(context.shards.articles(), stored.did, Collapse::kStory);
    hit->same_story = story && story->key == story_;
  }

 private:
  // The story of the article the search is like, for this search; empty
  // when it is none or the article is a story alone.
  std::string story_;
};

}  // namespace

std::unique_ptr<SearchModule> make_like_module() { return std::make_unique<LikeModule>(); }

}  // namespace quarry::detail
