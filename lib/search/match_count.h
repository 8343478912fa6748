// How many articles a query matches, and how many groups (stories) they
// fall in, counted exactly rather than estimated.
//
// Ranking prunes: it stops looking at articles that cannot make the page,
// so the number of matches it reports is an estimate, and so is the number
// of groups a collapsed ranking reports, which moves with the page and the
// order. Counting is a second pass over the query's postings, unweighted,
// which stops at the limit asked for.
#ifndef QUARRY_LIB_SEARCH_MATCH_COUNT_H_
#define QUARRY_LIB_SEARCH_MATCH_COUNT_H_

#include <xapian.h>

#include <cstddef>
#include <vector>

#include "lib/search/deadline.h"

namespace quarry::detail {

struct MatchCount {
  std::size_t total = 0;
  bool exact = true;  // else `total` is the limit, which the matches exceed
};

// The count a ranked `mset` proves (its bounds are equal, or its lower
// bound is past `limit`), else a pass of `query` unweighted over `db`.
// `query` must match what ranked the mset (posting sources aside). `local`:
// every database of `db` is on this machine, where reading a bag of words'
// postings directly is cheap. Once `deadline` has passed, counting stops
// with what it has counted, as a lower bound.
MatchCount count_matches(const Xapian::Database& db, const Xapian::Query& query,
                         const Xapian::MSet& mset, std::size_t limit, bool local,
                         const Deadline& deadline = Deadline());

// How many matches the ranking of `query` should look at (its
// check_at_least) so that count_matches() needs no pass of its own: a
// query only Xapian's matcher can count (a phrase, a filter, NOT) is
// counted while it is ranked, for a second pass would test each phrase
// again; a bag of words on local databases is counted apart, cheaply, and
// ranked with pruning (0).
Xapian::doccount ranking_check_at_least(const Xapian::Query& query, std::size_t limit, bool local);

// Every match of `query`, counted with no limit, each shown to `spies`
// (Xapian's match spies count on remote shards too).
std::size_t count_all_matches(const Xapian::Database& db, const Xapian::Query& query,
                              const std::vector<Xapian::MatchSpy*>& spies = {});

// How many groups the matches of `query` fall in, by their value in
// `slot`, an article with none a group of its own.
struct GroupCount {
  std::size_t groups = 0;
  bool exact = true;  // else an estimate
};

// Counts the groups exactly when `query` matches at most `limit`
// articles; past that, estimates them from the first limit + 1 matches in
// the index's order, scaled to Xapian's estimate of all the matches, so
// that the figure depends on the query and the index alone. A pass of its
// own, unweighted, that every kind of database (remote ones too) can run.
GroupCount count_groups(const Xapian::Database& db, const Xapian::Query& query,
                        Xapian::valueno slot, std::size_t limit);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_MATCH_COUNT_H_
