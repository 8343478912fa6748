// How many articles a query matches, counted exactly rather than estimated,
// and how many of them have each source, category or month (facets).
//
// Ranking prunes: it stops looking at articles that cannot make the page,
// so the number of matches it reports is an estimate. Counting is a second
// pass over the query's postings, unweighted, which stops at the limit
// asked for.
#ifndef QUARRY_LIB_SEARCH_MATCH_COUNT_H_
#define QUARRY_LIB_SEARCH_MATCH_COUNT_H_

#include <xapian.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "quarry/search/facet.h"
#include "quarry/text/analyzer.h"

namespace quarry::detail {

struct MatchCount {
  std::size_t total = 0;
  bool exact = true;  // else `total` is the limit, which the matches exceed
};

// The count a ranked `mset` proves (its bounds are equal, or its lower
// bound is past `limit`), else a pass of `query` unweighted over `db`.
// `query` must match what ranked the mset (posting sources aside). `local`:
// every database of `db` is on this machine, where reading a bag of words'
// postings directly is cheap.
MatchCount count_matches(const Xapian::Database& db, const Xapian::Query& query,
                         const Xapian::MSet& mset, std::size_t limit, bool local);

// How many matches the ranking of `query` should look at (its
// check_at_least) so that count_matches() needs no pass of its own: a
// query only Xapian's matcher can count (a phrase, a filter, NOT) is
// counted while it is ranked, for a second pass would test each phrase
// again; a bag of words on local databases is counted apart, cheaply, and
// ranked with pruning (0).
Xapian::doccount ranking_check_at_least(const Xapian::Query& query, std::size_t limit, bool local);

// Every match of `query`, counted with no limit.
std::size_t count_all_matches(const Xapian::Database& db, const Xapian::Query& query);

// Counts every match of a query by fields, with one Xapian
// ValueCountMatchSpy a field (they also count on remote shards).
class FacetCounter {
 public:
  explicit FacetCounter(std::vector<FacetField> fields);
  ~FacetCounter();

  // Counts every match of `query` in `db`; returns how many match.
  std::size_t count(const Xapian::Database& db, const Xapian::Query& query);

  // The counts of the last count(), values folded by `analyzer` as the
  // field filters fold them, dates by month (or by year over long spans).
  std::vector<Facet> facets(const Analyzer& analyzer) const;

 private:
  std::vector<FacetField> fields_;
  std::vector<std::unique_ptr<Xapian::ValueCountMatchSpy>> spies_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_SEARCH_MATCH_COUNT_H_
