#include "lib/search/feedback_module.h"

#include <optional>
#include <utility>

#include "lib/search/feedback_query.h"

namespace quarry::detail {
namespace {

class FeedbackModule final : public SearchModule {
 public:
  void rank(const SearchContext& context, Ranking* ranking) override {
    const SearchOptions& options = context.options;
    const FeedbackMode mode = options.feedback.mode;
    const bool wanted =
        mode == FeedbackMode::kOn ||
        (mode == FeedbackMode::kAuto && feedback_helps(ranking->parsed.query, options.feedback));
    if (!wanted || options.sort != SortOrder::kRelevance || !options.like.id.empty()) return;
    // Feedback reorders the query's matches and matches no others: they
    // are counted as the query's, with its cheaper counting, from the
    // first pass when the second orders only its best.
    // Recency ranks more of the matches than a page's worth, which a
    // rescored window would hide.
    const bool rescore = context.shards.articles().size() == 1 && !context.shards.any_remote() &&
                         options.recency.half_life <= 0;
    Xapian::Enquire& enquire = ranking->enquire;
    std::optional<Feedback> feedback = feedback_query(
        context.shards.articles(), enquire, ranking->parsed.query, enquire.get_query(),
        options.feedback, ranking->check_at_least, rescore, ranking->page_end);
    if (!feedback) return;
    enquire.set_query(
        deadline_bounded(feedback->query, context.deadline, !context.shards.any_remote()));
    if (rescore) ranking->first_pass = std::move(feedback->first);
  }
};

}  // namespace

std::unique_ptr<SearchModule> make_feedback_module() { return std::make_unique<FeedbackModule>(); }

}  // namespace quarry::detail
