#include "lib/search/story_module.h"

#include <algorithm>

#include "lib/search/match_count.h"
#include "lib/search/story_reports.h"

namespace quarry::detail {
namespace {

class StoryModule final : public SearchModule {
 public:
  void rank(const SearchContext& context, Ranking* ranking) override {
    ranking->collapse_key = collapse_slot(context.options.collapse.by);
    if (ranking->collapse_key) ranking->enquire.set_collapse_key(*ranking->collapse_key);
  }

  // The ranking's own count of the groups is an estimate that moves with
  // the page and the order, as it prunes what cannot make the page: the
  // groups are counted apart, as the core counts the articles.
  void count(const SearchContext& context, const Matches& matches, SearchResult* result) override {
    const std::optional<Xapian::valueno> slot = collapse_slot(context.options.collapse.by);
    if (!slot) {
      result->stories = result->total;
      result->stories_exact = result->total_exact;
      return;
    }
    const GroupCount counted =
        count_groups(context.shards.articles(), matches.query, *slot, context.options.count_limit);
    result->collapse = context.options.collapse.by;
    // A story holds an article at least. Past the count limit the estimate
    // is scaled to all the matches, which the total, then a lower bound,
    // may fall short of: it says no more stories than the articles said.
    result->stories = std::min(counted.groups, result->total);
    result->stories_exact = counted.exact;
  }

  void fill_hit(const SearchContext& context, const StoredHit& stored, Hit* hit) override {
    add_story_reports(context.shards, stored.did, context.options.collapse.by, hit);
  }
};

}  // namespace

std::unique_ptr<SearchModule> make_story_module() { return std::make_unique<StoryModule>(); }

}  // namespace quarry::detail
