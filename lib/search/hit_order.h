// One order for hits of equal score, wherever they are searched from.
//
// Xapian orders equal scores by document number, and the same article has
// another number in one database than in a shard set. Quarry orders them
// by date, newest first, then by id, which do not change: the searcher
// sorts by relevance, then by the value each article stores for this
// (schema.h's hit_order_key; a value, as remote shards cannot run a
// KeyMaker).
#ifndef QUARRY_LIB_SEARCH_HIT_ORDER_H_
#define QUARRY_LIB_SEARCH_HIT_ORDER_H_

#include <vector>

#include "quarry/search/searcher.h"

namespace quarry::detail {

// Scores of the same articles may differ in their last bits between one
// database and a shard set, as terms' weights are added in another order:
// orders each run of hits whose scores are that close as if they were
// equal. Hits keep their ranks' numbers.
void order_near_ties(std::vector<Hit>* hits);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_HIT_ORDER_H_
