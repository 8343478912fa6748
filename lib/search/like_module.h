// More like this (SearchOptions::like): articles like a given one, the
// query's matches narrowing them when there is a query.
#ifndef QUARRY_LIB_SEARCH_LIKE_MODULE_H_
#define QUARRY_LIB_SEARCH_LIKE_MODULE_H_

#include <memory>

#include "lib/search/search_module.h"

namespace quarry::detail {

// Rewrites the query into more_like_this.h's LikeQuery: alone, it is the
// query, and its words are highlighted; with a query, it is filtered by
// the query, whose words are highlighted. Either way the hit's score is
// explained as one part, "like:ID".
std::unique_ptr<SearchModule> make_like_module();

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_LIKE_MODULE_H_
