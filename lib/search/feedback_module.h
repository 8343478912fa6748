// Pseudo-relevance feedback (SearchOptions::feedback): the query's best
// matches taken as relevant, and the words that mark them added to the
// ranking of its matches (feedback_query.h).
#ifndef QUARRY_LIB_SEARCH_FEEDBACK_MODULE_H_
#define QUARRY_LIB_SEARCH_FEEDBACK_MODULE_H_

#include <memory>

#include "lib/search/search_module.h"

namespace quarry::detail {

// Where options.feedback says (and hits are ranked by relevance, and not
// by likeness to an article), runs the first pass on the enquire as the
// modules before it set it up (collapsed, when hits are), and sets the
// query its matches are ranked by. On one local index the second pass
// orders only the first pass's best matches: the first pass then counts
// the matches (Ranking::first_pass).
std::unique_ptr<SearchModule> make_feedback_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_FEEDBACK_MODULE_H_
