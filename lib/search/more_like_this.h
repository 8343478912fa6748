// Articles like a given one: the words that best mark it, as a query.
#ifndef QUARRY_LIB_SEARCH_MORE_LIKE_THIS_H_
#define QUARRY_LIB_SEARCH_MORE_LIKE_THIS_H_

#include <xapian.h>

#include <string>

#include "quarry/search/highlight_terms.h"

namespace quarry::detail {

// The `terms` stems of the article's text that best tell it from the rest
// of `db` (Xapian's expansion weights, with the article as the one relevant
// document), OR-ed, each scaled by its weight, the article itself left out,
// and the key of its story (empty when it is a story alone). Hits are
// highlighted for those stems. Works on shards, local or remote: the
// article's terms come from the index. Throws UnknownArticleError when no
// article has this id.
struct LikeQuery {
  Xapian::Query query;
  HighlightTerms highlight;
  std::string story;
};
LikeQuery like_query(const Xapian::Database& db, const std::string& id, unsigned terms);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_MORE_LIKE_THIS_H_
