// The terms of which an article must hold one to match a query: what a
// saved search is filed under, so that a new article is tested only against
// the searches it can match (see quarry/search/saved_search.h).
#ifndef QUARRY_LIB_SEARCH_QUERY_ANCHORS_H_
#define QUARRY_LIB_SEARCH_QUERY_ANCHORS_H_

#include <xapian.h>

#include <optional>
#include <string>
#include <vector>

namespace quarry::detail {

// Terms of which every article `query` matches holds at least one. Where a
// query requires several parts (AND, a phrase, a filter), the part whose
// terms are rarest in `db` is taken, so that as few articles as may be
// hold an anchor. None (std::nullopt) when an article may match without
// holding any term (a date range, a query matching all, a posting source);
// an empty list when the query matches nothing.
std::optional<std::vector<std::string>> query_anchors(const Xapian::Query& query,
                                                      const Xapian::Database& db);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_QUERY_ANCHORS_H_
