// Pseudo-relevance feedback over a first pass of the matcher (see
// quarry/search/feedback.h).
#ifndef QUARRY_LIB_SEARCH_FEEDBACK_QUERY_H_
#define QUARRY_LIB_SEARCH_FEEDBACK_QUERY_H_

#include <xapian.h>

#include <optional>
#include <vector>

#include "quarry/search/feedback.h"

namespace quarry::detail {

// Whether `query` is a bag of words: one term, or an OR of terms and of
// stems weighed by their language.
bool is_bag_of_words(const Xapian::Query& query);

// Whether FeedbackMode::kAuto ranks `query` with feedback: a bag of at
// least config.min_words distinct words that are terms.
bool feedback_helps(const Xapian::Query& query, const FeedbackConfig& config);

// What feedback makes of a query: the query that orders its matches, and
// the first pass, whose bounds count them.
struct Feedback {
  Xapian::Query query;
  Xapian::MSet first;
};

// `query` with the words that best mark the first pass's top hits adding
// to the score of the articles it matches, each scaled by its expansion
// weight: what `enquire` (whose query ranks as `query` does) finds first is
// taken as relevant. `scored` is `query` as the enquire runs it (its words
// may be scored by a posting source), and keeps ranking its matches in the
// second pass. The matches stay the query's; only their order changes.
// `check_at_least` is passed to the first pass, so that its bounds count as
// a ranking of the query would.
//
// With `rescore` (a single local database), the second pass orders only
// the first pass's best `window` matches (at least kRescoreWindow; pass
// offset + limit of the page wanted), as Elasticsearch's rescoring and
// Solr's re-ranking do: a long query's common words match most articles,
// and weighing every one of them again, with twenty more words whose
// weight keeps Xapian from pruning, costs several times the first pass.
// Nothing when the first pass matches fewer than config.min_matches
// articles.
inline constexpr Xapian::doccount kRescoreWindow = 100;
std::optional<Feedback> feedback_query(const Xapian::Database& db, Xapian::Enquire& enquire,
                                       const Xapian::Query& query, const Xapian::Query& scored,
                                       const FeedbackConfig& config,
                                       Xapian::doccount check_at_least, bool rescore,
                                       Xapian::doccount window);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_FEEDBACK_QUERY_H_
