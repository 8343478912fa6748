// One order for hits of equal score, wherever they are searched from.
//
// Xapian orders equal scores by document number, and the same article has
// another number in one database than in a shard set. Quarry orders them
// by date, newest first, then by id, which do not change: the value each
// article stores for this (schema.h's hit_order_key) orders equal scores.
#ifndef QUARRY_LIB_SEARCH_HIT_ORDER_H_
#define QUARRY_LIB_SEARCH_HIT_ORDER_H_

#include <xapian.h>

#include <memory>
#include <vector>

#include "quarry/search/search_result.h"

namespace quarry::detail {

// A hit of a page: the document, its weight and its 0-based rank.
struct RankedHit {
  Xapian::docid did;
  double weight;
  Xapian::doccount rank;
};

// A page of hits, and the ranking it came from.
struct RankedPage {
  std::vector<RankedHit> hits;
  // The ranking's matches (its bounds on their number hold).
  Xapian::MSet ranked;
};

// The page of `limit` hits from `offset` of the enquire's query, ranked by
// relevance, equal scores in the stored order. `one_local`: `db` (the
// enquire's) is one database on this machine.
//
// Xapian can order equal scores by a value, but then reads it for every
// article it considers. On one local database the page is ranked by
// relevance alone, while every article considered is noted with its
// weight. Only when an article off the page weighs as much as the page's
// first or last, where the order decides which articles make the page,
// are the values of the articles that weigh as much as its last read, and
// the page made from them. Over shards the matcher does not tell which shard a noted
// article is in, and remote ones run only Xapian's own match spies: there
// Xapian orders by the value as it goes.
// `check_at_least` is Enquire::get_mset's.
RankedPage rank_page(Xapian::Enquire& enquire, const Xapian::Database& db, Xapian::doccount offset,
                     Xapian::doccount limit, Xapian::doccount check_at_least, bool one_local);

// The page as rank_page() ranks it, showing each group once (the articles
// sharing a value in `slot`, a story or a set of copies; an article
// without one is a group of its own) by its best article, as Xapian's
// collapsing would: `db` is one local database, and the enquire collapses
// nothing.
//
// Xapian collapses as it ranks, reading the group of every article it
// considers, and prunes less while it has too few groups for the page: on
// the common query that was half of the search. The groups of the best
// articles alone are read, in a window a few times the page, widened when
// it holds too few groups.
RankedPage collapsed_page(Xapian::Enquire& enquire, const Xapian::Database& db,
                          Xapian::doccount offset, Xapian::doccount limit,
                          Xapian::doccount check_at_least, Xapian::valueno slot);

// The order of hits sorted by date (`newest_first` or oldest first): by
// day, then by time of day (an article with a day and no time before those
// with one, as at midnight), articles without a date last both ways.
// Indexes that lack the time slot are sorted by day alone. Local
// databases only: Xapian's remote protocol takes no key maker.
std::unique_ptr<Xapian::KeyMaker> date_order(bool newest_first);

// Scores of the same articles may differ in their last bits between one
// database and a shard set, as terms' weights are added in another order:
// orders each run of hits whose scores are that close as if they were
// equal. Hits keep their ranks' numbers.
void order_near_ties(std::vector<Hit>* hits);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_HIT_ORDER_H_
