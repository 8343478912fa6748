#include "lib/search/story_module.h"

#include <algorithm>

#include "lib/search/story_reports.h"

namespace quarry::detail {
namespace {

class StoryModule final : public SearchModule {
 public:
  void rank(const SearchContext& context, Ranking* ranking) override {
    ranking->collapse_key = collapse_slot(context.options.collapse.by);
    if (ranking->collapse_key) ranking->enquire.set_collapse_key(*ranking->collapse_key);
  }

  void count(const SearchContext& context, const Matches& matches, SearchResult* result) override {
    result->stories = result->total;
    result->stories_exact = result->total_exact;
    if (collapse_slot(context.options.collapse.by)) count_stories(matches.ranked, result);
  }

  void fill_hit(const SearchContext& context, const StoredHit& stored, Hit* hit) override {
    add_story_reports(context.shards.articles(), stored.did, context.options.collapse.by, hit);
  }

 private:
  // The ranking counted stories as it went: exactly when its bounds meet,
  // else as an estimate no larger than the articles.
  static void count_stories(const Xapian::MSet& ranked, SearchResult* result) {
    const std::size_t lower = ranked.get_matches_lower_bound();
    if (result->total_exact && lower == ranked.get_matches_upper_bound()) {
      result->stories = lower;
      return;
    }
    result->stories = std::min<std::size_t>(
        std::max<std::size_t>(ranked.get_matches_estimated(), lower), result->total);
    result->stories_exact = false;
  }
};

}  // namespace

std::unique_ptr<SearchModule> make_story_module() { return std::make_unique<StoryModule>(); }

}  // namespace quarry::detail
