// Pseudo-relevance feedback over a first pass of the matcher (see
// quarry/search/feedback.h).
#ifndef QUARRY_LIB_SEARCH_FEEDBACK_H_
#define QUARRY_LIB_SEARCH_FEEDBACK_H_

#include <xapian.h>

#include <optional>

#include "quarry/search/feedback.h"

namespace quarry::detail {

// Whether `query` is a bag of words: one term, or an OR of terms.
bool is_bag_of_words(const Xapian::Query& query);

// Whether FeedbackMode::kAuto ranks `query` with feedback: a bag of at
// least config.min_words distinct words.
bool feedback_helps(const Xapian::Query& query, const FeedbackConfig& config);

// `query` with the words that best mark the first pass's top hits adding
// to the score of the articles it matches, each scaled by its expansion
// weight: what `enquire` (whose query ranks as `query` does) finds first is
// taken as relevant. The matches stay the query's, so counts and facets
// are unchanged; only their order changes. Nothing when the first pass
// matches fewer than config.min_matches articles.
std::optional<Xapian::Query> feedback_query(const Xapian::Database& db, Xapian::Enquire& enquire,
                                            const Xapian::Query& query,
                                            const FeedbackConfig& config);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_FEEDBACK_H_
