// One order for hits of equal score, wherever they are searched from.
//
// Xapian orders equal scores by document number, and the same article has
// another number in one database than in a shard set. Quarry orders them
// by date, newest first, then by id, which do not change: the value each
// article stores for this (schema.h's hit_order_key; a value, as remote
// shards cannot run a KeyMaker) orders equal scores.
#ifndef QUARRY_LIB_SEARCH_HIT_ORDER_H_
#define QUARRY_LIB_SEARCH_HIT_ORDER_H_

#include <xapian.h>

#include <vector>

#include "quarry/search/searcher.h"

namespace quarry::detail {

// A page of hits ranked by relevance: mset[begin, end).
struct RankedPage {
  Xapian::MSet mset;
  // Ranked with no cutoff, so that its bounds on the number of matches
  // hold (the page's own mset may have read only the best).
  Xapian::MSet ranked;
  Xapian::doccount begin = 0;
  Xapian::doccount end = 0;
};

// The page of `limit` hits from `offset` of the enquire's query, ranked by
// relevance, equal scores in the stored order. Reading that order costs a
// value per candidate, so it is read only where it decides which articles
// make the page: the page is ranked by relevance alone, with a hit more on
// each side, and ranked again with the order only when equal scores cross
// one of its edges. Within the page, order_near_ties() orders them.
RankedPage rank_page(Xapian::Enquire& enquire, Xapian::doccount offset, Xapian::doccount limit);

// Scores of the same articles may differ in their last bits between one
// database and a shard set, as terms' weights are added in another order:
// orders each run of hits whose scores are that close as if they were
// equal. Hits keep their ranks' numbers.
void order_near_ties(std::vector<Hit>* hits);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_HIT_ORDER_H_
